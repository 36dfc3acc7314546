import type { ApiToken } from '@adpilot/contracts';
import { Bot, KeyRound, X } from 'lucide-react';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { formatDate, formatDateTime } from '../../../lib/format.ts';
import { useApiTokens, useRevokeApiToken } from '../api/agents.ts';
import { useErrorText } from '../hooks/use-error-text.ts';
import { ScopeBadges } from './scope-badges.tsx';

/** The workspace's tokens and connected apps, newest first, each revocable at once. */
export function TokenList({ workspaceId }: { workspaceId: string }) {
  const { t, i18n } = useTranslation('agents');
  const errorText = useErrorText();
  const tokens = useApiTokens(workspaceId);
  const revoke = useRevokeApiToken(workspaceId);
  const [asked, setAsked] = useState<ApiToken | null>(null);
  const language = i18n.language;

  if (tokens.isPending)
    return (
      <div className="flex justify-center py-6">
        <Spinner label={t('tokens.loading')} />
      </div>
    );
  if (tokens.isError)
    return (
      <p role="alert" className="text-sm text-red-600 dark:text-red-400">
        {errorText(tokens.error, t('tokens.loadFailed'))}
      </p>
    );
  if (tokens.data.length === 0) return <p className="text-sm text-gray-600 dark:text-gray-400">{t('tokens.none')}</p>;

  const now = Date.now();
  const confirm = () => {
    if (!asked) return;
    revoke.mutate(asked, {
      onSuccess: () => toast.success(t('tokens.revoked', { name: asked.name })),
      onError: (error) => toast.error(errorText(error, t('tokens.revokeFailed'))),
      onSettled: () => setAsked(null),
    });
  };

  return (
    <>
      <ul className="divide-y divide-gray-100 dark:divide-gray-800" aria-label={t('tokens.title')}>
        {tokens.data.map((token) => {
          const expired = token.expiresAt !== null && Date.parse(token.expiresAt) <= now;
          const Icon = token.kind === 'oauth' ? Bot : KeyRound;
          return (
            <li key={token.id} className="flex flex-wrap items-start gap-3 py-3">
              <Icon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-gray-500 dark:text-gray-400" />
              <div className="min-w-0 flex-1 basis-56 space-y-1">
                <p className="flex flex-wrap items-center gap-2">
                  <span className="font-medium wrap-anywhere text-gray-900 dark:text-gray-100">{token.name}</span>
                  <span className="text-xs text-gray-600 dark:text-gray-400">{t(`tokens.kind.${token.kind}`)}</span>
                  {token.hint && (
                    <code className="rounded bg-gray-100 px-1.5 text-xs text-gray-700 dark:bg-gray-800 dark:text-gray-300">
                      {token.hint}…
                    </code>
                  )}
                </p>
                <ScopeBadges scopes={token.scopes} />
                <p className="text-xs text-gray-600 dark:text-gray-400">
                  {token.createdBy
                    ? t('tokens.createdBy', { name: token.createdBy.name, date: formatDate(token.createdAt, language) })
                    : t('tokens.createdOn', { date: formatDate(token.createdAt, language) })}
                  {' · '}
                  {token.lastUsedAt
                    ? t('tokens.lastUsed', { date: formatDateTime(token.lastUsedAt, language) })
                    : t('tokens.neverUsed')}
                  {' · '}
                  {token.expiresAt === null ? (
                    t('tokens.noExpiry')
                  ) : (
                    <span className={expired ? 'font-medium text-red-700 dark:text-red-400' : undefined}>
                      {t(expired ? 'tokens.expired' : 'tokens.expires', {
                        date: formatDate(token.expiresAt, language),
                      })}
                    </span>
                  )}
                </p>
                {token.client && (
                  <p className="text-xs text-gray-600 dark:text-gray-400">
                    {t('tokens.redirect', { host: token.client.redirectHost })}
                  </p>
                )}
              </div>
              <Button
                size="sm"
                variant="secondary"
                aria-label={t('tokens.revokeLabel', { name: token.name })}
                onClick={() => setAsked(token)}
              >
                <X aria-hidden="true" className="size-4 text-red-600 dark:text-red-400" />
                {t('tokens.revoke')}
              </Button>
            </li>
          );
        })}
      </ul>
      <ConfirmDialog
        open={asked !== null}
        title={t('tokens.revokeTitle', { name: asked?.name ?? '' })}
        message={t('tokens.revokeMessage')}
        confirmLabel={t('tokens.revoke')}
        cancelLabel={t('create.cancel')}
        variant="danger"
        busy={revoke.isPending}
        onConfirm={confirm}
        onCancel={() => setAsked(null)}
      />
    </>
  );
}
