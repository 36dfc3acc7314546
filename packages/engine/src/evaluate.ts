import type { EntityDecision, Explanation, NotJudged, RuleBody, RuleMetric, RuleWindow } from '@adpilot/contracts';
import { entityRef, planActions, type RunState } from './actions.ts';
import {
  compileTree,
  judgeOf,
  judgingSlot,
  leafConditions,
  traceGroup,
  type CompiledGroup,
  type Judge,
} from './conditions.ts';
import { METRIC_CODES, readMetric } from './metrics.ts';
import { SafeguardLedger } from './safeguards.ts';
import { STATUS_CODES, type EngineSnapshot } from './snapshot.ts';
import type { LedgerEntry, OpposingEntry } from './types.ts';
import { BLOCK_SIZE, FIELD, FIELD_COUNT, windowSlot } from './windows.ts';

/** A stored rule: its id and its body with every default filled in. */
export type EngineRule = RuleBody & { id: string };

/** A rule prepared for evaluation: compile once, evaluate against many snapshots. */
export interface CompiledRule {
  rule: EngineRule;
  tree: CompiledGroup;
  judge: Judge;
  /** Every metric × window the conditions read (compared metrics included), once each. */
  reads: readonly MetricRead[];
  /** The slots the minimum-data safeguards read, without and with today's figures settling. */
  judgingSlots: readonly [number, number];
  accountIds: ReadonlySet<string> | null;
  statuses: ReadonlySet<string>;
  nameFilter: string | null;
}

/** Without a status filter a rule looks at what it may change: active and paused entities. */
const DEFAULT_STATUSES = ['ACTIVE', 'PAUSED'];

interface MetricRead {
  metric: RuleMetric;
  window: RuleWindow;
  includeToday: boolean;
  code: number;
  slots: readonly [number, number];
}

function metricReads(rule: EngineRule): MetricRead[] {
  const reads = new Map<string, MetricRead>();
  for (const condition of leafConditions(rule.conditions)) {
    const metrics = [condition.metric];
    if (typeof condition.value === 'object' && !Array.isArray(condition.value)) metrics.push(condition.value.metric);
    for (const metric of metrics) {
      const { window, includeToday } = condition;
      const key = `${metric}\u0000${window}\u0000${includeToday}`;
      if (reads.has(key)) continue;
      const slots = [windowSlot(window, includeToday, false), windowSlot(window, includeToday, true)] as const;
      reads.set(key, { metric, window, includeToday, code: METRIC_CODES[metric], slots });
    }
  }
  return [...reads.values()];
}

export function compileRule(rule: EngineRule): CompiledRule {
  const tree = compileTree(rule.conditions);
  return {
    rule,
    tree,
    judge: judgeOf(tree),
    reads: metricReads(rule),
    judgingSlots: [judgingSlot(rule.conditions, false), judgingSlot(rule.conditions, true)],
    accountIds: rule.scope.adAccountIds.length ? new Set(rule.scope.adAccountIds) : null,
    statuses: new Set(rule.scope.statuses?.length ? rule.scope.statuses : DEFAULT_STATUSES),
    nameFilter: rule.scope.nameContains?.toLowerCase() ?? null,
  };
}

export interface EvaluateOptions {
  /** `all` explains every entity in scope (preview); `matched` only those that matched (a run: the log's entries). */
  explain: 'all' | 'matched';
  /** Other rules' recent actions whose opposite waits out their cooldown (see OpposingEntry). */
  opposing?: readonly OpposingEntry[];
}

export interface RuleEvaluation {
  evaluated: number;
  matched: number;
  /** One per explained entity, in the snapshot's order; each carries its planned or skipped actions. */
  decisions: EntityDecision[];
}

/** The rule's scope against one snapshot, as flags indexed by clock and by status code. */
interface ScopeMasks {
  accounts: Uint8Array;
  statuses: Uint8Array;
}

function scopeMasks(compiled: CompiledRule, snapshot: EngineSnapshot): ScopeMasks {
  const accounts = Uint8Array.from(snapshot.clocks, (clock) =>
    compiled.accountIds === null || compiled.accountIds.has(clock.account.id) ? 1 : 0,
  );
  const statuses = new Uint8Array(STATUS_CODES.length + 1);
  STATUS_CODES.forEach((status, code) => (statuses[code] = compiled.statuses.has(status) ? 1 : 0));
  return { accounts, statuses };
}

/** Too little data yet to judge the entity (minimum spend, then minimum impressions), or null. */
function notJudged(compiled: CompiledRule, snapshot: EngineSnapshot, i: number, settling: boolean): NotJudged | null {
  const { minSpend, minImpressions } = compiled.rule.safeguards;
  if (minSpend <= 0 && minImpressions <= 0) return null;
  const at = i * BLOCK_SIZE + compiled.judgingSlots[settling ? 1 : 0] * FIELD_COUNT;
  const spend = snapshot.sums[at + FIELD.spend]!;
  if (spend < minSpend) return { code: 'min_spend_not_reached', params: { spend, minimum: minSpend } };
  const impressions = snapshot.sums[at + FIELD.impressions]!;
  if (impressions < minImpressions) {
    return { code: 'min_impressions_not_reached', params: { impressions, minimum: minImpressions } };
  }
  return null;
}

/** Judges every entity of the snapshot in the rule's scope and plans the actions of those that match. */
export function evaluateRule(
  compiled: CompiledRule,
  snapshot: EngineSnapshot,
  ledger: readonly LedgerEntry[],
  options: EvaluateOptions = { explain: 'matched' },
): RuleEvaluation {
  const { rule } = compiled;
  const run: RunState = {
    ruleId: rule.id,
    ledger: new SafeguardLedger(
      rule.id,
      rule.safeguards.cooldownHours,
      rule.safeguards.maxActionsPerDay,
      snapshot,
      ledger,
      options.opposing,
    ),
    movedBudgets: new Map(),
    respectManualChangesHours: rule.safeguards.respectManualChangesHours,
  };
  const decisions: EntityDecision[] = [];
  let evaluated = 0;
  let matched = 0;
  const masks = scopeMasks(compiled, snapshot);
  const candidates = snapshot.byLevel[rule.scope.level];
  const { clockOf, clocks, statusCode, lowerNames } = snapshot;
  const { nameFilter } = compiled;
  const settleHours = rule.safeguards.settleHours;
  for (let c = 0; c < candidates.length; c++) {
    const i = candidates[c]!;
    const clock = clockOf[i]!;
    if (!masks.accounts[clock] || !masks.statuses[statusCode[i]!]) continue;
    if (nameFilter !== null && !lowerNames[i]!.includes(nameFilter)) continue;
    evaluated += 1;
    const settling = clocks[clock]!.hour < settleHours;
    const tooLittle = notJudged(compiled, snapshot, i, settling);
    const isMatch = tooLittle === null && compiled.judge(snapshot, i, settling);
    if (isMatch) matched += 1;
    if (!isMatch && options.explain === 'matched') continue;
    decisions.push(decide(compiled, snapshot, i, settling, tooLittle, isMatch, run));
  }
  return { evaluated, matched, decisions };
}

function decide(
  compiled: CompiledRule,
  snapshot: EngineSnapshot,
  i: number,
  settling: boolean,
  tooLittle: NotJudged | null,
  isMatch: boolean,
  run: RunState,
): EntityDecision {
  const entity = snapshot.entities[i]!;
  const explanation: Explanation = {
    decision: tooLittle ? 'not_judged' : isMatch ? 'matched' : 'not_matched',
    notJudged: tooLittle,
    settling,
    conditions: tooLittle ? null : traceGroup(compiled.tree, snapshot, i, settling),
  };
  return {
    entity: { ...entityRef(entity), status: entity.status, effectiveStatus: entity.effectiveStatus },
    matched: isMatch,
    values: metricValues(compiled, snapshot, i, settling),
    explanation,
    actions: isMatch ? planActions(compiled.rule.actions, snapshot, i, run) : [],
  };
}

function metricValues(compiled: CompiledRule, snapshot: EngineSnapshot, i: number, settling: boolean) {
  return compiled.reads.map((read) => ({
    metric: read.metric,
    window: read.window,
    includeToday: read.includeToday,
    value: readMetric(snapshot, i, read.slots[settling ? 1 : 0], read.code),
  }));
}
