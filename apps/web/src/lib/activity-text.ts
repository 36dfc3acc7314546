import { formatMoney, formatNumber, renderActivityWith, type ActivityLog } from '@adpilot/contracts';
import { formatDateTime } from './format.ts';
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

/**
 * "by <name>" for an entry a person made (its actor), "by <name> via MCP" for one an AI agent's token made, in the
 * page's language; null for the system's own entries.
 */
export function useActorText(): (log: Signed) => string | null {
  const { t } = useTranslation('common');
  return (log) => {
    if (!log.actor) return null;
    return t(log.actor.via ? 'common:activityActorAgent' : 'common:activityActor', { name: log.actor.name });
  };
}

/** A rule entry's `metadata.change` as stored: a status, or a budget in the currency's major units. */
interface StoredChange {
  field: 'status' | 'daily_budget' | 'lifetime_budget' | 'budget_schedule';
  from: string | number | null;
  to: string | number | null;
  currency?: string;
  /** A budget boost's budget and window (ADR 0191). */
  budgetField?: 'daily_budget' | 'lifetime_budget' | null;
  timeStart?: string | null;
  timeEnd?: string | null;
}

const CHANGE_FIELDS = new Set(['status', 'daily_budget', 'lifetime_budget', 'budget_schedule']);

function storedChange(metadata: ActivityLog['metadata']): StoredChange | null {
  const change = metadata.change as Partial<StoredChange> | null | undefined;
  if (!change || typeof change !== 'object') return null;
  if (!change.field || !CHANGE_FIELDS.has(change.field)) return null;
  return change as StoredChange;
}

/**
 * What a rule's change entry moved, from → to, in the page's language: "daily budget: ฿1,000.00 → ฿1,200.00",
 * "status: Active → Paused"; null for an entry that changed nothing.
 */
export function useChangeLine(): (
  log: Pick<ActivityLog, 'metadata'> & Partial<Pick<ActivityLog, 'code'>>,
) => string | null {
  const { t, i18n } = useTranslation('activity');
  return (log) => {
    const change = storedChange(log.metadata);
    if (!change) return null;
    const shown = (value: string | number | null) => {
      if (value === null || value === '') return '—';
      if (change.field === 'status') return t(`change.status.${String(value)}`, { defaultValue: String(value) });
      const amount = Number(value);
      return change.currency
        ? formatMoney(amount, change.currency, i18n.language)
        : formatNumber(amount, i18n.language);
    };
    if (change.field === 'budget_schedule') {
      const line = t('change.boostLine', {
        field: t(`activity:changeFields.${change.budgetField ?? 'daily_budget'}`),
        from: shown(change.from),
        to: shown(change.to),
        start: change.timeStart ? formatDateTime(change.timeStart, i18n.language) : '—',
        end: change.timeEnd ? formatDateTime(change.timeEnd, i18n.language) : '—',
      });
      return log.code === 'rule_action_reverted' ? `${line}. ${t('change.boostRemoved')}` : line;
    }
    return t('change.line', {
      field: t(`activity:changeFields.${change.field}`),
      from: shown(change.from),
      to: shown(change.to),
    });
  };
}
