import type { ActionImpact, ImpactDay } from '@adpilot/contracts';
import { useTranslation } from 'react-i18next';
import { CartesianGrid, Line, LineChart, ReferenceDot, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatDay, formatMoney, formatNumber } from '../../../lib/format.ts';
import { ACTION_COLOURS, type ImpactMetric } from './impact-colours.ts';

/**
 * The touched entities' daily CPA or ROAS, with a dot on the line at each day the rule acted (the recharts chunk
 * loads with this file only, as on the Reports page).
 */
export function ImpactChart({
  daily,
  actions,
  metric,
  currency,
}: {
  daily: ImpactDay[];
  actions: ActionImpact[];
  metric: ImpactMetric;
  currency: string;
}) {
  const { t, i18n } = useTranslation('rules');
  const language = i18n.language;
  const rows = daily.map((day) => ({ label: formatDay(day.date, language, { short: true }), value: day[metric] }));
  const labelOf = new Map(daily.map((day, index) => [day.date, rows[index]!] as const));
  // One dot per day and kind of action, on the line's value of that day.
  const marks = new Map<string, { label: string; value: number; type: string }>();
  for (const action of actions) {
    const row = labelOf.get(action.localDate);
    if (!row || row.value === null) continue;
    marks.set(`${action.localDate}:${action.type}`, { label: row.label, value: row.value, type: action.type });
  }
  const format = (value: number) =>
    metric === 'cpa' ? formatMoney(value, currency, language) : formatNumber(value, language);
  return (
    <div
      role="img"
      aria-label={t('impact.chartLabel', { metric: t(`impact.metric.${metric}`) })}
      className="h-64 w-full"
    >
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={rows} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" />
          <XAxis dataKey="label" tick={{ fontSize: 11 }} interval="preserveStartEnd" />
          <YAxis tick={{ fontSize: 11 }} width={64} tickFormatter={(value: number) => formatNumber(value, language)} />
          <Tooltip formatter={(value) => (typeof value === 'number' ? format(value) : '—')} />
          <Line
            type="monotone"
            dataKey="value"
            name={t(`impact.metric.${metric}`)}
            stroke="#2563eb"
            dot={false}
            strokeWidth={2}
            connectNulls={false}
            isAnimationActive={false}
          />
          {[...marks.values()].map((mark) => (
            <ReferenceDot
              key={`${mark.label}:${mark.type}`}
              x={mark.label}
              y={mark.value}
              r={5}
              fill={ACTION_COLOURS[mark.type] ?? '#6b7280'}
              stroke="#fff"
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
