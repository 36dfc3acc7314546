import { isActivityCode, isSyncErrorCode, type ActivityLog } from '@adpilot/contracts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';

type Coded = Pick<ActivityLog, 'code' | 'params' | 'description'>;

/**
 * An activity entry in the reader's language, from its stored code and parameters (the `activity` catalogue is keyed
 * by the codes of contracts' ACTIVITY_CODES). A note, an unknown code or an entry older than codes reads as its
 * stored description. Always plain text: React renders it as text, never as markup.
 */
export function activityText(t: TFunction, log: Coded): string {
  if (!isActivityCode(log.code) || log.code === 'note') return log.description;
  const params: Record<string, unknown> = { ...log.params };
  if (typeof params.action === 'string') params.action = t(`activity:actions.${params.action}`, params.action);
  if (typeof params.reason === 'string' && isSyncErrorCode(params.reason))
    params.reason = t(`activity:syncErrors.${params.reason}`);
  return t(`activity:codes.${log.code}`, params);
}

/** `activityText` with the current page's translator. */
export function useActivityText(): (log: Coded) => string {
  const { t } = useTranslation('activity');
  return (log) => activityText(t, log);
}
