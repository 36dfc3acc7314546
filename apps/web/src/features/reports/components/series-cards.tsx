import type { ReportSeries } from '@adpilot/contracts';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../../lib/format.ts';

export const SORT_KEYS = ['name', 'spend', 'conversions', 'cpa', 'roas'] as const;
export type SortKey = (typeof SORT_KEYS)[number];

interface SeriesCardsProps {
  rows: ReportSeries[];
  byCampaign: boolean;
  sort: SortKey;
  onSort: (key: SortKey) => void;
}

/**
 * The totals on a phone: one card per account or campaign with all four figures, so no column is cut off at the
 * screen's edge; a select replaces the sortable column headings (ADR 0059).
 */
export function SeriesCards({ rows, byCampaign, sort, onSort }: SeriesCardsProps) {
  const { t } = useTranslation('reports');
  const format = useFormat();
  const nameLabel = byCampaign ? t('levels.campaign') : t('levels.account');
  const label = (key: SortKey) => (key === 'name' ? nameLabel : t(`metrics.${key}`));
  const money = (value: number | null, currency: string) => (value === null ? '—' : format.money(value, currency));

  return (
    <div>
      <label className="flex items-center gap-3 border-b border-gray-200 px-4 py-3 text-sm dark:border-gray-800">
        <span className="font-medium text-gray-700 dark:text-gray-300">{t('table.sortBy')}</span>
        <select
          value={sort}
          onChange={(event) => onSort(event.target.value as SortKey)}
          className="h-9 min-w-0 flex-1 rounded-lg border border-gray-300 bg-white px-2 text-sm dark:border-gray-600 dark:bg-gray-800 dark:text-gray-100"
        >
          {SORT_KEYS.map((key) => (
            <option key={key} value={key}>
              {label(key)}
            </option>
          ))}
        </select>
      </label>
      <ul aria-label={t('table.caption')} className="divide-y divide-gray-100 dark:divide-gray-800">
        {rows.map((s) => (
          <li key={`${s.adAccountId}:${s.id}`} className="space-y-2 px-4 py-3 text-sm">
            <div className="flex items-baseline justify-between gap-3">
              <div className="min-w-0">
                <p className="font-medium break-words text-gray-900 dark:text-gray-100">{s.name}</p>
                {byCampaign && (
                  <p className="text-xs break-words text-gray-500 dark:text-gray-400">{s.adAccountName}</p>
                )}
              </div>
              <span className="shrink-0 text-xs text-gray-600 dark:text-gray-400">{s.currency}</span>
            </div>
            <dl className="grid grid-cols-2 gap-x-4 gap-y-1">
              {(
                [
                  ['spend', money(s.totals.spend, s.currency)],
                  ['conversions', format.number(s.totals.conversions)],
                  ['cpa', money(s.totals.cpa, s.currency)],
                  ['roas', s.totals.roas === null ? '—' : `${format.number(s.totals.roas)}×`],
                ] as const
              ).map(([key, value]) => (
                <div key={key} className="flex justify-between gap-2">
                  <dt className="text-gray-600 dark:text-gray-400">{t(`metrics.${key}`)}</dt>
                  <dd className="text-right text-gray-900 tabular-nums dark:text-gray-100">{value}</dd>
                </div>
              ))}
            </dl>
          </li>
        ))}
        {rows.length === 0 && (
          <li className="px-4 py-6 text-center text-sm text-gray-600 dark:text-gray-400">{t('empty.noDelivery')}</li>
        )}
      </ul>
    </div>
  );
}
