import {
  API_VERSION_WARNING_DAYS,
  isSyncErrorCode,
  TOKEN_EXPIRY_WARNING_DAYS,
  type AdAccount,
} from '@adpilot/contracts';
import { clsx } from 'clsx';
import { AlertTriangle, CheckCircle2, ExternalLink, Eye, FlaskConical, RefreshCw, Unlink, XCircle } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../api/workspaces.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { formatDate, formatDateTime, formatTimeUntil } from '../../../lib/format.ts';
import { useAccountSync } from '../hooks/use-account-sync.ts';
import { AccountSignals } from './account-signals.tsx';
import { AccountHistory } from './account-history.tsx';

interface AdAccountCardProps {
  account: AdAccount;
  onDisconnect: (account: AdAccount) => void;
  onReconnect: () => void;
}

const BADGE = 'inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium';
const DAY_MS = 86_400_000;

/**
 * Whether the card warns of the token's end (ADR 0126): within the last days before it, or once it passed and no
 * sync found out yet. An account already marked for reconnecting says so by its badge instead.
 */
function tokenWarning(account: AdAccount, now: Date): 'soon' | 'ended' | null {
  if (!account.token_expires_at || account.needs_reauth) return null;
  const left = Date.parse(account.token_expires_at) - now.getTime();
  if (left <= 0) return 'ended';
  return left <= TOKEN_EXPIRY_WARNING_DAYS * DAY_MS ? 'soon' : null;
}

/**
 * Whether the card warns of the end of the Marketing API version AdPilot speaks: in the last
 * API_VERSION_WARNING_DAYS before Meta's date, or once it passed. No date announced, no warning.
 */
function apiVersionWarning(account: AdAccount, now: Date): 'soon' | 'ended' | null {
  if (!account.api_version_ends_at) return null;
  const left = Date.parse(`${account.api_version_ends_at}T00:00:00Z`) - now.getTime();
  if (left <= 0) return 'ended';
  return left <= API_VERSION_WARNING_DAYS * DAY_MS ? 'soon' : null;
}

export function AdAccountCard({ account, onDisconnect, onReconnect }: AdAccountCardProps) {
  const { t, i18n } = useTranslation('ad-accounts');
  const canEdit = useCan('editor');
  const nameId = useId();
  const { sync, syncing } = useAccountSync(account);
  const active = account.account_status === 'active';
  const token = tokenWarning(account, new Date());
  const apiVersion = apiVersionWarning(account, new Date());

  // The zone name ("GMT+7") is held to the time before it, so a narrow card never leaves it alone on a line.
  const lastSync = account.last_sync
    ? formatDateTime(account.last_sync, i18n.language, { timeZone: account.timezone, seconds: true }).replace(
        / (\S+)$/,
        '\u00a0$1',
      )
    : t('card.never');

  const details: [label: string, value: string][] = [
    [t('card.accountId'), account.facebook_account_id],
    [t('card.currency'), account.currency],
    [t('card.timezone'), account.timezone],
    [t('card.lastSync'), lastSync],
    // A system user's token (an agency's business) never counts down when it does not expire.
    [t('card.tokenKind'), t(`card.tokenKinds.${account.token_kind}`)],
  ];

  return (
    <Card aria-labelledby={nameId} role="article" className="flex w-full flex-col p-5">
      <div className="flex flex-wrap items-center gap-2">
        <span
          title={active ? undefined : (account.status_reason ?? undefined)}
          className={clsx(
            'inline-flex items-center gap-1.5 text-sm font-medium',
            active ? 'text-green-700 dark:text-green-400' : 'text-gray-500 dark:text-gray-400',
          )}
        >
          {active ? (
            <CheckCircle2 aria-hidden="true" className="size-4" />
          ) : (
            <XCircle aria-hidden="true" className="size-4" />
          )}
          {active ? t('card.active') : t('card.inactive')}
        </span>
        {account.is_sandbox && (
          <span
            title={t('card.sandboxHint')}
            className={clsx(BADGE, 'bg-purple-100 text-purple-800 dark:bg-purple-900/50 dark:text-purple-200')}
          >
            <FlaskConical aria-hidden="true" className="size-3" />
            {t('card.sandbox')}
          </span>
        )}
        {account.needs_reauth && (
          <span className={clsx(BADGE, 'bg-amber-100 text-amber-800 dark:bg-amber-900/50 dark:text-amber-200')}>
            <AlertTriangle aria-hidden="true" className="size-3" />
            {t('card.reconnectRequired')}
          </span>
        )}
        {account.read_only && (
          <span className={clsx(BADGE, 'bg-sky-100 text-sky-800 dark:bg-sky-900/50 dark:text-sky-200')}>
            <Eye aria-hidden="true" className="size-3" />
            {t('card.readOnly')}
          </span>
        )}
      </div>

      <h3 id={nameId} className="mt-3 text-lg font-semibold break-words text-gray-900 dark:text-gray-100">
        {account.facebook_account_name}
      </h3>
      {account.read_only && <p className="mt-1 text-xs text-gray-500 dark:text-gray-400">{t('card.readOnlyHint')}</p>}
      {!active && account.status_reason && (
        <p className="mt-1 text-xs text-gray-500 dark:text-gray-400">{account.status_reason}</p>
      )}

      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        {details.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-gray-500 dark:text-gray-400">{label}</dt>
            <dd className="text-right font-medium break-words text-gray-900 dark:text-gray-100">{value}</dd>
          </div>
        ))}
      </dl>
      <AccountHistory account={account} />
      {account.sync_status === 'error' && account.last_sync_error && (
        <p role="status" className="mt-3 text-xs text-red-600 dark:text-red-400">
          {t('card.lastSyncError', {
            // A stored code is rendered in the user's language; older rows still hold the error's own text.
            error: isSyncErrorCode(account.last_sync_error)
              ? t(`activity:syncErrors.${account.last_sync_error}`)
              : account.last_sync_error,
          })}
        </p>
      )}

      {token && account.token_expires_at && (
        <p role="status" className="mt-3 flex items-start gap-1 text-xs text-amber-700 dark:text-amber-300">
          <AlertTriangle aria-hidden="true" className="mt-0.5 size-3 shrink-0" />
          {token === 'ended'
            ? t('card.tokenEnded')
            : t('card.tokenEndsSoon', { when: formatTimeUntil(account.token_expires_at, i18n.language) })}
        </p>
      )}

      {apiVersion && account.api_version_ends_at && (
        <p role="status" className="mt-3 flex items-start gap-1 text-xs text-amber-700 dark:text-amber-300">
          <AlertTriangle aria-hidden="true" className="mt-0.5 size-3 shrink-0" />
          {t(apiVersion === 'ended' ? 'card.apiVersionEnded' : 'card.apiVersionEndsSoon', {
            version: account.api_version,
            date: formatDate(`${account.api_version_ends_at}T00:00:00Z`, i18n.language, { timeZone: 'UTC' }),
          })}
        </p>
      )}

      <AccountSignals account={account} canEdit={canEdit} />

      {/* The server gives a sandbox account's link to those who may edit alone: none, no link. */}
      {account.ads_manager_url && (
        <a
          href={account.ads_manager_url}
          target="_blank"
          rel="noopener noreferrer"
          className={clsx(
            'my-4 inline-flex items-center gap-1 self-start text-sm font-medium text-blue-600 hover:text-blue-700',
            'dark:text-blue-400 dark:hover:text-blue-300',
          )}
        >
          {t('card.viewInFacebook')}
          <ExternalLink aria-hidden="true" className="size-3.5" />
        </a>
      )}

      {canEdit && (
        <div className="mt-auto grid grid-cols-2 gap-2 border-t border-gray-100 pt-4 dark:border-gray-800">
          {(account.needs_reauth || token) && (
            <Button size="sm" className="col-span-2" onClick={onReconnect}>
              {t('card.reconnect')}
            </Button>
          )}
          <Button size="sm" variant="secondary" onClick={sync} loading={syncing} disabled={account.needs_reauth}>
            {!syncing && <RefreshCw aria-hidden="true" className="size-4" />}
            {syncing ? t('card.syncing') : t('card.syncNow')}
          </Button>
          <Button size="sm" variant="secondary" onClick={() => onDisconnect(account)}>
            <Unlink aria-hidden="true" className="size-4 text-red-600 dark:text-red-400" />
            {t('card.disconnect')}
          </Button>
        </div>
      )}
    </Card>
  );
}
