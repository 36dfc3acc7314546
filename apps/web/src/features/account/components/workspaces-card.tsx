import type { Account } from '@adpilot/contracts';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { useServerMessage } from '../../../lib/server-message.ts';
import { useAcceptHandover, useHandovers } from '../api/account.ts';

/** The workspaces the person owns or belongs to, who pays for each, the plan they pay for and offers to take over. */
export function WorkspacesCard({ account }: { account: Account }) {
  const { t } = useTranslation('account');
  const serverMessage = useServerMessage();
  const handovers = useHandovers();
  const accept = useAcceptHandover();

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('workspaces.title')}</CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-gray-700 dark:text-gray-300">
            {t('workspaces.plan', {
              plan: t(`subscription:planLimit.plans.${account.plan.id}`, { defaultValue: account.plan.id }),
              count: account.plan.workspaces,
            })}
          </p>
          <Link to="/subscription" className="text-sm font-medium text-blue-600 hover:underline dark:text-blue-400">
            {t('workspaces.managePlan')}
          </Link>
        </div>
        <ul className="divide-y divide-gray-200 dark:divide-gray-800">
          {account.workspaces.map((workspace) => (
            <li key={workspace.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
              <span className="min-w-0 font-medium break-words text-gray-900 dark:text-gray-100">
                {workspace.personal && workspace.role === 'owner' ? t('workspaces.personal') : workspace.name}
              </span>
              <span className="text-gray-600 dark:text-gray-400">
                {t(`common:workspace.roles.${workspace.role}`)} ·{' '}
                {workspace.paidByYou ? t('workspaces.paidByYou') : t('workspaces.paidByOther')}
              </span>
            </li>
          ))}
        </ul>
        {handovers.data && handovers.data.length > 0 && (
          <section aria-labelledby="account-handovers" className="space-y-2">
            <h3 id="account-handovers" className="text-sm font-semibold text-gray-900 dark:text-gray-100">
              {t('workspaces.handovers')}
            </h3>
            <ul className="space-y-2">
              {handovers.data.map((offer) => (
                <li key={offer.id} className="flex flex-wrap items-center justify-between gap-2 text-sm">
                  <span className="text-gray-700 dark:text-gray-300">
                    {t('workspaces.offeredBy', { workspace: offer.workspaceName, name: offer.fromName })}
                  </span>
                  <Button
                    size="sm"
                    loading={accept.isPending && accept.variables === offer.id}
                    onClick={() =>
                      accept.mutate(offer.id, {
                        onSuccess: () => toast.success(t('workspaces.accepted')),
                        onError: (error) => toast.error(serverMessage(error, t('workspaces.acceptFailed'))),
                      })
                    }
                  >
                    {t('workspaces.accept')}
                  </Button>
                </li>
              ))}
            </ul>
          </section>
        )}
      </CardContent>
    </Card>
  );
}
