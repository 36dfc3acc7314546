import type { AdAccount } from '@adpilot/contracts';
import type { TFunction } from 'i18next';
import { useEffect, useRef } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { useServerMessage } from '../../../lib/server-message.ts';
import { isSyncing } from '../../../api/ad-accounts.ts';
import { useSyncAdAccount } from '../api/sync-ad-account.ts';

/**
 * Where a requested sync stands: queued by the server but not yet seen in the list ("requested"), seen
 * queued or running in the list ("running"), or nothing to report ("idle").
 */
type SyncPhase = 'idle' | 'requested' | 'running';

function toastSyncOutcome(t: TFunction<'ad-accounts'>, settled: AdAccount): void {
  const name = settled.facebook_account_name;
  if (settled.sync_status === 'error') toast.error(t('toast.syncFailed', { name }));
  else toast.success(t('toast.synced', { name }));
}

/**
 * "Sync now" for one account. The server usually only queues the sync, so the outcome toast waits until
 * the polled list shows the account settle (idle or error). The list must first be seen syncing: the
 * mutation's success can render before the list picks up the queued account.
 */
export function useAccountSync(account: AdAccount): { sync: () => void; syncing: boolean } {
  const { t } = useTranslation('ad-accounts');
  const errorMessage = useServerMessage();
  const phase = useRef<SyncPhase>('idle');

  const mutation = useSyncAdAccount({
    onSuccess: ({ account: answered }) => {
      if (isSyncing(answered)) phase.current = 'requested';
      else toastSyncOutcome(t, answered);
    },
    onError: (error) =>
      toast.error(errorMessage(error, t('toast.syncFailed', { name: account.facebook_account_name }))),
  });

  useEffect(() => {
    if (isSyncing(account)) {
      if (phase.current === 'requested') phase.current = 'running';
      return;
    }
    if (phase.current !== 'running') return;
    phase.current = 'idle';
    toastSyncOutcome(t, account);
  }, [account, t]);

  return {
    sync: () => mutation.mutate(account.id),
    syncing: mutation.isPending || isSyncing(account),
  };
}
