import type { ReportSeries } from '@adpilot/contracts';
import { useTranslation } from 'react-i18next';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatDay, formatMoney, formatNumber } from '../../../lib/format.ts';
import type { ChartMetric } from '../lib/metrics.ts';

const MONEY: ReadonlySet<ChartMetric> = new Set(['spend', 'cpa']);
const COLOURS = ['#2563eb', '#16a34a', '#ea580c', '#9333ea', '#db2777', '#0891b2'];
/** The chart draws the series that spent most; the table below lists them all. */
export const CHART_SERIES_MAX = COLOURS.length;

/** One metric over the days of the range, a line per series (the recharts chunk loads with this file only). */
export function ReportChart({ series, metric }: { series: ReportSeries[]; metric: ChartMetric }) {
  const { t, i18n } = useTranslation('reports');
  const language = i18n.language;
  const shown = series.slice(0, CHART_SERIES_MAX);
  const days = shown[0]?.days ?? [];
  const rows = days.map((day, index) => ({
    label: formatDay(day.date, language, { short: true }),
    ...Object.fromEntries(shown.map((s, n) => [`s${n}`, s.days[index]?.[metric] ?? null])),
  }));
  // Every line starts later than the range: the chart says where the data begins rather than drawing zeros.
  const firsts = shown.map((s) => s.firstDataDay);
  const begins =
    days.length > 0 && firsts.every((first) => first !== null && first > (days[0]?.date ?? ''))
      ? firsts.reduce((a, b) => ((a ?? '') < (b ?? '') ? a : b))
      : null;
  const format = (value: number, index: number) => {
    const currency = shown[index]?.currency;
    if (MONEY.has(metric) && currency) return formatMoney(value, currency, language);
    return formatNumber(value, language);
  };
  return (
    <>
      {begins && (
        <p className="mb-2 text-xs text-gray-600 dark:text-gray-400" data-testid="report-data-begins">
          {t('chart.dataBegins', { date: formatDay(begins, language) })}
        </p>
      )}
      <div
        role="img"
        aria-label={t('chart.label', { metric: t(`metrics.${metric}`) })}
        className="h-80 w-full"
        data-testid="report-chart"
      >
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={rows} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" />
            <XAxis dataKey="label" tick={{ fontSize: 11 }} interval="preserveStartEnd" />
            <YAxis
              tick={{ fontSize: 11 }}
              width={64}
              tickFormatter={(value: number) => formatNumber(value, language)}
            />
            <Tooltip
              formatter={(value, _name, item) => {
                const index = Number(String(item.dataKey ?? 's0').slice(1));
                return typeof value === 'number' ? format(value, index) : t('chart.noData');
              }}
            />
            <Legend />
            {shown.map((s, index) => (
              <Line
                key={`${s.adAccountId}:${s.id}`}
                type="monotone"
                dataKey={`s${index}`}
                name={`${s.name} (${s.currency})`}
                stroke={COLOURS[index % COLOURS.length]}
                dot={false}
                strokeWidth={2}
                connectNulls={false}
                isAnimationActive={false}
              />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
    </>
  );
}
