import { PLAN_IDS, PLAN_NAMES, type AdminWorkspace, type PlanId } from '@adpilot/contracts';
import { useId, useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { formatNumber } from '../../../lib/format.ts';
import { useServerMessage } from '../../../lib/server-message.ts';
import { useAdminWorkspaces, useAssignPlan } from '../api/admin-workspaces.ts';

/**
 * Settings → Users (the instance administrator only): every workspace with its owners and plan, and where the
 * administrator changes a plan when the instance bills without Stripe (ADR 0087). The change is logged in the
 * workspace's activity, signed with the administrator's name.
 */
export function UsersPanel() {
  const { t } = useTranslation('settings');
  const workspaces = useAdminWorkspaces(true);
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('users.title')}</CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        <p className="text-sm text-gray-600 dark:text-gray-400">{t('users.description')}</p>
        {workspaces.isPending ? (
          <Spinner />
        ) : workspaces.data ? (
          <ul className="divide-y divide-gray-200 dark:divide-gray-800">
            {workspaces.data.map((workspace) => (
              <WorkspaceRow key={workspace.id} workspace={workspace} />
            ))}
          </ul>
        ) : (
          <p role="alert" className="text-red-600">
            {t('users.loadFailed')}
          </p>
        )}
      </CardContent>
    </Card>
  );
}

function WorkspaceRow({ workspace }: { workspace: AdminWorkspace }) {
  const { t, i18n } = useTranslation('settings');
  const errorMessage = useServerMessage();
  const id = useId();
  const assign = useAssignPlan();
  const [planId, setPlanId] = useState<PlanId>(workspace.plan);
  const name = workspace.personal ? t('users.personal', { name: workspace.name }) : workspace.name;

  const save = () =>
    assign.mutate(
      { workspaceId: workspace.id, planId },
      {
        onSuccess: (assigned) => toast.success(t('users.assigned', { name, plan: PLAN_NAMES[assigned.plan] })),
        onError: (error) => toast.error(errorMessage(error, t('users.assignFailed'))),
      },
    );

  return (
    <li className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="font-medium break-words text-gray-900 dark:text-gray-100">{name}</p>
        <p className="text-sm break-words text-gray-600 dark:text-gray-400">
          {workspace.owners.map((owner) => `${owner.name} <${owner.email}>`).join(', ')}
        </p>
        <p className="text-xs text-gray-500 dark:text-gray-400">
          {t('users.members', { count: workspace.members, value: formatNumber(workspace.members, i18n.language, 0) })}
        </p>
      </div>
      <div className="flex items-center gap-2">
        <label htmlFor={`${id}-plan`} className="sr-only">
          {t('users.planOf', { name })}
        </label>
        <select
          id={`${id}-plan`}
          value={planId}
          onChange={(event) => setPlanId(event.target.value as PlanId)}
          className="h-10 rounded-lg border border-gray-300 bg-white px-3 text-sm text-gray-900 dark:border-gray-600 dark:bg-gray-800 dark:text-gray-100"
        >
          {PLAN_IDS.map((plan) => (
            <option key={plan} value={plan}>
              {PLAN_NAMES[plan]}
            </option>
          ))}
        </select>
        <Button
          variant="secondary"
          onClick={save}
          loading={assign.isPending}
          disabled={planId === workspace.plan}
          aria-label={t('users.changePlanOf', { name })}
        >
          {t('users.changePlan')}
        </Button>
      </div>
    </li>
  );
}
