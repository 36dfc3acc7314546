import type { ReportOverview } from '@adpilot/contracts';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useFormat } from '../../../lib/format.ts';
import { OVERVIEW_DAYS } from '../api/overview.ts';

// recharts is large: the chart is its own chunk, fetched when there is something to draw.
const OverviewChart = lazy(() => import('./overview-chart.tsx').then((module) => ({ default: module.OverviewChart })));

const linkClass = 'mt-2 inline-block font-medium text-blue-600 hover:underline dark:text-blue-400';

interface OverviewProps {
  overview: ReportOverview | undefined;
  failed: boolean;
  onRetry: () => void;
}

function Failed({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation('dashboard');
  return (
    <div className="flex items-center justify-between gap-4">
      <p role="alert" className="text-sm text-red-600 dark:text-red-400">
        {t('overview.error')}
      </p>
      <Button variant="secondary" size="sm" onClick={onRetry}>
        {t('overview.retry')}
      </Button>
    </div>
  );
}

/** Spend and results of the last 30 days in the workspace's main currency (the one that spent most). */
export function PerformanceCard({ overview, failed, onRetry }: OverviewProps) {
  const { t } = useTranslation('dashboard');
  const format = useFormat();
  const main = overview?.currencies[0];
  const others = overview?.currencies.slice(1).map((c) => c.currency) ?? [];
  const delivered = main && (main.totals.spend > 0 || main.totals.results > 0);
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('overview.title', { days: OVERVIEW_DAYS })}</CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        {failed ? (
          <Failed onRetry={onRetry} />
        ) : !overview ? (
          <div className="flex h-72 items-center justify-center">
            <Spinner />
          </div>
        ) : overview.accounts === 0 ? (
          <div className="py-8 text-center text-gray-600 dark:text-gray-400">
            <p>{t('overview.noAccounts')}</p>
            <Link to="/ad-accounts?connect=1" className={linkClass}>
              {t('overview.connect')}
            </Link>
          </div>
        ) : !main || !delivered ? (
          <p className="py-8 text-center text-gray-600 dark:text-gray-400">
            {t('overview.noDelivery', { days: OVERVIEW_DAYS })}
          </p>
        ) : (
          <>
            <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-3">
              <div>
                <dt className="text-gray-600 dark:text-gray-400">{t('overview.spend')}</dt>
                <dd className="text-lg font-semibold text-gray-900 dark:text-white">
                  {format.money(main.totals.spend, main.currency)}
                </dd>
              </div>
              <div>
                <dt className="text-gray-600 dark:text-gray-400">{t('overview.results')}</dt>
                <dd className="text-lg font-semibold text-gray-900 dark:text-white">
                  {format.number(main.totals.results)}
                </dd>
              </div>
              <div>
                <dt className="text-gray-600 dark:text-gray-400">{t('overview.actions')}</dt>
                <dd className="text-lg font-semibold text-gray-900 dark:text-white">
                  {format.number(main.totals.actions)}
                </dd>
              </div>
            </dl>
            <Suspense
              fallback={
                <div className="flex h-72 items-center justify-center">
                  <Spinner />
                </div>
              }
            >
              <OverviewChart series={main} />
            </Suspense>
            <p className="text-xs text-gray-600 dark:text-gray-400">{t('overview.marks')}</p>
            {main.days[0] && main.days[0].date > overview.from && (
              <p className="text-xs text-gray-600 dark:text-gray-400" data-testid="overview-data-begins">
                {t('overview.dataBegins', { date: format.day(main.days[0].date) })}
              </p>
            )}
            {others.length > 0 && (
              <p className="text-xs text-gray-600 dark:text-gray-400">
                {t('overview.otherCurrencies', { currency: main.currency, others: others.join(', ') })}{' '}
                <Link to="/reports" className="font-medium text-blue-600 hover:underline dark:text-blue-400">
                  {t('overview.seeReports')}
                </Link>
              </p>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}

/** The changes rules proposed that wait in the Inbox (the shell's count), and the way there. */
function ProposalsWaiting({ count }: { count: number }) {
  const { t } = useTranslation('dashboard');
  const format = useFormat();
  return (
    <div className="mt-4 flex flex-wrap items-end justify-between gap-x-4 gap-y-1 border-t border-gray-200 pt-4 dark:border-gray-800">
      <dl>
        <dt className="text-sm text-gray-600 dark:text-gray-400">{t('overview.month.waitingLabel')}</dt>
        <dd className="text-2xl font-bold text-gray-900 dark:text-white">{format.number(count)}</dd>
      </dl>
      {count > 0 ? (
        <Link to="/inbox" className="font-medium text-blue-600 hover:underline dark:text-blue-400">
          {t('overview.month.decide')}
        </Link>
      ) : (
        <p className="text-sm text-gray-600 dark:text-gray-400">{t('overview.month.noneWaiting')}</p>
      )}
    </div>
  );
}

interface RulesMonthProps extends OverviewProps {
  rules: number | undefined;
  /** Pending proposals, once read. */
  waiting: number | undefined;
}

/**
 * What the rules did this month: actions applied, spend avoided by pauses (an estimate), budgets moved; and what
 * waits for a decision in the Inbox.
 */
export function RulesMonthCard({ overview, failed, onRetry, rules, waiting }: RulesMonthProps) {
  const { t } = useTranslation('dashboard');
  const format = useFormat();
  const totals = overview?.month.totals;
  const money = (value: number | null) =>
    value === null || !totals?.currency ? t('overview.month.manyCurrencies') : format.money(value, totals.currency);
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('overview.month.title')}</CardTitle>
      </CardHeader>
      <CardContent>
        {failed ? (
          <Failed onRetry={onRetry} />
        ) : !totals || rules === undefined ? (
          <div className="flex justify-center py-8">
            <Spinner />
          </div>
        ) : rules === 0 ? (
          <div className="py-6 text-center text-gray-600 dark:text-gray-400">
            <p>{t('overview.month.noRules')}</p>
            <Link to="/rules/new" className={linkClass}>
              {t('overview.month.fromTemplate')}
            </Link>
          </div>
        ) : totals.actionsApplied === 0 ? (
          <>
            <p className="py-6 text-center text-gray-600 dark:text-gray-400">{t('overview.month.noActions')}</p>
            {waiting !== undefined && <ProposalsWaiting count={waiting} />}
          </>
        ) : (
          <>
            <dl className="grid gap-4 sm:grid-cols-2">
              <div>
                <dt className="text-sm text-gray-600 dark:text-gray-400">{t('overview.month.actions')}</dt>
                <dd className="text-2xl font-bold text-gray-900 dark:text-white">
                  {format.number(totals.actionsApplied)}
                </dd>
              </div>
              <div>
                <dt className="text-sm text-gray-600 dark:text-gray-400">{t('overview.month.avoided')}</dt>
                <dd className="text-2xl font-bold text-gray-900 dark:text-white">{money(totals.spendAvoided)}</dd>
                <dd className="text-xs text-gray-600 dark:text-gray-400">{t('overview.month.estimate')}</dd>
              </div>
              <div>
                <dt className="text-sm text-gray-600 dark:text-gray-400">{t('overview.month.raised')}</dt>
                <dd className="text-lg font-semibold text-gray-900 dark:text-white">{money(totals.budgetRaised)}</dd>
              </div>
              <div>
                <dt className="text-sm text-gray-600 dark:text-gray-400">{t('overview.month.lowered')}</dt>
                <dd className="text-lg font-semibold text-gray-900 dark:text-white">{money(totals.budgetLowered)}</dd>
              </div>
            </dl>
            {waiting !== undefined && <ProposalsWaiting count={waiting} />}
          </>
        )}
      </CardContent>
    </Card>
  );
}
