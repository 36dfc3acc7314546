import type { ActionImpact, ImpactFigures, ImpactWindow, RuleImpact as RuleImpactData } from '@adpilot/contracts';
import { clsx } from 'clsx';
import { lazy, Suspense, useState } from 'react';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { accountsDays, useAccountsToday } from '../../../api/ad-accounts.ts';
import { formatDateTime, formatMoney, formatNumber } from '../../../lib/format.ts';
import { useRuleImpact } from '../api/rule-impact.ts';
import { useWords } from '../hooks/use-words.ts';
import { Section } from './builder/controls.tsx';
import { ACTION_COLOURS, type ImpactMetric } from './impact-colours.ts';
import { EntityLine } from '../../../components/entity-line.tsx';

const ImpactChart = lazy(() => import('./impact-chart.tsx').then((module) => ({ default: module.ImpactChart })));

const RANGES = [30, 90] as const;
/** The table lists the latest actions; the totals count them all. */
const LISTED = 100;
const CARD = 'rounded-lg border border-gray-200 p-3 dark:border-gray-700';
const LABEL = 'text-xs font-medium text-gray-600 dark:text-gray-400';
const VALUE = 'mt-1 text-lg font-semibold text-gray-900 dark:text-gray-100';
const TOGGLE = 'rounded-md px-3 py-1 text-sm font-medium';
const TOGGLE_ON = 'bg-blue-600 text-white';
const TOGGLE_OFF = 'bg-gray-100 text-gray-700 hover:bg-gray-200 dark:bg-gray-800 dark:text-gray-200';

/**
 * "Impact": what the rule's applied actions did over the last 30 or 90 days: spend avoided by pauses (an estimate),
 * budget moved, the before/after CPA and ROAS of what it scaled or trimmed, a chart with the actions on the
 * entities' line, and each action's 3, 7 and 14 days before against after.
 */
export function RuleImpact({ ruleId }: { ruleId: string }) {
  const { t } = useWords();
  const [days, setDays] = useState<(typeof RANGES)[number]>(30);
  // The days as the ad accounts count them (ADR 0131): an action applied today there is inside the window.
  const today = useAccountsToday();
  const range = today ? accountsDays(today, days) : null;
  const impact = useRuleImpact(ruleId, range);
  return (
    <Section title={t('impact.title')} description={t('impact.hint')}>
      <div className="flex flex-wrap gap-2" role="group" aria-label={t('impact.range')}>
        {RANGES.map((range) => (
          <button
            key={range}
            type="button"
            aria-pressed={days === range}
            className={clsx(TOGGLE, days === range ? TOGGLE_ON : TOGGLE_OFF)}
            onClick={() => setDays(range)}
          >
            {t('impact.lastDays', { count: range })}
          </button>
        ))}
      </div>
      {impact.isPending && <Spinner label={t('impact.loading')} />}
      {impact.isError && (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {t('impact.failed')}
        </p>
      )}
      {impact.data &&
        (impact.data.actions.length === 0 ? (
          <p className="text-sm text-gray-600 dark:text-gray-400">{t('impact.none')}</p>
        ) : (
          <ImpactBody data={impact.data} />
        ))}
    </Section>
  );
}

function ImpactBody({ data }: { data: RuleImpactData }) {
  const { t, language } = useWords();
  const [metric, setMetric] = useState<ImpactMetric>('cpa');
  const { totals } = data;
  const currency = totals.currency;
  const money = (value: number | null, code = currency) =>
    value === null || !code ? '—' : formatMoney(value, code, language);
  const ratio = (value: number | null) => (value === null ? '—' : formatNumber(value, language));
  const kinds = Object.entries(totals.byType)
    .map(([type, count]) => `${t(`actionTypes.${type}`)} ${formatNumber(count, language, 0)}`)
    .join(' · ');
  const listed = [...data.actions].reverse().slice(0, LISTED);
  return (
    <div className="space-y-5">
      {!currency && <p className="text-sm text-amber-800 dark:text-amber-200">{t('impact.severalCurrencies')}</p>}
      <dl className="grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
        <div className={CARD}>
          <dt className={LABEL}>{t('impact.actionsApplied')}</dt>
          <dd className={VALUE}>{formatNumber(totals.actionsApplied, language, 0)}</dd>
          <dd className="text-xs text-gray-600 dark:text-gray-400">{kinds}</dd>
        </div>
        <div className={CARD}>
          <dt className={LABEL}>
            {t('impact.spendAvoided')}{' '}
            <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs text-amber-900 dark:bg-amber-900/50 dark:text-amber-100">
              {t('impact.estimate')}
            </span>
          </dt>
          <dd className={VALUE}>{money(totals.spendAvoided)}</dd>
          <dd className="text-xs text-gray-600 dark:text-gray-400">{t('impact.spendAvoidedHint')}</dd>
        </div>
        <div className={CARD}>
          <dt className={LABEL}>{t('impact.budgetMoved')}</dt>
          <dd className={VALUE}>
            <span className="text-green-700 dark:text-green-400">+{money(totals.budgetRaised)}</span>{' '}
            <span className="text-orange-700 dark:text-orange-400">−{money(totals.budgetLowered)}</span>
          </dd>
          <dd className="text-xs text-gray-600 dark:text-gray-400">{t('impact.budgetMovedHint')}</dd>
        </div>
        <div className={CARD}>
          <dt className={LABEL}>{t('impact.beforeAfter')}</dt>
          <dd className="mt-1 text-sm text-gray-900 dark:text-gray-100">
            {t('impact.metric.cpa')}: {money(totals.before.cpa)} → {money(totals.after.cpa)}
          </dd>
          <dd className="text-sm text-gray-900 dark:text-gray-100">
            {t('impact.metric.roas')}: {ratio(totals.before.roas)} → {ratio(totals.after.roas)}
          </dd>
          <dd className="text-xs text-gray-600 dark:text-gray-400">
            {t('impact.compared', { count: totals.compared })}
          </dd>
        </div>
      </dl>

      {currency && data.daily.length > 0 && (
        <div className="space-y-2">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <div className="flex gap-2" role="group" aria-label={t('impact.chartMetric')}>
              {(['cpa', 'roas'] as const).map((item) => (
                <button
                  key={item}
                  type="button"
                  aria-pressed={metric === item}
                  className={clsx(TOGGLE, metric === item ? TOGGLE_ON : TOGGLE_OFF)}
                  onClick={() => setMetric(item)}
                >
                  {t(`impact.metric.${item}`)}
                </button>
              ))}
            </div>
            <ul className="flex flex-wrap gap-3 text-xs text-gray-600 dark:text-gray-400">
              {Object.keys(totals.byType).map((type) => (
                <li key={type} className="flex items-center gap-1">
                  <span
                    aria-hidden="true"
                    className="inline-block size-2.5 rounded-full"
                    style={{ backgroundColor: ACTION_COLOURS[type] ?? '#6b7280' }}
                  />
                  {t(`actionTypes.${type}`)}
                </li>
              ))}
            </ul>
          </div>
          <Suspense
            fallback={
              <div className="flex h-64 items-center justify-center">
                <Spinner />
              </div>
            }
          >
            <ImpactChart daily={data.daily} actions={data.actions} metric={metric} currency={currency} />
          </Suspense>
        </div>
      )}

      <ul className="space-y-3 md:hidden" aria-label={t('impact.tableCaption')}>
        {listed.map((action) => (
          <li key={action.actionId} className={CARD}>
            <ActionHeading action={action} />
            <dl className="mt-2 space-y-2">
              {action.windows.map((window) => (
                <div key={window.days}>
                  <dt className={LABEL}>{t('impact.window', { count: window.days })}</dt>
                  <dd className="text-xs text-gray-900 dark:text-gray-100">
                    <WindowFigures action={action} window={window} />
                  </dd>
                </div>
              ))}
            </dl>
          </li>
        ))}
      </ul>
      <div className="hidden overflow-x-auto md:block">
        <table className="w-full min-w-[720px] text-left text-sm">
          <caption className="sr-only">{t('impact.tableCaption')}</caption>
          <thead className="text-xs text-gray-600 dark:text-gray-400">
            <tr>
              <th scope="col" className="py-2 pr-3 font-medium">
                {t('impact.item')}
              </th>
              {[3, 7, 14].map((n) => (
                <th key={n} scope="col" className="py-2 pr-3 font-medium">
                  {t('impact.window', { count: n })}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-gray-200 dark:divide-gray-800">
            {listed.map((action) => (
              <ActionRow key={action.actionId} action={action} />
            ))}
          </tbody>
        </table>
        {data.actions.length > LISTED && (
          <p className="mt-2 text-xs text-gray-600 dark:text-gray-400">
            {t('impact.listed', { count: LISTED, total: data.actions.length })}
          </p>
        )}
      </div>
    </div>
  );
}

function WindowFigures({ action, window }: { action: ActionImpact; window: ImpactWindow }) {
  const { t, language } = useWords();
  const money = (value: number) => formatMoney(value, action.currency, language);
  const { before, after } = window;
  const pair = (label: string, show: (figures: ImpactFigures) => string) => (
    <div>
      <span className="text-gray-500 dark:text-gray-400">{label} </span>
      {show(before)} → {after ? show(after) : '…'}
    </div>
  );
  return (
    <>
      {pair(t('impact.metric.spend'), (figures) => money(figures.spend))}
      {pair(t('impact.metric.cpa'), (figures) => (figures.cpa === null ? '—' : money(figures.cpa)))}
      {pair(t('impact.metric.roas'), (figures) => (figures.roas === null ? '—' : formatNumber(figures.roas, language)))}
      {!after && (
        <div className="text-gray-500 dark:text-gray-400">
          {window.afterDays > 0 ? t('impact.settling') : t('impact.noAfter')}
        </div>
      )}
      {after && window.afterDays < window.days && (
        <div className="text-gray-500 dark:text-gray-400">{t('impact.afterDays', { count: window.afterDays })}</div>
      )}
    </>
  );
}

function ActionHeading({ action }: { action: ActionImpact }) {
  const { t, language } = useWords();
  const money = (value: number) => formatMoney(value, action.currency, language);
  return (
    <>
      <p className="font-medium break-all text-gray-900 dark:text-gray-100">{action.entity.name}</p>
      <EntityLine entity={action.entity} />
      <p className="text-xs text-gray-600 dark:text-gray-400">
        {t(`levels.${action.entity.level}`)} · {t(`actionTypes.${action.type}`)}
        {action.budget && ` ${money(action.budget.from)} → ${money(action.budget.to)}`}
      </p>
      <p className="text-xs text-gray-600 dark:text-gray-400">{formatDateTime(action.appliedAt, language)}</p>
      {action.revertedAt && (
        <p className="text-xs text-gray-600 dark:text-gray-400">
          {t('impact.reverted', { at: formatDateTime(action.revertedAt, language) })}
        </p>
      )}
      {action.spendAvoided && (
        <p className="text-xs text-gray-900 dark:text-gray-100">
          {t('impact.avoidedRow', {
            amount: money(action.spendAvoided.amount),
            daily: money(action.spendAvoided.dailySpend),
            days: formatNumber(action.spendAvoided.days, language, 1),
          })}
        </p>
      )}
    </>
  );
}

function ActionRow({ action }: { action: ActionImpact }) {
  return (
    <tr className="align-top">
      <td className="py-2 pr-3">
        <ActionHeading action={action} />
      </td>
      {action.windows.map((window) => (
        <td key={window.days} className="py-2 pr-3 text-xs text-gray-900 dark:text-gray-100">
          <WindowFigures action={action} window={window} />
        </td>
      ))}
    </tr>
  );
}
