import { clsx } from 'clsx';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { formatTime } from '../../../lib/format.ts';
import { useHealth } from '../api/diagnostics.ts';

/** Spec §2/§9: a live indicator from /api/health, refreshed every 30 seconds. */
export function LiveStatus() {
  const { t, i18n } = useTranslation('test-connection');
  const health = useHealth();
  const state = health.data
    ? health.data.status
    : health.error instanceof ApiError && health.error.status === 503
      ? 'degraded'
      : health.isError
        ? 'offline'
        : null;
  const checkedAt = health.dataUpdatedAt || health.errorUpdatedAt;
  return (
    <div className="flex items-center gap-3 text-sm" data-testid="live-status" data-state={state ?? 'checking'}>
      <span
        aria-hidden="true"
        className={clsx(
          'size-3 rounded-full',
          state === 'ok'
            ? 'animate-pulse bg-green-500'
            : state === 'degraded'
              ? 'bg-yellow-500'
              : state
                ? 'bg-red-500'
                : 'bg-gray-400',
        )}
      />
      <span className="font-medium text-gray-900 dark:text-gray-100">
        {t('status.title')}: {state ? t(`status.${state}`) : '…'}
      </span>
      {checkedAt > 0 && (
        <span className="text-gray-500 dark:text-gray-400">
          {t('status.checked', { time: formatTime(checkedAt, i18n.language) })}
        </span>
      )}
    </div>
  );
}
