import { RULE_LIMITS, type RuleBacktest } from '@adpilot/contracts';
import { useQuery } from '@tanstack/react-query';
import { History } from 'lucide-react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Link } from 'react-router';
import { adAccountsQueryOptions } from '../../../api/ad-accounts.ts';
import { usePlanBacktestDays } from '../../../api/subscription.ts';
import { Button } from '../../../components/ui/button.tsx';
import { useBacktestRule } from '../api/preview-rule.ts';
import { useApiErrorText } from '../hooks/use-api-error-text.ts';
import { backtestEntities, type BacktestEntityOutcome } from '../lib/backtest-entities.ts';
import { formatDay, formatDayRange, formatMoney, formatNumber } from '../../../lib/format.ts';
import { Section } from './builder/controls.tsx';

const DEFAULT_DAYS = RULE_LIMITS.backtestDaysDefault;
const LINE_COLOURS = ['#16a34a', '#9333ea', '#ea580c'];

/** One row per replayed day: its firings and, per currency, the budgets the rule had set by its end. */
function chartRows(backtest: RuleBacktest, language: string) {
  return backtest.days.map((day) => ({
    label: formatDay(day.date, language, { short: true }),
    firings: day.firings.length,
    ...Object.fromEntries(Object.entries(day.budgets).map(([currency, amount]) => [`budget:${currency}`, amount])),
  }));
}

function BacktestResult({ backtest }: { backtest: RuleBacktest }) {
  const { t, i18n } = useTranslation('rules');
  const language = i18n.language;
  const currencies = [...new Set(backtest.days.flatMap((day) => Object.keys(day.budgets)))];
  if (backtest.days.length === 0)
    return <p className="text-sm text-gray-600 dark:text-gray-400">{t('backtest.empty')}</p>;
  return (
    <div className="space-y-3">
      <div role="img" aria-label={t('backtest.chartLabel')} className="h-72 w-full">
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart data={chartRows(backtest, language)} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" />
            <XAxis dataKey="label" tick={{ fontSize: 11 }} interval="preserveStartEnd" />
            <YAxis yAxisId="firings" allowDecimals={false} tick={{ fontSize: 11 }} width={32} />
            {currencies.length > 0 && (
              <YAxis
                yAxisId="budget"
                orientation="right"
                tick={{ fontSize: 11 }}
                tickFormatter={(value: number) => formatNumber(value, language)}
                width={56}
              />
            )}
            <Tooltip
              formatter={(value) => (typeof value === 'number' ? formatNumber(value, language) : String(value))}
            />
            <Legend />
            <Bar
              yAxisId="firings"
              dataKey="firings"
              name={t('backtest.firings')}
              fill="#2563eb"
              radius={[3, 3, 0, 0]}
            />
            {currencies.map((currency, index) => (
              <Line
                key={currency}
                yAxisId="budget"
                type="stepAfter"
                dataKey={`budget:${currency}`}
                name={t('backtest.budget', { currency })}
                stroke={LINE_COLOURS[index % LINE_COLOURS.length]}
                dot={false}
                strokeWidth={2}
              />
            ))}
          </ComposedChart>
        </ResponsiveContainer>
      </div>
      <p className="text-xs text-gray-600 dark:text-gray-400">
        {t(currencies.length > 0 ? 'backtest.chartExplained' : 'backtest.chartExplainedNoBudget')}
      </p>
      <p className="text-sm font-medium text-gray-900 dark:text-gray-100">
        {t('backtest.totals', {
          firings: formatNumber(backtest.totals.firings, language),
          entities: formatNumber(backtest.totals.entitiesAffected, language),
        })}
      </p>
      <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-gray-700 dark:text-gray-300">
        {Object.entries(backtest.totals.byType).map(([type, count]) => (
          <li key={type}>
            {t(`actionTypes.${type}`, { defaultValue: type })}: {formatNumber(count, language)}
          </li>
        ))}
        {Object.entries(backtest.totals.budgetChange).map(([currency, change]) => (
          <li key={currency}>
            {t('backtest.budgetChange', {
              currency,
              change: `${change > 0 ? '+' : ''}${formatNumber(change, language)}`,
            })}
          </li>
        ))}
      </ul>
      <BacktestEntities backtest={backtest} />
    </div>
  );
}

/** Per ad object, what the rule would have done to it over the replay (ADR 0135). */
function BacktestEntities({ backtest }: { backtest: RuleBacktest }) {
  const { t, i18n } = useTranslation('rules');
  const language = i18n.language;
  const { data: accounts } = useQuery(adAccountsQueryOptions());
  const outcomes = backtestEntities(backtest);
  const currencyOf = (outcome: BacktestEntityOutcome) =>
    accounts?.find((account) => account.id === outcome.entity.adAccountId)?.currency;
  const amount = (value: number, currency: string | undefined) =>
    currency ? formatMoney(value, currency, language) : formatNumber(value, language);
  if (outcomes.length === 0)
    return <p className="text-sm text-gray-600 dark:text-gray-400">{t('backtest.noChanges')}</p>;
  return (
    <div>
      <h4 className="text-sm font-medium text-gray-900 dark:text-gray-100">{t('backtest.entitiesTitle')}</h4>
      <ul
        aria-label={t('backtest.entitiesTitle')}
        className="mt-2 max-h-96 divide-y divide-gray-200 overflow-y-auto rounded-lg border border-gray-200 dark:divide-gray-800 dark:border-gray-800"
      >
        {outcomes.map((outcome) => {
          const currency = currencyOf(outcome);
          return (
            <li
              key={`${outcome.entity.adAccountId}|${outcome.entity.level}|${outcome.entity.externalId}`}
              className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 px-3 py-2 text-sm"
            >
              <div className="min-w-0">
                <p className="font-medium break-words text-gray-900 dark:text-gray-100">{outcome.entity.name}</p>
                <p className="text-xs text-gray-500 dark:text-gray-400">
                  {t(`levels.${outcome.entity.level}`)} ·{' '}
                  {outcome.firstDate === outcome.lastDate
                    ? formatDay(outcome.firstDate, language)
                    : formatDayRange(outcome.firstDate, outcome.lastDate, language)}
                </p>
              </div>
              <div className="text-gray-700 sm:text-right dark:text-gray-300">
                <p>
                  {outcome.byType
                    .map(({ type, count }) =>
                      t('backtest.typeCount', {
                        type: t(`actionTypes.${type}`, { defaultValue: type }),
                        count: formatNumber(count, language),
                      }),
                    )
                    .join(' · ')}
                </p>
                {outcome.budget && (
                  <p>
                    {t('backtest.budgetFromTo', {
                      from: amount(outcome.budget.from, currency),
                      to: amount(outcome.budget.to, currency),
                    })}
                  </p>
                )}
                {outcome.status && (
                  <p>{t(`backtest.endsStatus.${outcome.status === 'PAUSED' ? 'paused' : 'active'}`)}</p>
                )}
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/**
 * The saved rule replayed on demand (it reads a month of rows) over the last 30 days, or over the plan's furthest
 * when that is shorter, saying so: the Free plan's 7 days are offered, never refused (issue 33).
 */
export function BacktestPanel({ ruleId }: { ruleId: string }) {
  const { t } = useTranslation('rules');
  const errorText = useApiErrorText();
  const backtest = useBacktestRule();
  const allowed = usePlanBacktestDays();
  const days = Math.min(DEFAULT_DAYS, allowed?.days ?? DEFAULT_DAYS);
  const run = () =>
    backtest.mutate({ id: ruleId, days }, { onError: (error) => toast.error(errorText(error, t('backtest.failed'))) });
  return (
    <Section title={t('backtest.title')} description={t('backtest.hint', { days })}>
      {allowed && allowed.days < DEFAULT_DAYS && (
        <p className="text-sm text-gray-600 dark:text-gray-400" data-testid="backtest-plan-limit">
          {t('backtest.planLimit', { plan: allowed.plan.name, days: allowed.days })}{' '}
          <Link to="/subscription" className="font-medium text-blue-700 underline dark:text-blue-400">
            {t('backtest.planLimitLink')}
          </Link>
        </p>
      )}
      {backtest.data && <BacktestResult backtest={backtest.data} />}
      <Button variant="secondary" onClick={run} loading={backtest.isPending}>
        {!backtest.isPending && <History aria-hidden="true" className="size-4" />}
        {backtest.data ? t('backtest.rerun') : t('backtest.run')}
      </Button>
    </Section>
  );
}
