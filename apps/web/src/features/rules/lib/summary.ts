import {
  isConditionGroup,
  type RuleAction,
  type RuleCondition,
  type RuleConditionGroup,
  type RuleSafeguards,
  type RuleSchedule,
} from '@adpilot/contracts';
import type { Words } from './explain.ts';
import { metricLabel, subjectText } from './explain.ts';
import { formatNumber, formatPercent } from '../../../lib/format.ts';
import type { RuleFormValues } from './rule-form-values.ts';
import { windowsText } from './windows-text.ts';

/**
 * The whole rule being edited, in the page's language, for the builder's summary. It reads the form's values as
 * they are while the user types: a half-written number is shown as a blank, never as "NaN", and nothing here
 * validates (the form's own messages do that).
 */
export interface SummaryGroup {
  heading: string;
  items: (string | SummaryGroup)[];
}

export interface RuleSummary {
  status: string;
  scope: string;
  conditions: SummaryGroup;
  actions: string[];
  schedule: string;
  safeguards: string[];
}

/** The names of the user's ad accounts, by id, when they are known. */
export type AccountNames = ReadonlyMap<string, string>;

function amount(value: number | undefined, words: Words): string {
  return value === undefined || !Number.isFinite(value)
    ? words.t('builderSummary.blank')
    : formatNumber(value, words.language);
}

function percent(value: number, words: Words): string {
  if (!Number.isFinite(value)) return words.t('builderSummary.blank');
  return formatPercent(value, words.language);
}

function list(items: string[], words: Words): string {
  return new Intl.ListFormat(words.language, { style: 'long', type: 'conjunction' }).format(items);
}

function scopeText(scope: RuleFormValues['scope'], names: AccountNames, words: Words): string {
  const { t } = words;
  const statuses = scope.statuses ?? [];
  // Both statuses ticked, or none, is every entity whatever its status.
  const status = statuses.length === 1 ? statuses[0]! : 'all';
  const what = t(`builderSummary.what.${status}`, { level: t(`builderSummary.level.${scope.level}`) });
  const ids = scope.adAccountIds ?? [];
  const known = ids.map((id) => names.get(id));
  const accounts =
    ids.length === 0
      ? t('builderSummary.accountsAll')
      : known.every((name) => name !== undefined)
        ? t('builderSummary.accountsNamed', { names: list(known as string[], words) })
        : t('builderSummary.accountsCount', { count: ids.length });
  const name = scope.nameContains?.trim();
  return name
    ? t('builderSummary.scopeNamed', { what, accounts, name })
    : t('builderSummary.scope', { what, accounts });
}

function compareText(condition: RuleCondition, words: Words): string {
  const { t } = words;
  const operator = t(`operators.${condition.operator}`);
  const { value } = condition;
  if (condition.compare === 'account' || condition.compare === 'campaign') {
    return t(condition.compare === 'account' ? 'builderSummary.compareAccount' : 'builderSummary.compareCampaign', {
      operator,
      factor: amount(condition.factor, words),
    });
  }
  if (condition.compare === 'previous_period' && typeof value === 'number') {
    return t('builderSummary.comparePrevious', { operator, value: percent(value, words) });
  }
  if (Array.isArray(value)) {
    return t('explain.compareRange', { low: amount(value[0], words), high: amount(value[1], words) });
  }
  if (typeof value === 'object' && value !== null) {
    return t('builderSummary.compareMetric', {
      operator,
      factor: amount(value.factor ?? 1, words),
      metric: metricLabel(value.metric, words),
    });
  }
  return t('explain.compareNumber', { operator, value: amount(value, words) });
}

export function conditionSummary(condition: RuleCondition, words: Words): string {
  return words.t('builderSummary.condition', {
    subject: subjectText(condition, words),
    compare: compareText(condition, words),
  });
}

function groupSummary(group: RuleConditionGroup, words: Words, top: boolean): SummaryGroup {
  const key = top ? (group.match === 'any' ? 'whenAny' : 'whenAll') : group.match === 'any' ? 'any' : 'all';
  const items = group.items.map((item) =>
    isConditionGroup(item) ? groupSummary(item, words, false) : conditionSummary(item, words),
  );
  return {
    heading: words.t(`builderSummary.${key}`),
    items: items.length > 0 ? items : [words.t('builderSummary.noConditions')],
  };
}

export function actionSummary(action: RuleAction, words: Words): string {
  const { t } = words;
  switch (action.type) {
    case 'increase_budget':
    case 'decrease_budget': {
      const by = action.unit === 'percent' ? percent(action.by, words) : amount(action.by, words);
      const limits = [
        ...(Number.isFinite(action.ceiling)
          ? [t('builderSummary.action.ceiling', { amount: amount(action.ceiling, words) })]
          : []),
        ...(Number.isFinite(action.floor)
          ? [t('builderSummary.action.floor', { amount: amount(action.floor, words) })]
          : []),
      ];
      const text = t(`builderSummary.action.${action.type}`, { by });
      return limits.length > 0 ? `${text} (${limits.join(', ')})` : text;
    }
    case 'set_budget':
      return t('builderSummary.action.set_budget', { amount: amount(action.amount, words) });
    case 'boost_budget': {
      const by = action.unit === 'percent' ? percent(action.by, words) : amount(action.by, words);
      return t('builderSummary.action.boost_budget', { by, from: action.from, to: action.to });
    }
    case 'notify': {
      const message = action.message?.trim();
      return message ? t('builderSummary.action.notifyMessage', { message }) : t('builderSummary.action.notify');
    }
    case 'pause': {
      const hold = action.resumeAfter;
      if (hold && 'hours' in hold && Number.isFinite(hold.hours))
        return t('builderSummary.action.resumeAfterHours', { count: hold.hours });
      if (hold && 'atLocalTime' in hold && hold.atLocalTime)
        return t('builderSummary.action.resumeAtTime', { time: hold.atLocalTime });
      return t('builderSummary.action.pause');
    }
    default:
      return t(`builderSummary.action.${action.type}`);
  }
}

function scheduleText(schedule: RuleSchedule, words: Words): string {
  if ('windows' in schedule)
    return words.t('builderSummary.windows', { windows: windowsText(schedule.windows, words.language) });
  return 'dailyAt' in schedule
    ? words.t('builderSummary.dailyAt', { time: schedule.dailyAt || words.t('builderSummary.blank') })
    : words.t('builderSummary.everyMinutes', { count: schedule.everyMinutes });
}

/** Only the safeguards that hold something back; a zero minimum or settle time is left unsaid. */
function safeguardTexts(safeguards: RuleSafeguards, words: Words): string[] {
  const { t, language } = words;
  const texts: string[] = [];
  const whole = (value: number) => ({ count: value, formatted: formatNumber(value, language) });
  if (safeguards.cooldownHours > 0) {
    texts.push(t('builderSummary.safeguard.cooldownHours', whole(safeguards.cooldownHours)));
  }
  if (Number.isFinite(safeguards.maxActionsPerDay)) {
    texts.push(t('builderSummary.safeguard.maxActionsPerDay', whole(safeguards.maxActionsPerDay)));
  }
  if (safeguards.minSpend > 0) {
    texts.push(t('builderSummary.safeguard.minSpend', { amount: amount(safeguards.minSpend, words) }));
  }
  if (safeguards.minImpressions > 0) {
    texts.push(t('builderSummary.safeguard.minImpressions', whole(safeguards.minImpressions)));
  }
  if (safeguards.settleHours > 0) {
    texts.push(t('builderSummary.safeguard.settleHours', whole(safeguards.settleHours)));
  }
  if (safeguards.respectManualChangesHours > 0) {
    texts.push(t('builderSummary.safeguard.respectManualChangesHours', whole(safeguards.respectManualChangesHours)));
  }
  return texts;
}

export function summarizeRule(values: RuleFormValues, names: AccountNames, words: Words): RuleSummary {
  return {
    status: words.t(values.isActive ? 'builderSummary.statusOn' : 'builderSummary.statusOff'),
    scope: scopeText(values.scope, names, words),
    conditions: groupSummary(values.conditions, words, true),
    actions: values.actions.map((action) => actionSummary(action, words)),
    schedule: scheduleText(values.schedule, words),
    safeguards: safeguardTexts(values.safeguards, words),
  };
}
