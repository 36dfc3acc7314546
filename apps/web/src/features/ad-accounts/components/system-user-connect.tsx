import type { FacebookCallbackResponse } from '@adpilot/contracts';
import { KeyRound } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../api/workspaces.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { PasswordInput } from '../../../components/ui/password-input.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useConnectSystemUser } from '../api/connect-system-user.ts';

/** The shortest token the endpoint takes (its schema's minimum). */
const TOKEN_MIN = 20;

/**
 * "Connect with a system-user token" (ADR 0190): an admin or the owner pastes a Business Manager system user's token
 * (masked) and every ad account it reaches is connected, as the endpoint does; the page then names them, and those
 * the plan had no room for. A refusal is worded from its code in the reader's language. Nobody else sees it.
 */
export function SystemUserConnect() {
  const { t } = useTranslation('ad-accounts');
  const isAdmin = useCan('admin');
  const id = useId();
  const [open, setOpen] = useState(false);
  const [token, setToken] = useState('');
  const [invalid, setInvalid] = useState(false);
  const [result, setResult] = useState<FacebookCallbackResponse | null>(null);
  const connect = useConnectSystemUser();
  if (!isAdmin) return null;

  const errorText = (error: unknown): string => {
    const fallback = t('systemUser.failed');
    if (!(error instanceof ApiError) || error.status === 0 || error.code === 'INTERNAL_ERROR') return fallback;
    return t(`errors:codes.${error.code}`, { defaultValue: fallback });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = token.trim();
    if (value.length < TOKEN_MIN) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    setResult(null);
    connect.mutate(value, {
      onSuccess: (answer) => {
        setResult(answer);
        // The secret leaves the page once it has been used.
        setToken('');
      },
    });
  };

  return (
    <section
      aria-labelledby={`${id}-title`}
      className="rounded-lg border border-gray-200 bg-white p-4 dark:border-gray-700 dark:bg-gray-900"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id={`${id}-title`} className="text-base font-semibold text-gray-900 dark:text-white">
            {t('systemUser.title')}
          </h2>
          <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">{t('systemUser.hint')}</p>
        </div>
        {!open && (
          <Button variant="secondary" onClick={() => setOpen(true)}>
            <KeyRound aria-hidden="true" className="size-4" />
            {t('systemUser.open')}
          </Button>
        )}
      </div>
      {open && (
        <form className="mt-4 space-y-3" onSubmit={submit} noValidate>
          <Field
            id={`${id}-token`}
            label={t('systemUser.tokenLabel')}
            error={invalid ? t('systemUser.tooShort') : undefined}
          >
            <PasswordInput
              id={`${id}-token`}
              name="system-user-token"
              autoComplete="off"
              spellCheck={false}
              value={token}
              invalid={invalid}
              onChange={(event) => setToken(event.target.value)}
              toggleLabels={{ show: t('systemUser.show'), hide: t('systemUser.hide') }}
            />
          </Field>
          {connect.isError && (
            <p role="alert" className="text-sm text-red-600 dark:text-red-400">
              {errorText(connect.error)}
            </p>
          )}
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={connect.isPending}>
              {connect.isPending ? t('systemUser.connecting') : t('systemUser.submit')}
            </Button>
            <Button
              variant="ghost"
              onClick={() => {
                setOpen(false);
                setToken('');
                setInvalid(false);
                connect.reset();
              }}
            >
              {t('cancel')}
            </Button>
          </div>
        </form>
      )}
      {result && (
        <div role="status" className="mt-4 space-y-2 text-sm text-gray-700 dark:text-gray-300">
          <p>{t('systemUser.connected', { count: result.connectedAccounts.length })}</p>
          {result.connectedAccounts.length > 0 && (
            <ul className="list-inside list-disc">
              {result.connectedAccounts.map((account) => (
                <li key={account.id}>
                  {account.facebook_account_name} ({account.facebook_account_id})
                </li>
              ))}
            </ul>
          )}
          {result.leftOutAccounts.length > 0 && (
            <p>
              {t('systemUser.leftOut', {
                names: result.leftOutAccounts.map((account) => account.facebook_account_name).join(', '),
                count: result.adAccountLimit,
              })}
            </p>
          )}
        </div>
      )}
    </section>
  );
}
