import type { EntityDay, EntityHistoryItem } from '@adpilot/contracts';
import { useTranslation } from 'react-i18next';
import {
  CartesianGrid,
  ComposedChart,
  Line,
  ReferenceArea,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { formatDay, formatMoney, formatNumber } from '../../../lib/format.ts';
import type { ChartMetric } from '../lib/chart-metrics.ts';

const MONEY: ReadonlySet<ChartMetric> = new Set(['spend', 'cpa']);

interface EntityChartProps {
  daily: readonly EntityDay[];
  history: readonly EntityHistoryItem[];
  metric: ChartMetric;
  currency: string;
  label: string;
  /** The words on the days before the account's first data. */
  noDataLabel: string;
}

/**
 * One metric per local day of the window (the recharts chunk loads with this file only). A day before the account's
 * first data is drawn as a gap and read as "no data", never as zero; settling days are shaded; each day AdPilot or
 * a person acted is marked with a dashed line.
 */
export function EntityChart({ daily, history, metric, currency, label, noDataLabel }: EntityChartProps) {
  const { t, i18n } = useTranslation('campaigns');
  const language = i18n.language;
  const rows = daily.map((day) => ({
    date: day.date,
    label: formatDay(day.date, language, { short: true }),
    value: day.hasData ? day[metric] : null,
    hasData: day.hasData,
  }));
  const labelOf = new Map(rows.map((row) => [row.date, row.label]));
  const actionDays = [...new Set(history.filter((item) => item.kind !== 'proposal').map((item) => item.date))].filter(
    (date) => labelOf.has(date),
  );
  const settling = daily.filter((day) => day.settling);
  const before = daily.filter((day) => !day.hasData);
  const lastWithout = before.length > 0 && before.length < daily.length ? before.at(-1) : undefined;
  const firstSettling = settling[0];
  const lastDay = daily.at(-1);
  const format = (value: number) =>
    MONEY.has(metric)
      ? formatMoney(value, currency, language)
      : metric === 'roas'
        ? `${formatNumber(value, language)}×`
        : formatNumber(value, language);

  return (
    <div role="img" aria-label={label} className="h-72 w-full" data-testid="entity-chart">
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 11 }} interval="preserveStartEnd" />
          <YAxis
            tick={{ fontSize: 11 }}
            width={64}
            tickFormatter={(value: number) => formatNumber(value, language, MONEY.has(metric) ? 0 : 2)}
          />
          {lastWithout && daily[0] && (
            <ReferenceArea
              x1={labelOf.get(daily[0].date)}
              x2={labelOf.get(lastWithout.date)}
              fill="#9ca3af"
              fillOpacity={0.12}
              ifOverflow="extendDomain"
              label={{ value: noDataLabel, position: 'insideTop', fill: '#6b7280', fontSize: 12 }}
            />
          )}
          {firstSettling && lastDay && (
            <ReferenceArea
              x1={labelOf.get(firstSettling.date)}
              x2={labelOf.get(lastDay.date)}
              fill="#f59e0b"
              fillOpacity={0.08}
              ifOverflow="extendDomain"
            />
          )}
          <Tooltip
            formatter={(value, _name, item) => {
              const row = item.payload as { hasData?: boolean } | undefined;
              if (row && row.hasData === false) return t('entity.noData');
              return typeof value === 'number' ? format(value) : '—';
            }}
          />
          {actionDays.map((date) => (
            <ReferenceLine
              key={date}
              x={labelOf.get(date)}
              stroke="#9333ea"
              strokeWidth={1.5}
              strokeDasharray="4 3"
              ifOverflow="extendDomain"
            />
          ))}
          <Line
            type="monotone"
            dataKey="value"
            name={t(`columns.${metric}`)}
            stroke="#2563eb"
            dot={rows.length <= 31}
            strokeWidth={2}
            connectNulls={false}
            isAnimationActive={false}
          />
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}
