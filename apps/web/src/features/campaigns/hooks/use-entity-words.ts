import type { TFunction } from 'i18next';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatPercent, formatsFor } from '../../../lib/format.ts';
import type { EntityRow } from '../api/types.ts';
import { changePercent, METRIC_KIND, type MetricKey } from '../lib/columns.ts';

const KNOWN_STATUSES = new Set([
  'ACTIVE',
  'PAUSED',
  'CAMPAIGN_PAUSED',
  'ADSET_PAUSED',
  'ARCHIVED',
  'DELETED',
  'IN_PROCESS',
  'WITH_ISSUES',
  'DISAPPROVED',
  'PENDING_REVIEW',
  'PREAPPROVED',
  'PENDING_BILLING_INFO',
]);

/**
 * What a person may do to an entity by hand: pause what is switched on, resume what was itself paused (one stopped
 * by its campaign or ad set is resumed there), change a budget that someone holds. Archived, deleted and read-only
 * entities take none (`editable`).
 */
export function allowedActions(entity: Pick<EntityRow, 'editable' | 'status' | 'budget'>) {
  return {
    canPause: entity.editable && entity.status === 'ACTIVE',
    canResume: entity.editable && entity.status === 'PAUSED',
    canBudget: entity.editable && entity.budget.holderId !== null,
  };
}

/**
 * The explorer's words: statuses, levels, figures in the account's currency, changes, budgets. One object per
 * language, kept across renders: a table hands it to its rows, so a row drawn while scrolling does not subscribe to
 * the translations itself (each `useTranslation` costs a copy of the i18n instance's descriptors when mounted).
 */
export function useEntityWords(): EntityWords {
  const { t, i18n } = useTranslation('campaigns');
  const language = i18n.language;
  return useMemo(() => entityWords(t, language), [t, language]);
}

export type EntityWords = ReturnType<typeof entityWords>;

function entityWords(t: TFunction<'campaigns'>, language: string) {
  const format = formatsFor(language);

  const status = (code: string) =>
    KNOWN_STATUSES.has(code) ? t(`statuses.${code}`) : t('statuses.other', { status: code });

  const metric = (key: MetricKey, value: number | null | undefined, currency: string): string => {
    if (value === null || value === undefined) return '—';
    switch (METRIC_KIND[key]) {
      case 'money':
        return format.money(value, currency);
      case 'percent':
        return formatPercent(value, language);
      case 'ratio':
        return key === 'roas' ? `${format.number(value)}×` : format.number(value);
      default:
        return format.number(value, 0);
    }
  };

  /** The change against the previous period, as a short figure ("+12%") and a sentence for screen readers. */
  const change = (current: number | null | undefined, previous: number | null | undefined, days: number) => {
    const percent = changePercent(current ?? null, previous);
    if (percent === null) return { percent: null, short: '', sentence: t('change.none', { count: days }) };
    const rounded = Math.abs(percent) < 0.05 ? 0 : percent;
    const figure = formatPercent(Math.abs(rounded), language);
    if (rounded === 0) return { percent: 0, short: '±0%', sentence: t('change.same', { count: days }) };
    return {
      percent: rounded,
      short: `${rounded > 0 ? '+' : '−'}${figure}`,
      sentence: t(rounded > 0 ? 'change.up' : 'change.down', { change: figure, count: days }),
    };
  };

  const budget = (entity: Pick<EntityRow, 'budget' | 'currency' | 'level'>) => {
    const { daily, lifetime, holderLevel } = entity.budget;
    const amount =
      daily !== null
        ? t('budget.daily', { amount: format.money(daily, entity.currency) })
        : lifetime !== null
          ? t('budget.lifetime', { amount: format.money(lifetime, entity.currency) })
          : null;
    const heldElsewhere = holderLevel !== null && holderLevel !== entity.level;
    const holder = heldElsewhere ? t(`budget.heldBy.${holderLevel}`) : null;
    return { amount: amount ?? (holder ? null : t('budget.none')), holder, own: !heldElsewhere && amount !== null };
  };

  const refusal = (code: string | undefined) => {
    if (!code) return t('refusals.generic');
    return t(`refusals.${code}`, {
      defaultValue: t(`errors:codes.${code}`, { defaultValue: t('refusals.generic') }),
    });
  };

  return { t, format, status, metric, change, budget, refusal };
}
