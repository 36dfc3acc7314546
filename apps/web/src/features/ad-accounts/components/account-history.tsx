import { BACKFILL_DAYS_MAX, type AdAccount } from '@adpilot/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import toast from 'react-hot-toast';
import { useCan } from '../../../api/workspaces.ts';
import { formatDay, formatNumber } from '../../../lib/format.ts';
import { useUpdateBackfillDays } from '../api/update-backfill-days.ts';

/** The settings offered; 1,125 days is the most Meta's 37 months of insights always hold (ADR 0103). */
const CHOICES = [30, 90, 180, 365, 730, BACKFILL_DAYS_MAX];

const selectClass =
  'h-9 w-full rounded-md border border-gray-300 bg-white px-2 text-sm text-gray-900 dark:border-gray-600 dark:bg-gray-800 dark:text-gray-100';

/** The card's history: how much of the setting the mirror holds, its progress, and the setting for an editor. */
export function AccountHistory({ account }: { account: AdAccount }) {
  const { t, i18n } = useTranslation('ad-accounts');
  const language = i18n.language;
  const canEdit = useCan('editor');
  const selectId = useId();
  const update = useUpdateBackfillDays({ onError: () => toast.error(t('history.saveFailed')) });
  const { history } = account;
  const choices = CHOICES.includes(account.backfill_days)
    ? CHOICES
    : [...CHOICES, account.backfill_days].sort((a, b) => a - b);
  const label = (days: number) =>
    days === BACKFILL_DAYS_MAX
      ? t('history.maximum', { count: days, days: formatNumber(days, language) })
      : t('history.choice', { count: days, days: formatNumber(days, language) });

  const status =
    history.from === null
      ? t('history.waiting')
      : history.complete
        ? t('history.complete', { from: formatDay(history.from, language) })
        : t('history.fetching', {
            days: formatNumber(history.days, language),
            total: formatNumber(history.target_days, language),
          });
  const percent = history.target_days > 0 ? Math.round((history.days / history.target_days) * 100) : 0;

  return (
    <div className="mt-4 space-y-2 text-sm" data-testid="account-history">
      <div className="flex items-baseline justify-between gap-4">
        <span className="text-gray-500 dark:text-gray-400">{t('history.title')}</span>
        <span role="status" className="text-right font-medium text-gray-900 dark:text-gray-100">
          {status}
        </span>
      </div>
      {history.from !== null && !history.complete && (
        <div
          role="progressbar"
          aria-label={t('history.progress')}
          aria-valuemin={0}
          aria-valuemax={history.target_days}
          aria-valuenow={history.days}
          className="h-1.5 w-full overflow-hidden rounded-full bg-gray-100 dark:bg-gray-800"
        >
          <div className="h-full bg-blue-600 dark:bg-blue-400" style={{ width: `${percent}%` }} />
        </div>
      )}
      {canEdit && (
        <div className="space-y-1">
          <label htmlFor={selectId} className="block text-gray-500 dark:text-gray-400">
            {t('history.setting')}
          </label>
          <select
            id={selectId}
            className={selectClass}
            value={account.backfill_days}
            disabled={update.isPending}
            onChange={(event) => update.mutate({ id: account.id, days: Number(event.target.value) })}
          >
            {choices.map((days) => (
              <option key={days} value={days}>
                {label(days)}
              </option>
            ))}
          </select>
        </div>
      )}
    </div>
  );
}
