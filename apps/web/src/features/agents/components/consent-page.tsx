import {
  oauthAuthorizationQuerySchema,
  type AgentScope,
  type OAuthAuthorization,
  type OAuthAuthorizationQuery,
} from '@adpilot/contracts';
import { ShieldCheck, TriangleAlert } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent } from '../../../components/ui/card.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useOAuthAuthorization, useOAuthConsent } from '../api/agents.ts';
import { useErrorText } from '../hooks/use-error-text.ts';

const SELECT_CLASS =
  'h-10 w-full rounded-lg border border-gray-300 bg-white px-3 text-sm text-gray-900 dark:border-gray-600 dark:bg-gray-800 dark:text-gray-100';

/** The authorization request's parameters from the address, as the server checked them; null when they cannot be. */
function requestOf(search: URLSearchParams): OAuthAuthorizationQuery | null {
  const keys = Object.keys(oauthAuthorizationQuerySchema.shape);
  const picked = Object.fromEntries([...search].filter(([key]) => keys.includes(key)));
  const parsed = oauthAuthorizationQuerySchema.safeParse(picked);
  return parsed.success ? parsed.data : null;
}

/**
 * /oauth/consent: an AI client asks to act in AdPilot as the signed-in member (ADR 0153). The page names the client,
 * where its access goes, and lets the member choose the workspace and what it may do there; Allow or Deny sends the
 * browser back to the client.
 */
export function ConsentPage() {
  const { t } = useTranslation('agents');
  const [search] = useSearchParams();
  const request = useMemo(() => requestOf(search), [search]);
  const authorization = useOAuthAuthorization(request);
  const errorText = useErrorText();

  if (request === null || authorization.isError)
    return (
      <Card className="mx-auto mt-8 max-w-xl" role="alert">
        <CardContent className="space-y-2 py-8 text-center">
          <TriangleAlert aria-hidden="true" className="mx-auto size-10 text-amber-500" />
          <h1 className="text-xl font-semibold text-gray-900 dark:text-gray-100">{t('consent.invalid')}</h1>
          <p className="text-gray-600 dark:text-gray-400">
            {authorization.isError
              ? errorText(authorization.error, t('consent.invalidHint'))
              : t('consent.invalidHint')}
          </p>
        </CardContent>
      </Card>
    );
  if (authorization.isPending)
    return (
      <div className="flex justify-center py-16">
        <Spinner size="lg" />
      </div>
    );
  return <ConsentForm request={request} authorization={authorization.data} />;
}

function ConsentForm({
  request,
  authorization,
}: {
  request: OAuthAuthorizationQuery;
  authorization: OAuthAuthorization;
}) {
  const { t } = useTranslation('agents');
  const errorText = useErrorText();
  const consent = useOAuthConsent();
  const workspaceId = useId();
  const first = authorization.workspaces.find((w) => w.grantable.length > 0) ?? authorization.workspaces[0];
  const [chosen, setChosen] = useState(first?.id ?? '');
  const workspace = authorization.workspaces.find((w) => w.id === chosen);
  const grantable = workspace?.grantable ?? [];
  // Read is offered ticked, anything more is the member's choice.
  const readOnlyOf = (id: string) =>
    new Set<AgentScope>(authorization.workspaces.find((w) => w.id === id)?.grantable.includes('read') ? ['read'] : []);
  const [scopes, setScopes] = useState<ReadonlySet<AgentScope>>(() => readOnlyOf(first?.id ?? ''));
  const choose = (id: string) => {
    setChosen(id);
    setScopes(readOnlyOf(id));
  };
  const client = authorization.client.name;

  const answer = (decision: 'allow' | 'deny') =>
    consent.mutate(
      { ...request, decision, workspaceId: chosen, scopes: decision === 'deny' ? ['read'] : [...scopes] },
      {
        onSuccess: ({ redirectTo }) => window.location.assign(redirectTo),
        onError: (error) => toast.error(errorText(error, t('consent.failed'))),
      },
    );
  const toggle = (scope: AgentScope) =>
    setScopes((current) => {
      const next = new Set(current);
      if (next.has(scope)) next.delete(scope);
      else next.add(scope);
      return next;
    });

  return (
    <Card className="mx-auto max-w-xl">
      <CardContent className="space-y-6 py-6">
        <div className="space-y-2 text-center">
          <ShieldCheck aria-hidden="true" className="mx-auto size-10 text-blue-600 dark:text-blue-400" />
          <h1 className="text-xl font-semibold wrap-anywhere text-gray-900 dark:text-gray-100">
            {t('consent.title', { client })}
          </h1>
          <p className="text-sm text-gray-600 dark:text-gray-400">{t('consent.description', { client })}</p>
        </div>
        <p
          role="note"
          className={
            authorization.loopback
              ? 'rounded-lg bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100'
              : 'rounded-lg bg-gray-50 p-3 text-sm text-gray-700 dark:bg-gray-800 dark:text-gray-300'
          }
        >
          {t(authorization.loopback ? 'consent.loopback' : 'consent.redirect', { host: authorization.redirectHost })}
        </p>
        <div>
          <label htmlFor={workspaceId} className="block text-sm font-medium text-gray-700 dark:text-gray-300">
            {t('consent.workspace')}
          </label>
          <select
            id={workspaceId}
            className={`mt-1 ${SELECT_CLASS}`}
            value={chosen}
            onChange={(event) => choose(event.target.value)}
          >
            {authorization.workspaces.map((option) => (
              <option key={option.id} value={option.id}>
                {option.personal ? t('consent.personal') : option.name}
              </option>
            ))}
          </select>
        </div>
        <fieldset>
          <legend className="text-sm font-medium text-gray-700 dark:text-gray-300">{t('consent.scopes')}</legend>
          {grantable.length === 0 ? (
            <p className="mt-2 text-sm text-gray-600 dark:text-gray-400">{t('consent.noneGrantable')}</p>
          ) : (
            <div className="mt-2 space-y-2">
              {authorization.scopes.map((scope) => {
                const allowed = grantable.includes(scope);
                return (
                  <label
                    key={scope}
                    className="flex items-start gap-3 rounded-lg border border-gray-200 p-3 dark:border-gray-700"
                  >
                    <input
                      type="checkbox"
                      className="mt-1"
                      checked={scopes.has(scope)}
                      disabled={!allowed}
                      onChange={() => toggle(scope)}
                    />
                    <span>
                      <span className="block text-sm font-medium text-gray-900 dark:text-gray-100">
                        {t(`scopes.${scope}`)}
                      </span>
                      <span className="block text-xs text-gray-600 dark:text-gray-400">
                        {allowed ? t(`scopes.help.${scope}`) : t('consent.notAllowed')}
                      </span>
                    </span>
                  </label>
                );
              })}
            </div>
          )}
        </fieldset>
        <p className="text-xs text-gray-600 dark:text-gray-400">{t('consent.revokeLater')}</p>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button
            variant="secondary"
            loading={consent.isPending && consent.variables.decision === 'deny'}
            onClick={() => answer('deny')}
          >
            {t('consent.deny')}
          </Button>
          <Button
            disabled={scopes.size === 0}
            loading={consent.isPending && consent.variables.decision === 'allow'}
            onClick={() => answer('allow')}
          >
            {t('consent.allow')}
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
