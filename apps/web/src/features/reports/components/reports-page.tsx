import { REPORT_MAX_DAYS, type ReportSeries } from '@adpilot/contracts';
import { clsx } from 'clsx';
import { useMutation } from '@tanstack/react-query';
import { ArrowDown, ArrowUp, Download } from 'lucide-react';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import toast from 'react-hot-toast';
import { Link } from 'react-router';
import { useAdAccounts } from '../../../api/ad-accounts.ts';
import { entityHref } from '../../../api/entities.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent } from '../../../components/ui/card.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { downloadReport, useReport, type ReportExportFormat, type ReportFilters } from '../api/reports.ts';
import { formatMoney, formatNumber, localDay } from '../../../lib/format.ts';
import { NARROW_QUERY, useMediaQuery } from '../../../lib/use-media-query.ts';
import { CHART_METRICS, type ChartMetric } from '../lib/metrics.ts';
import { ScheduledReports } from './scheduled-reports.tsx';
import { SeriesCards, type SortKey } from './series-cards.tsx';

// recharts is large: the chart is its own chunk, fetched when a report has something to draw.
const ReportChart = lazy(() => import('./report-chart.tsx').then((module) => ({ default: module.ReportChart })));

const PRESETS = [7, 30, 90] as const;

function rangeProblem(from: string, to: string): 'fromAfterTo' | 'rangeTooLong' | 'missing' | null {
  if (!from || !to) return 'missing';
  if (from > to) return 'fromAfterTo';
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000 + 1;
  return days > REPORT_MAX_DAYS ? 'rangeTooLong' : null;
}

/** A campaign's name, linked to its page in Campaigns when the report says which of ours it is. */
function SeriesName({ series }: { series: ReportSeries }) {
  const href =
    series.level === 'campaign'
      ? entityHref({ name: series.name, entityId: (series as { entityId?: string | null }).entityId })
      : null;
  return href ? (
    <Link to={href} className="text-blue-700 hover:underline dark:text-blue-300">
      {series.name}
    </Link>
  ) : (
    <>{series.name}</>
  );
}

function sortValue(series: ReportSeries, key: SortKey): number | string {
  if (key === 'name') return series.name.toLocaleLowerCase();
  return series.totals[key] ?? Number.NEGATIVE_INFINITY;
}

/** /reports: spend, conversions, CPA and ROAS over time, per account or campaign, each in its own currency. */
export function ReportsPage() {
  const { t, i18n } = useTranslation('reports');
  const language = i18n.language;
  const accounts = useAdAccounts();
  const narrow = useMediaQuery(NARROW_QUERY);
  const [from, setFrom] = useState(() => localDay(-29));
  const [to, setTo] = useState(() => localDay(0));
  const [adAccountId, setAdAccountId] = useState('');
  const [level, setLevel] = useState<ReportFilters['level']>('account');
  const [metric, setMetric] = useState<ChartMetric>('spend');
  const [chartCurrency, setChartCurrency] = useState<string | null>(null);
  const [sort, setSort] = useState<{ key: SortKey; descending: boolean }>({ key: 'spend', descending: true });

  const problem = rangeProblem(from, to);
  const filters: ReportFilters = { from, to, level, ...(adAccountId ? { adAccountId } : {}) };
  const report = useReport(filters, problem === null);
  const exportAs = useMutation({
    mutationFn: (format: ReportExportFormat) => downloadReport(format, filters),
    onError: () => toast.error(t('export.failed')),
  });

  const rows = useMemo(() => {
    const list = [...(report.data?.series ?? [])];
    list.sort((a, b) => {
      const x = sortValue(a, sort.key);
      const y = sortValue(b, sort.key);
      const order = x < y ? -1 : x > y ? 1 : 0;
      return sort.descending ? -order : order;
    });
    return list;
  }, [report.data, sort]);

  const preset = (days: number) => {
    setFrom(localDay(-(days - 1)));
    setTo(localDay(0));
  };
  const sortBy = (key: SortKey) =>
    setSort((current) => ({ key, descending: current.key === key ? !current.descending : key !== 'name' }));

  const noAccounts = accounts.data?.length === 0;
  const series = report.data?.series ?? [];
  const hasDelivery = series.some((s) => s.totals.spend > 0 || s.totals.conversions > 0);
  // Amounts in different currencies are never drawn on one axis: a money metric shows one currency at a time.
  const currencies = [...new Set(series.map((s) => s.currency))];
  const moneyMetric = metric === 'spend' || metric === 'cpa';
  const shownCurrency =
    chartCurrency && currencies.includes(chartCurrency) ? chartCurrency : (series[0]?.currency ?? null);
  const charted = (
    moneyMetric && currencies.length > 1 ? series.filter((s) => s.currency === shownCurrency) : series
  ).filter((s) => s.days.length > 0);
  const money = (value: number | null, currency: string) =>
    value === null ? '—' : formatMoney(value, currency, language);

  const header = (key: SortKey, label: string, alignRight = true) => (
    <th
      scope="col"
      className={clsx('px-3 py-2 font-medium whitespace-nowrap', alignRight && 'text-right')}
      aria-sort={sort.key === key ? (sort.descending ? 'descending' : 'ascending') : 'none'}
    >
      <button type="button" onClick={() => sortBy(key)} className="inline-flex items-center gap-1 hover:underline">
        {label}
        {sort.key === key &&
          (sort.descending ? (
            <ArrowDown aria-hidden="true" className="size-3" />
          ) : (
            <ArrowUp aria-hidden="true" className="size-3" />
          ))}
      </button>
    </th>
  );

  return (
    <div className="space-y-6">
      <PageHeader title={t('title')} description={t('description')} />

      <Card>
        {/* On a phone: From and To side by side, then the presets and each select on a row of their own. */}
        <CardContent className="grid grid-cols-2 gap-x-3 gap-y-4 px-4 sm:flex sm:flex-wrap sm:items-end sm:gap-4 sm:px-6">
          <div className="min-w-0">
            <label htmlFor="report-from" className="block text-sm font-medium text-gray-700 dark:text-gray-300">
              {t('filters.from')}
            </label>
            <Input
              id="report-from"
              type="date"
              value={from}
              max={to || undefined}
              onChange={(e) => setFrom(e.target.value)}
              className="mt-1 w-full sm:w-40"
              invalid={problem === 'fromAfterTo'}
            />
          </div>
          <div className="min-w-0">
            <label htmlFor="report-to" className="block text-sm font-medium text-gray-700 dark:text-gray-300">
              {t('filters.to')}
            </label>
            <Input
              id="report-to"
              type="date"
              value={to}
              min={from || undefined}
              onChange={(e) => setTo(e.target.value)}
              className="mt-1 w-full sm:w-40"
              invalid={problem === 'rangeTooLong'}
            />
          </div>
          <div className="col-span-2 grid grid-cols-3 gap-2 sm:flex" role="group" aria-label={t('filters.presets')}>
            {PRESETS.map((days) => (
              <Button
                key={days}
                variant="secondary"
                size="sm"
                className="px-2 whitespace-nowrap sm:px-3"
                onClick={() => preset(days)}
              >
                {t('filters.lastDays', { count: days })}
              </Button>
            ))}
          </div>
          <div className="col-span-2 min-w-0">
            <label htmlFor="report-account" className="block text-sm font-medium text-gray-700 dark:text-gray-300">
              {t('filters.account')}
            </label>
            <select
              id="report-account"
              value={adAccountId}
              onChange={(e) => setAdAccountId(e.target.value)}
              className="mt-1 h-10 w-full max-w-full rounded-lg border border-gray-300 bg-white px-3 text-sm sm:w-auto dark:border-gray-600 dark:bg-gray-800 dark:text-gray-100"
            >
              <option value="">{t('filters.allAccounts')}</option>
              {(accounts.data ?? []).map((account) => (
                <option key={account.id} value={account.id}>
                  {account.facebook_account_name} ({account.currency})
                </option>
              ))}
            </select>
          </div>
          <div className="col-span-2 min-w-0">
            <label htmlFor="report-level" className="block text-sm font-medium text-gray-700 dark:text-gray-300">
              {t('filters.level')}
            </label>
            <select
              id="report-level"
              value={level}
              onChange={(e) => setLevel(e.target.value as ReportFilters['level'])}
              className="mt-1 h-10 w-full max-w-full rounded-lg border border-gray-300 bg-white px-3 text-sm sm:w-auto dark:border-gray-600 dark:bg-gray-800 dark:text-gray-100"
            >
              <option value="account">{t('levels.account')}</option>
              <option value="campaign">{t('levels.campaign')}</option>
            </select>
          </div>
        </CardContent>
        {problem && problem !== 'missing' && (
          <p role="alert" className="px-6 pb-4 text-sm text-red-600 dark:text-red-400">
            {problem === 'fromAfterTo'
              ? t('common:dateRange.fromAfterTo')
              : t('problems.rangeTooLong', { days: REPORT_MAX_DAYS })}
          </p>
        )}
      </Card>

      {noAccounts ? (
        <Card>
          <CardContent className="py-10 text-center text-gray-600 dark:text-gray-400">
            <p>{t('empty.noAccounts')}</p>
            <Link
              to="/ad-accounts"
              className="mt-2 inline-block font-medium text-blue-600 hover:underline dark:text-blue-400"
            >
              {t('empty.connect')}
            </Link>
          </CardContent>
        </Card>
      ) : report.isError ? (
        <Card>
          <CardContent className="flex items-center justify-between gap-4">
            <p role="alert" className="text-sm text-red-600 dark:text-red-400">
              {t('error')}
            </p>
            <Button variant="secondary" size="sm" onClick={() => void report.refetch()}>
              {t('retry')}
            </Button>
          </CardContent>
        </Card>
      ) : !report.data ? (
        <div className="flex justify-center py-16">
          <Spinner size="lg" />
        </div>
      ) : (
        <>
          <Card aria-busy={report.isFetching}>
            <CardContent className="space-y-4">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <h2 className="text-lg font-semibold text-gray-900 dark:text-gray-100">{t('chart.title')}</h2>
                <div className="flex flex-wrap gap-1" role="group" aria-label={t('chart.metric')}>
                  {CHART_METRICS.map((m) => (
                    <Button
                      key={m}
                      size="sm"
                      variant={metric === m ? 'primary' : 'ghost'}
                      aria-pressed={metric === m}
                      onClick={() => setMetric(m)}
                    >
                      {t(`metrics.${m}`)}
                    </Button>
                  ))}
                </div>
              </div>
              {moneyMetric && currencies.length > 1 && (
                <div className="flex flex-wrap items-center gap-2 text-sm text-gray-600 dark:text-gray-400">
                  <span>{t('chart.oneCurrency')}</span>
                  <div className="flex gap-1" role="group" aria-label={t('chart.currency')}>
                    {currencies.map((currency) => (
                      <Button
                        key={currency}
                        size="sm"
                        variant={currency === shownCurrency ? 'secondary' : 'ghost'}
                        aria-pressed={currency === shownCurrency}
                        onClick={() => setChartCurrency(currency)}
                      >
                        {currency}
                      </Button>
                    ))}
                  </div>
                </div>
              )}
              {hasDelivery ? (
                <Suspense
                  fallback={
                    <div className="flex h-80 items-center justify-center">
                      <Spinner />
                    </div>
                  }
                >
                  <ReportChart series={charted} metric={metric} />
                </Suspense>
              ) : (
                <p className="py-10 text-center text-sm text-gray-600 dark:text-gray-400">{t('empty.noDelivery')}</p>
              )}
            </CardContent>
          </Card>

          <Card>
            <div className="flex flex-wrap items-center justify-between gap-2 border-b border-gray-200 px-4 py-3 sm:px-6 dark:border-gray-800">
              <h2 className="text-base font-semibold text-gray-900 dark:text-gray-100">{t('table.caption')}</h2>
              <div className="flex gap-2" role="group" aria-label={t('export.label')}>
                {(['csv', 'xlsx'] as const).map((format) => (
                  <Button
                    key={format}
                    variant="secondary"
                    size="sm"
                    loading={exportAs.isPending && exportAs.variables === format}
                    disabled={exportAs.isPending || series.length === 0}
                    onClick={() => exportAs.mutate(format)}
                  >
                    <Download aria-hidden="true" className="size-4" />
                    {t(`export.${format}`)}
                  </Button>
                ))}
              </div>
            </div>
            {narrow ? (
              <SeriesCards
                rows={rows}
                byCampaign={level === 'campaign'}
                sort={sort.key}
                onSort={(key) => setSort({ key, descending: key !== 'name' })}
              />
            ) : (
              <div className="overflow-x-auto">
                <table className="min-w-full text-sm">
                  <caption className="sr-only">{t('table.caption')}</caption>
                  <thead className="border-b border-gray-200 text-left text-gray-600 dark:border-gray-800 dark:text-gray-400">
                    <tr>
                      {header('name', level === 'campaign' ? t('levels.campaign') : t('levels.account'), false)}
                      <th scope="col" className="px-3 py-2 font-medium whitespace-nowrap">
                        {t('table.currency')}
                      </th>
                      {header('spend', t('metrics.spend'))}
                      {header('conversions', t('metrics.conversions'))}
                      {header('cpa', t('metrics.cpa'))}
                      {header('roas', t('metrics.roas'))}
                    </tr>
                  </thead>
                  <tbody>
                    {rows.map((s) => (
                      <tr
                        key={`${s.adAccountId}:${s.id}`}
                        className="border-b border-gray-100 last:border-0 dark:border-gray-800"
                      >
                        <td className="px-3 py-2">
                          <div className="font-medium text-gray-900 dark:text-gray-100">
                            <SeriesName series={s} />
                          </div>
                          {level === 'campaign' && (
                            <div className="text-xs text-gray-500 dark:text-gray-400">{s.adAccountName}</div>
                          )}
                        </td>
                        <td className="px-3 py-2">{s.currency}</td>
                        <td className="px-3 py-2 text-right tabular-nums">{money(s.totals.spend, s.currency)}</td>
                        <td className="px-3 py-2 text-right tabular-nums">
                          {formatNumber(s.totals.conversions, language)}
                        </td>
                        <td className="px-3 py-2 text-right tabular-nums">{money(s.totals.cpa, s.currency)}</td>
                        <td className="px-3 py-2 text-right tabular-nums">
                          {s.totals.roas === null ? '—' : `${formatNumber(s.totals.roas, language)}×`}
                        </td>
                      </tr>
                    ))}
                    {rows.length === 0 && (
                      <tr>
                        <td colSpan={6} className="px-3 py-6 text-center text-gray-600 dark:text-gray-400">
                          {t('empty.noDelivery')}
                        </td>
                      </tr>
                    )}
                  </tbody>
                </table>
              </div>
            )}
          </Card>
        </>
      )}

      <ScheduledReports />
    </div>
  );
}
