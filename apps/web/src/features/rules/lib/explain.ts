import {
  STATE_METRICS,
  type ActionSkip,
  type CodeParams,
  type ConditionTrace,
  type NotJudged,
  type PlannedChange,
  type RuleWarning,
} from '@adpilot/contracts';
import type { TFunction } from 'i18next';
import { formatChange, formatDateTime, formatMoney, formatNumber } from '../../../lib/format.ts';

/**
 * Explanations, skip reasons and warnings arrive as codes with parameters; these turn them into words of the page's
 * language from the `rules` catalogue. Every result is plain text: names from Meta or the user are interpolated as
 * text and React renders them as text, never as markup.
 */
export interface Words {
  t: TFunction<'rules'>;
  language: string;
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T/;

/** A parameter as the sentence shows it: numbers and times in the page's locale, anything else as it came. */
function param(value: CodeParams[string] | undefined, words: Words): string {
  if (typeof value === 'number') return formatNumber(value, words.language);
  if (typeof value === 'string' && ISO_TIME.test(value)) return formatDateTime(value, words.language);
  return value === null || value === undefined ? '' : String(value);
}

function params(source: CodeParams, words: Words): Record<string, string> {
  return Object.fromEntries(Object.entries(source).map(([key, value]) => [key, param(value, words)]));
}

export function figure(value: number | null, words: Words): string {
  return value === null ? words.t('explain.noValue') : formatNumber(value, words.language);
}

export function metricLabel(metric: ConditionTrace['metric'], words: Words): string {
  return words.t(`metrics.${metric}`);
}

/** "CPA (the last 7 days)": a metric with its window, or a state metric alone (a budget has no window). */
export function subjectText(trace: Pick<ConditionTrace, 'metric' | 'window' | 'includeToday'>, words: Words): string {
  const metric = metricLabel(trace.metric, words);
  if (STATE_METRICS.has(trace.metric)) return metric;
  const window = words.t(`windows.${trace.window}`);
  const today = trace.includeToday && trace.window.startsWith('last_');
  return words.t(today ? 'explain.subjectToday' : 'explain.subject', { metric, window });
}

function compare(trace: ConditionTrace, words: Words): string {
  const operator = words.t(`operators.${trace.operator}`);
  if (trace.against) {
    return words.t('explain.compareMetric', {
      operator,
      factor: formatNumber(trace.against.factor, words.language),
      metric: metricLabel(trace.against.metric, words),
      value: figure(typeof trace.compareTo === 'number' ? trace.compareTo : null, words),
    });
  }
  if (Array.isArray(trace.compareTo)) {
    return words.t('explain.compareRange', {
      low: figure(trace.compareTo[0], words),
      high: figure(trace.compareTo[1], words),
    });
  }
  return words.t('explain.compareNumber', { operator, value: figure(trace.compareTo, words) });
}

const change = (value: number | null, words: Words) =>
  value === null ? words.t('explain.noValue') : formatChange(value, words.language);

/**
 * A relative condition (ADR 0121): "CPA (the last 7 days) is 612 vs 402 the 7 days before: +52%, greater than
 * +50%: held"; "CPA (yesterday) is 612, greater than 1.5 × the account's 402 (603): held".
 */
function relativeText(trace: ConditionTrace, relative: NonNullable<ConditionTrace['relative']>, words: Words): string {
  const base = {
    subject: subjectText(trace, words),
    operator: words.t(`operators.${trace.operator}`),
    result: words.t(`explain.results.${trace.result}`),
  };
  if (relative.compare === 'previous_period') {
    const threshold = Array.isArray(trace.compareTo)
      ? words.t('explain.previousRange', {
          low: change(trace.compareTo[0], words),
          high: change(trace.compareTo[1], words),
        })
      : change(trace.compareTo, words);
    return words.t('explain.previousPeriod', {
      ...base,
      current: figure(relative.current, words),
      reference: figure(relative.reference, words),
      before: words.t(`explain.before.${trace.window}`),
      change: change(trace.value, words),
      threshold,
    });
  }
  return words.t(relative.compare === 'account' ? 'explain.compareAccount' : 'explain.compareCampaign', {
    ...base,
    value: figure(trace.value, words),
    factor: formatNumber(relative.factor ?? 1, words.language),
    reference: figure(relative.reference, words),
    target: figure(typeof trace.compareTo === 'number' ? trace.compareTo : null, words),
  });
}

/** "CPA (the last 7 days) is 620.5, greater than 500: held". */
export function conditionText(trace: ConditionTrace, words: Words): string {
  if (trace.relative) return relativeText(trace, trace.relative, words);
  return words.t('explain.condition', {
    subject: subjectText(trace, words),
    value: figure(trace.value, words),
    compare: compare(trace, words),
    result: words.t(`explain.results.${trace.result}`),
  });
}

export function notJudgedText(notJudged: NotJudged, words: Words): string {
  return words.t(`explain.notJudged.${notJudged.code}`, params(notJudged.params, words));
}

export function skipText(skip: ActionSkip, words: Words): string {
  if (skip.code === 'boost_no_own_budget')
    return words.t('explain.skip.boost_no_own_budget', {
      holderLevel: words.t(`levels.${String(skip.params.holderLevel)}`).toLowerCase(),
    });
  return words.t(`explain.skip.${skip.code}`, params(skip.params, words));
}

/** "Daily budget ฿1,000.00 → ฿1,200.00" in the account's currency when it is known, else the bare figures. */
export function changeText(change: PlannedChange, words: Words, currency?: string): string {
  if (change.field === 'status') {
    return words.t('explain.change.status', { from: change.from, to: change.to });
  }
  const amount = (value: number) =>
    currency ? formatMoney(value, currency, words.language) : formatNumber(value, words.language);
  if (change.field === 'budget_schedule')
    return words.t('explain.change.budget_schedule', {
      from: amount(change.from),
      to: amount(change.to),
      start: formatDateTime(change.timeStart, words.language),
      end: formatDateTime(change.timeEnd, words.language),
    });
  return words.t(`explain.change.${change.field}`, { from: amount(change.from), to: amount(change.to) });
}

export function warningText(warning: RuleWarning, words: Words): string {
  if (warning.code === 'conflicting_rule') {
    return words.t('warnings.conflicting_rule', {
      name: param(warning.params.ruleName, words),
      conflict: words.t(`warnings.conflict.${String(warning.params.conflict)}`, { defaultValue: '' }),
    });
  }
  return words.t(`warnings.${warning.code}`);
}
