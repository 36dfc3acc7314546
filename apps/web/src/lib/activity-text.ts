import { renderActivityWith, type ActivityLog } from '@adpilot/contracts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';

type Coded = Pick<ActivityLog, 'code' | 'params' | 'description'>;
type Signed = Pick<ActivityLog, 'actor'>;

/**
 * An activity entry in the reader's language, from its stored code and parameters: contracts' renderer (the one the
 * server's e-mails use) reading the `activity` namespace, which holds contracts' ACTIVITY_MESSAGES. A note, an
 * unknown code or an entry older than codes reads as its stored description. Counts, days and amounts are written
 * in `language` with `Intl`. Always plain text: React renders it as text, never as markup.
 */
export function activityText(t: TFunction, log: Coded, language: string): string {
  return renderActivityWith(log, (key, params) => t(`activity:${key}`, params), language);
}

/** `activityText` with the current page's translator, its figures in the page's language. */
export function useActivityText(): (log: Coded) => string {
  const { t, i18n } = useTranslation('activity');
  return (log) => activityText(t, log, i18n.language);
}

/** "by <name>" for an entry a person made (its actor), in the page's language; null for the system's own entries. */
export function useActorText(): (log: Signed) => string | null {
  const { t } = useTranslation('common');
  return (log) => (log.actor ? t('common:activityActor', { name: log.actor.name }) : null);
}
