import type { ConditionTrace, Explanation, GroupTrace } from '@adpilot/contracts';
import type { TFunction } from 'i18next';

/** The leaf conditions that held: why the rule proposed the change. */
function heldConditions(group: GroupTrace | null): ConditionTrace[] {
  if (!group) return [];
  return group.items.flatMap((item) =>
    item.kind === 'group' ? heldConditions(item) : item.result === 'held' ? [item] : [],
  );
}

/**
 * One line of why (the Inbox, an activity entry), in the rule builder's own words (its namespace): "CPA (the last 7 days) is 612.5, greater than
 * 500". `number` is the page's number formatter.
 */
export function explanationLine(explanation: Explanation, t: TFunction, number: (value: number) => string): string {
  return heldConditions(explanation.conditions)
    .map((trace) => {
      const subject = t(trace.includeToday ? 'rules:explain.subjectToday' : 'rules:explain.subject', {
        metric: t(`rules:metrics.${trace.metric}`),
        window: t(`rules:windows.${trace.window}`),
      });
      const value = trace.value === null ? t('rules:explain.noValue') : number(trace.value);
      const compareTo = Array.isArray(trace.compareTo)
        ? t('rules:explain.compareRange', { low: number(trace.compareTo[0]), high: number(trace.compareTo[1]) })
        : t('rules:explain.compareNumber', {
            operator: t(`rules:operators.${trace.operator}`),
            value: trace.compareTo === null ? t('rules:explain.noValue') : number(trace.compareTo),
          });
      return t('inbox:because', { subject, value, compare: compareTo });
    })
    .join(' · ');
}
