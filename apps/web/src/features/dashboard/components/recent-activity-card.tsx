import type { ActivityLevel } from '@adpilot/contracts';
import { useQuery } from '@tanstack/react-query';
import { clsx } from 'clsx';
import { useTranslation } from 'react-i18next';
import { logsQueryOptions } from '../../../api/activity-logs.ts';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { useActivityText, useActorText } from '../../../lib/activity-text.ts';
import { formatDateTime } from '../../../lib/format.ts';

/** Spec §2: the 5 newest entries. */
export const RECENT_ACTIVITY_COUNT = 5;

/** Spec §2: red for error, yellow for warning, green otherwise. */
const DOT: Record<ActivityLevel, string> = {
  error: 'bg-red-500',
  warning: 'bg-yellow-500',
  info: 'bg-blue-500',
  success: 'bg-green-500',
};

export function RecentActivityCard() {
  const { t, i18n } = useTranslation('dashboard');
  const text = useActivityText();
  const actorText = useActorText();
  const recent = useQuery(logsQueryOptions({ page: 1, limit: RECENT_ACTIVITY_COUNT }));
  const logs = recent.data?.logs ?? [];
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('recentActivity.title')}</CardTitle>
      </CardHeader>
      <CardContent>
        {logs.length === 0 ? (
          <p className="py-8 text-center text-sm text-gray-500 dark:text-gray-400">{t('recentActivity.empty')}</p>
        ) : (
          <ul className="space-y-3" aria-label={t('recentActivity.title')}>
            {logs.map((log) => (
              <li key={log._id} className="flex items-start gap-3">
                <span
                  data-level={log.level}
                  aria-hidden="true"
                  className={clsx('mt-1.5 size-2 shrink-0 rounded-full', DOT[log.level])}
                />
                <div className="min-w-0">
                  <p className="text-sm break-words text-gray-900 dark:text-gray-100">{text(log)}</p>
                  <p className="text-xs break-words text-gray-500 dark:text-gray-400">
                    <time dateTime={log.createdAt}>{formatDateTime(log.createdAt, i18n.language)}</time>
                    {log.actor && ` · ${actorText(log)}`}
                  </p>
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
