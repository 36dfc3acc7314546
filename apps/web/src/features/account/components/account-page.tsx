import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useAccount } from '../api/account.ts';
import { DeleteAccountCard } from './delete-account-card.tsx';
import { ExportCard } from './export-card.tsx';
import { PasswordCard } from './password-card.tsx';
import { ProfileCard } from './profile-card.tsx';
import { SessionsCard } from './sessions-card.tsx';
import { WorkspacesCard } from './workspaces-card.tsx';

/** My account (/account, issue 31): everything of the person's own, for every user; the instance's settings are not here. */
export function AccountPage() {
  const { t } = useTranslation('account');
  const account = useAccount();

  if (account.isError) {
    return (
      <p role="alert" className="text-sm text-red-600 dark:text-red-400">
        {t('loadFailed')}
      </p>
    );
  }
  if (!account.data) {
    return (
      <div className="flex justify-center py-16">
        <Spinner size="lg" label={t('loading')} />
      </div>
    );
  }
  return (
    <div className="space-y-6">
      <PageHeader title={t('title')} description={t('description')} />
      <ProfileCard account={account.data} />
      <WorkspacesCard account={account.data} />
      <PasswordCard />
      <SessionsCard timeZone={account.data.timeZone} />
      <ExportCard />
      <DeleteAccountCard account={account.data} />
    </div>
  );
}
