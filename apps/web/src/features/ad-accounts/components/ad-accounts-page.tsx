import type { AdAccount } from '@adpilot/contracts';
import { Loader2, Plus } from 'lucide-react';
import { useCallback, useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../api/workspaces.ts';
import { ReadOnlyNotice } from '../../../components/read-only-notice.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useServerMessage } from '../../../lib/server-message.ts';
import { useDisconnectAdAccount } from '../api/disconnect-ad-account.ts';
import { useAdAccounts } from '../../../api/ad-accounts.ts';
import { useConnectAddress } from '../hooks/use-connect-address.ts';
import { AdAccountCard } from './ad-account-card.tsx';
import { AdAccountsEmptyState } from './ad-accounts-empty-state.tsx';
import { AdAccountsErrorState } from './ad-accounts-error-state.tsx';
import { ConnectAccountModal } from './connect-account-modal.tsx';
import { DisconnectQuestion } from './disconnect-question.tsx';
import { SystemUserConnect } from './system-user-connect.tsx';

export function AdAccountsPage() {
  const { t } = useTranslation('ad-accounts');
  const canEdit = useCan('editor');
  const errorMessage = useServerMessage();
  const accounts = useAdAccounts();
  const [connectOpen, setConnectOpen] = useState(false);
  const [toDisconnect, setToDisconnect] = useState<AdAccount | null>(null);

  const openConnect = useCallback(() => setConnectOpen(true), []);
  const { completing } = useConnectAddress(openConnect);

  const disconnect = useDisconnectAdAccount({
    onSuccess: (account) => {
      setToDisconnect(null);
      toast.success(t('toast.disconnected', { name: account.facebook_account_name }));
    },
    onError: (error, account) =>
      toast.error(errorMessage(error, t('toast.disconnectFailed', { name: account.facebook_account_name }))),
  });

  const renderContent = () => {
    if (accounts.isPending) {
      return (
        <div className="flex justify-center py-16">
          <Spinner size="lg" label={t('loading')} />
        </div>
      );
    }
    if (accounts.isError) {
      return <AdAccountsErrorState onRetry={() => void accounts.refetch()} retrying={accounts.isFetching} />;
    }
    if (accounts.data.length === 0) {
      return completing ? null : <AdAccountsEmptyState onConnect={canEdit ? openConnect : undefined} />;
    }
    return (
      <ul className="grid gap-6 md:grid-cols-2 xl:grid-cols-3">
        {accounts.data.map((account) => (
          <li key={account.id} className="flex">
            <AdAccountCard account={account} onDisconnect={setToDisconnect} onReconnect={openConnect} />
          </li>
        ))}
      </ul>
    );
  };

  return (
    <div className="space-y-8">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold text-gray-900 sm:text-3xl dark:text-white">{t('title')}</h1>
          <p className="mt-1 text-gray-600 dark:text-gray-400">{t('subtitle')}</p>
        </div>
        {canEdit && (
          <Button onClick={openConnect}>
            <Plus aria-hidden="true" className="size-4" />
            {t('connectAccount')}
          </Button>
        )}
      </header>
      <ReadOnlyNotice />

      {completing && (
        <div
          role="status"
          className="flex items-center gap-3 rounded-lg bg-blue-50 px-4 py-3 text-sm text-blue-800 dark:bg-blue-950/50 dark:text-blue-200"
        >
          <Loader2 aria-hidden="true" className="size-4 animate-spin" />
          {t('completing')}
        </div>
      )}

      {renderContent()}

      <SystemUserConnect />

      <ConnectAccountModal open={connectOpen && canEdit} onClose={() => setConnectOpen(false)} />
      <ConfirmDialog
        open={toDisconnect !== null}
        variant="danger"
        title={t('disconnectDialog.title')}
        message={toDisconnect && <DisconnectQuestion account={toDisconnect} />}
        confirmLabel={t('disconnectDialog.confirm')}
        cancelLabel={t('cancel')}
        closeLabel={t('close')}
        busy={disconnect.isPending}
        onConfirm={() => toDisconnect && disconnect.mutate(toDisconnect)}
        onCancel={() => setToDisconnect(null)}
      />
    </div>
  );
}
