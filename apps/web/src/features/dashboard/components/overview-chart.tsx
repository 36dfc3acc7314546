import type { OverviewCurrency } from '@adpilot/contracts';
import { useTranslation } from 'react-i18next';
import {
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { formatDay, formatMoney, formatNumber } from '../../../lib/format.ts';

/**
 * Spend (left axis, the currency's money) and results (right axis) per day, with a dashed mark on each day a rule
 * acted (the recharts chunk loads with this file only, as on the Reports page).
 */
export function OverviewChart({ series }: { series: OverviewCurrency }) {
  const { t, i18n } = useTranslation('dashboard');
  const language = i18n.language;
  const rows = series.days.map((day) => ({
    label: formatDay(day.date, language, { short: true }),
    spend: day.spend,
    results: day.results,
    actions: day.actions,
  }));
  return (
    <div role="img" aria-label={t('overview.chartLabel', { currency: series.currency })} className="h-72 w-full">
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          {/* No vertical grid lines: the dashed vertical marks are the days rules acted. */}
          <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 11 }} interval="preserveStartEnd" />
          <YAxis
            yAxisId="spend"
            tick={{ fontSize: 11 }}
            width={56}
            tickFormatter={(value: number) => formatNumber(value, language, 0)}
          />
          <YAxis
            yAxisId="results"
            orientation="right"
            tick={{ fontSize: 11 }}
            width={36}
            allowDecimals={false}
            tickFormatter={(value: number) => formatNumber(value, language, 0)}
          />
          <Tooltip
            formatter={(value, name) =>
              typeof value !== 'number'
                ? '—'
                : name === t('overview.spend')
                  ? formatMoney(value, series.currency, language)
                  : formatNumber(value, language)
            }
          />
          <Legend />
          {rows
            .filter((row) => row.actions > 0)
            .map((row) => (
              <ReferenceLine
                key={row.label}
                x={row.label}
                yAxisId="spend"
                stroke="#9333ea"
                strokeWidth={1.5}
                strokeDasharray="4 3"
                ifOverflow="extendDomain"
              />
            ))}
          <Line
            yAxisId="spend"
            type="monotone"
            dataKey="spend"
            name={t('overview.spend')}
            stroke="#2563eb"
            dot={false}
            strokeWidth={2}
            isAnimationActive={false}
          />
          <Line
            yAxisId="results"
            type="monotone"
            dataKey="results"
            name={t('overview.results')}
            stroke="#16a34a"
            dot={false}
            strokeWidth={2}
            isAnimationActive={false}
          />
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}
