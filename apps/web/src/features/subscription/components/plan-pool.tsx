import type { CurrentSubscription, PoolFigures } from '@adpilot/contracts';
import { useTranslation } from 'react-i18next';
import { Card } from '../../../components/ui/card.tsx';

const FIGURES = ['adAccounts', 'activeRules', 'aiRequests', 'seats'] as const satisfies readonly (keyof PoolFigures)[];

/**
 * The plan's pool (ADR 0110): every workspace it covers with what each uses, and the pooled total against the
 * plan's limits. Seats count each person once across the workspaces, so the total is not the sum of the rows.
 */
export function PlanPool({ subscription }: { subscription: CurrentSubscription }) {
  const { t } = useTranslation('subscription');
  const figure = (value: number) => (value === -1 ? '∞' : t('number', { value }));
  const { pool, workspaces } = subscription;

  return (
    <Card className="p-6" aria-labelledby="plan-pool-heading">
      <h2 id="plan-pool-heading" className="text-lg font-semibold text-gray-900 dark:text-gray-100">
        {t('pool.title')}
      </h2>
      <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">
        {subscription.paidByYou ? t('pool.yours', { count: workspaces.length }) : t('pool.theirs')} {t('pool.counts')}
      </p>
      {/* Wider than a phone: a keyboard reaches its scroll too (the region takes focus). */}
      <div className="mt-4 overflow-x-auto" role="region" aria-labelledby="plan-pool-heading" tabIndex={0}>
        <table className="w-full min-w-[32rem] text-left text-sm">
          <thead className="text-xs text-gray-600 uppercase dark:text-gray-400">
            <tr>
              <th scope="col" className="py-2 pr-4 font-medium">
                {t('pool.workspace')}
              </th>
              {FIGURES.map((key) => (
                <th key={key} scope="col" className="px-2 py-2 text-right font-medium">
                  {t(`pool.figures.${key}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-gray-200 dark:divide-gray-800">
            {workspaces.map((workspace) => (
              <tr key={workspace.id}>
                <th scope="row" className="py-2 pr-4 font-medium break-words text-gray-900 dark:text-gray-100">
                  {workspace.personal ? t('pool.personal', { name: workspace.name }) : workspace.name}
                </th>
                {FIGURES.map((key) => (
                  <td key={key} className="px-2 py-2 text-right text-gray-700 tabular-nums dark:text-gray-300">
                    {figure(workspace.used[key])}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
          <tfoot className="border-t-2 border-gray-300 dark:border-gray-700">
            <tr>
              <th scope="row" className="py-2 pr-4 font-semibold text-gray-900 dark:text-gray-100">
                {t('pool.total')}
              </th>
              {FIGURES.map((key) => (
                <td
                  key={key}
                  className="px-2 py-2 text-right font-semibold text-gray-900 tabular-nums dark:text-gray-100"
                >
                  {t('pool.ofLimit', { used: figure(pool.used[key]), limit: figure(pool.limits[key]) })}
                </td>
              ))}
            </tr>
          </tfoot>
        </table>
      </div>
    </Card>
  );
}
