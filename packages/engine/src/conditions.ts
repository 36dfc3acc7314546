import {
  STATE_METRICS,
  isConditionGroup,
  type ConditionTrace,
  type GroupTrace,
  type RuleCondition,
  type RuleConditionGroup,
  type RuleOperator,
} from '@adpilot/contracts';
import { METRIC_CODES, readAccountMetric, readMetric } from './metrics.ts';
import type { EngineSnapshot } from './snapshot.ts';
import { SETTLING_SLOT, previousSlot, slotSpan, windowSlot } from './windows.ts';

/**
 * Conditions compiled once per rule into closures over plain numbers: judging an entity reads the precomputed sums
 * and allocates nothing. The explanation (traces) is built separately, only for entities that need one.
 */

/** Judges one entity; `settling` says whether its account's today is younger than the rule's settle hours. */
export type Judge = (snapshot: EngineSnapshot, entity: number, settling: boolean) => boolean;

/** Equality on computed figures (a CTR of 0.5 may be 0.49999999999999994): relative tolerance. */
function same(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

export function compare(operator: RuleOperator, value: number, low: number, high: number): boolean {
  switch (operator) {
    case 'gt':
      return value > low && !same(value, low);
    case 'gte':
      return value >= low || same(value, low);
    case 'lt':
      return value < low && !same(value, low);
    case 'lte':
      return value <= low || same(value, low);
    case 'eq':
      return same(value, low);
    case 'neq':
      return !same(value, low);
    case 'between':
      return (value >= low || same(value, low)) && (value <= high || same(value, high));
  }
}

/** A condition reduced to numbers, with its position in the tree (e.g. "1.0"). */
export interface CompiledCondition {
  kind: 'condition';
  path: string;
  condition: RuleCondition;
  code: number;
  slot: number;
  settlingSlot: number;
  refCode: number;
  factor: number;
  low: number;
  high: number;
  /** 0: a plain condition; 1: the change in % since the previous period; 2: × the account; 3: × the campaign. */
  relative: 0 | 1 | 2 | 3;
}

const RELATIVE_CODES = { previous_period: 1, account: 2, campaign: 3 } as const;

/** The change in % from `previous` to `current`; undefined (null) when either is, or when the previous is 0. */
export function percentChange(current: number | null, previous: number | null): number | null {
  if (current === null || previous === null || previous === 0) return null;
  return ((current - previous) / Math.abs(previous)) * 100;
}

/** What a relative condition measures an entity against over a slot: the previous period, the account, the campaign. */
function referenceOf(c: CompiledCondition, snapshot: EngineSnapshot, entity: number, at: number): number | null {
  if (c.relative === 1) return readMetric(snapshot, entity, previousSlot(at), c.code);
  if (c.relative === 2) return at < 0 ? null : readAccountMetric(snapshot, snapshot.clockOf[entity]!, at, c.code);
  const campaign = snapshot.campaignOf[entity]!;
  return campaign < 0 || at < 0 ? null : readMetric(snapshot, campaign, at, c.code);
}

export interface CompiledGroup {
  kind: 'group';
  path: string;
  match: RuleConditionGroup['match'];
  items: (CompiledCondition | CompiledGroup)[];
}

export function compileCondition(condition: RuleCondition, path = ''): CompiledCondition {
  const value = condition.value;
  const isRef = typeof value === 'object' && !Array.isArray(value);
  return {
    kind: 'condition',
    path,
    condition,
    code: METRIC_CODES[condition.metric],
    slot: windowSlot(condition.window, condition.includeToday, false),
    settlingSlot: windowSlot(condition.window, condition.includeToday, true),
    refCode: isRef ? METRIC_CODES[value.metric] : -1,
    factor: isRef ? value.factor : (condition.factor ?? 1),
    low: Array.isArray(value) ? value[0] : typeof value === 'number' ? value : 0,
    high: Array.isArray(value) ? value[1] : 0,
    relative: condition.compare ? RELATIVE_CODES[condition.compare] : 0,
  };
}

function judgeRelative(c: CompiledCondition): Judge {
  const { code, slot, settlingSlot, factor, low, high } = c;
  const operator = c.condition.operator;
  return (snapshot, entity, settling) => {
    const at = settling ? settlingSlot : slot;
    const value = readMetric(snapshot, entity, at, code);
    if (value === null) return false;
    const reference = referenceOf(c, snapshot, entity, at);
    if (reference === null) return false;
    if (c.relative === 1) {
      const change = percentChange(value, reference);
      return change !== null && compare(operator, change, low, high);
    }
    return compare(operator, value, reference * factor, 0);
  };
}

function judgeCondition(c: CompiledCondition): Judge {
  if (c.relative !== 0) return judgeRelative(c);
  const { code, slot, settlingSlot, refCode, factor, low, high } = c;
  const operator = c.condition.operator;
  return (snapshot, entity, settling) => {
    const at = settling ? settlingSlot : slot;
    const value = readMetric(snapshot, entity, at, code);
    if (value === null) return false;
    if (refCode < 0) return compare(operator, value, low, high);
    const other = readMetric(snapshot, entity, at, refCode);
    return other !== null && compare(operator, value, other * factor, 0);
  };
}

/** The tree with every condition compiled, built once per rule. */
export function compileTree(group: RuleConditionGroup, path = ''): CompiledGroup {
  const items = group.items.map((item, index) => {
    const itemPath = path ? `${path}.${index}` : String(index);
    return isConditionGroup(item) ? compileTree(item, itemPath) : compileCondition(item, itemPath);
  });
  return { kind: 'group', path, match: group.match, items };
}

export function judgeOf(group: CompiledGroup): Judge {
  const judges = group.items.map((item) => (item.kind === 'group' ? judgeOf(item) : judgeCondition(item)));
  const count = judges.length;
  if (group.match === 'all') {
    return (snapshot, entity, settling) => {
      for (let i = 0; i < count; i++) if (!judges[i]!(snapshot, entity, settling)) return false;
      return true;
    };
  }
  return (snapshot, entity, settling) => {
    for (let i = 0; i < count; i++) if (judges[i]!(snapshot, entity, settling)) return true;
    return false;
  };
}

/** The conditions with their values and results, for the explanation. */
export function traceGroup(
  group: CompiledGroup,
  snapshot: EngineSnapshot,
  entity: number,
  settling: boolean,
): GroupTrace {
  const items = group.items.map((item) =>
    item.kind === 'group'
      ? traceGroup(item, snapshot, entity, settling)
      : traceCondition(item, snapshot, entity, settling),
  );
  const held = group.match === 'all' ? items.every(isHeld) : items.some(isHeld);
  return { kind: 'group', path: group.path, match: group.match, held, items };
}

function isHeld(trace: ConditionTrace | GroupTrace): boolean {
  return trace.kind === 'group' ? trace.held : trace.result === 'held';
}

function traceCondition(
  c: CompiledCondition,
  snapshot: EngineSnapshot,
  entity: number,
  settling: boolean,
): ConditionTrace {
  const { condition } = c;
  const at = settling ? c.settlingSlot : c.slot;
  if (c.relative !== 0) return traceRelative(c, snapshot, entity, at);
  const value = readMetric(snapshot, entity, at, c.code);
  const refValue = c.refCode < 0 ? null : readMetric(snapshot, entity, at, c.refCode);
  const compareTo: ConditionTrace['compareTo'] =
    c.refCode >= 0
      ? refValue === null
        ? null
        : refValue * c.factor
      : Array.isArray(condition.value)
        ? [c.low, c.high]
        : c.low;
  const unjudgeable = at === SETTLING_SLOT && !STATE_METRICS.has(condition.metric);
  let result: ConditionTrace['result'];
  if (unjudgeable) result = 'settling';
  else if (value === null || compareTo === null) result = 'undefined';
  else {
    const threshold = c.refCode >= 0 ? (compareTo as number) : c.low;
    result = compare(condition.operator, value, threshold, c.high) ? 'held' : 'failed';
  }
  return {
    kind: 'condition',
    path: c.path,
    metric: condition.metric,
    window: condition.window,
    includeToday: condition.includeToday,
    operator: condition.operator,
    value,
    compareTo,
    against:
      c.refCode >= 0 && typeof condition.value === 'object' && !Array.isArray(condition.value)
        ? { metric: condition.value.metric, factor: c.factor, value: refValue }
        : null,
    result,
  };
}

function traceRelative(c: CompiledCondition, snapshot: EngineSnapshot, entity: number, at: number): ConditionTrace {
  const { condition } = c;
  const current = readMetric(snapshot, entity, at, c.code);
  const reference = referenceOf(c, snapshot, entity, at);
  const previous = c.relative === 1;
  const value = previous ? percentChange(current, reference) : current;
  const compareTo: ConditionTrace['compareTo'] = previous
    ? Array.isArray(condition.value)
      ? [c.low, c.high]
      : c.low
    : reference === null
      ? null
      : reference * c.factor;
  let result: ConditionTrace['result'];
  if (at === SETTLING_SLOT) result = 'settling';
  else if (value === null || compareTo === null) result = 'undefined';
  else
    result = compare(condition.operator, value, previous ? c.low : (compareTo as number), c.high) ? 'held' : 'failed';
  return {
    kind: 'condition',
    path: c.path,
    metric: condition.metric,
    window: condition.window,
    includeToday: condition.includeToday,
    operator: condition.operator,
    value,
    compareTo,
    against: null,
    relative: { compare: condition.compare!, current, reference, factor: previous ? null : c.factor },
    result,
  };
}

/** Every leaf condition of a tree, in order. */
export function leafConditions(group: RuleConditionGroup): RuleCondition[] {
  return group.items.flatMap((item) => (isConditionGroup(item) ? leafConditions(item) : [item]));
}

/**
 * The window the minimum-data safeguards are measured on: the widest delivery window the rule reads (lifetime when
 * it reads only the entity's state).
 */
export function judgingSlot(group: RuleConditionGroup, settling: boolean): number {
  let best = -1;
  let span = -1;
  for (const condition of leafConditions(group)) {
    if (STATE_METRICS.has(condition.metric)) continue;
    const slot = windowSlot(condition.window, condition.includeToday, settling);
    if (slotSpan(slot) > span) {
      best = slot;
      span = slotSpan(slot);
    }
  }
  return best >= 0 ? best : windowSlot('lifetime', true, settling);
}
