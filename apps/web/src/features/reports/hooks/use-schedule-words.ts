import type { ReportSchedule } from '@adpilot/contracts';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';

/** A schedule named for buttons and questions: "weekly report in English" · "รายงานรายสัปดาห์ ภาษาอังกฤษ". */
export function useScheduleName(): (schedule: Pick<ReportSchedule, 'frequency' | 'language'>) => string {
  const { t } = useTranslation('reports');
  return useCallback(
    (schedule) =>
      t('schedules.name', {
        frequency: t(`schedules.frequencyWord.${schedule.frequency}`),
        language: t(`schedules.languageName.${schedule.language}`),
      }),
    [t],
  );
}

/**
 * The words for a refused schedule call in the reader's language, chosen by the answer's code: this feature's own
 * texts first (`reports:schedules.apiErrors.<CODE>`), then the app's catalogue. A server fault or a lost connection
 * shows the fallback.
 */
export function useScheduleErrorText(): (error: unknown, fallback: string) => string {
  const { t } = useTranslation(['reports', 'errors']);
  return useCallback(
    (error, fallback) => {
      if (!(error instanceof ApiError) || error.status === 0 || error.status >= 500) return fallback;
      return t([`reports:schedules.apiErrors.${error.code}`, `errors:codes.${error.code}`], { defaultValue: fallback });
    },
    [t],
  );
}
