import { describeActivity, toMajorUnits, type CodeParams } from '@adpilot/contracts';
import type { AdAccountRow, AutomationRuleRow, CodedText, RuleActionRow, RuleRunRow } from '@adpilot/db';
import type { NewActivity } from '../../activity/index.ts';

/** A ledger row's change for people: statuses as they are, budgets in major units. */
function change(row: RuleActionRow) {
  if (row.field === 'status') return { field: 'status', from: row.beforeStatus, to: row.afterStatus };
  if (row.field === null) return null;
  const major = (minor: number | null) => (minor === null ? null : toMajorUnits(minor, row.currency));
  if (row.field === 'budget_schedule')
    return {
      field: row.field,
      budgetField: row.budgetSchedule?.budgetField ?? null,
      from: major(row.beforeMinor),
      to: major(row.afterMinor),
      fromMinor: row.beforeMinor,
      toMinor: row.afterMinor,
      currency: row.currency,
      timeStart: row.budgetSchedule?.timeStart ?? null,
      timeEnd: row.budgetSchedule?.timeEnd ?? null,
      budgetValue: row.budgetSchedule?.budgetValue ?? null,
      budgetValueType: row.budgetSchedule?.budgetValueType ?? null,
      scheduleId: row.budgetSchedule?.scheduleId ?? null,
    };
  return {
    field: row.field,
    from: major(row.beforeMinor),
    to: major(row.afterMinor),
    fromMinor: row.beforeMinor,
    toMinor: row.afterMinor,
    currency: row.currency,
  };
}

function describeChange(row: RuleActionRow): string {
  const c = change(row);
  if (!c) return 'notification';
  if (c.field === 'status') return `status ${c.from} → ${c.to}`;
  if (c.field === 'budget_schedule')
    return `budget ${String(c.from)} → ${String(c.to)} ${row.currency} from ${c.timeStart ?? '?'} to ${c.timeEnd ?? '?'}`;
  return `${c.field.replace('_', ' ')} ${String(c.from)} → ${String(c.to)} ${row.currency}`;
}

const LEVEL = {
  applied: 'success',
  failed: 'error',
  postponed: 'warning',
  reverted: 'info',
  skipped: 'warning',
} as const;

/**
 * The activity entry of one ledger outcome: a code with its parameters (what the log renders in either language)
 * and the rule, account, entity, action, before/after and explanation, plus a plain description for exports.
 */
export function actionActivity(
  rule: AutomationRuleRow,
  account: AdAccountRow,
  row: RuleActionRow,
  state: keyof typeof LEVEL,
  error?: CodedText,
): NewActivity {
  const what = `${row.actionType.replace('_', ' ')} on ${row.targetLevel} "${row.targetName}" (${describeChange(row)})`;
  const description =
    state === 'applied'
      ? `Rule "${rule.name}" applied ${what}`
      : state === 'reverted'
        ? `Reverted rule "${rule.name}": ${what}`
        : state === 'postponed'
          ? `Rule "${rule.name}" postponed ${what}: Meta asked to wait`
          : state === 'skipped'
            ? `Rule "${rule.name}" did not ${what}: ${error?.code ?? 'skipped'}`
            : `Rule "${rule.name}" could not apply ${what}: ${error?.code ?? 'error'}`;
  return {
    level: LEVEL[state],
    category: 'rule_action',
    description,
    adAccountId: account.id,
    metadata: {
      code: `rule_action_${state}`,
      params: {
        ruleName: rule.name,
        action: row.actionType,
        target: row.targetName,
        ...(state === 'failed' || state === 'skipped' ? { error: error?.code ?? 'error' } : {}),
      },
      ruleId: rule.id,
      runId: row.runId,
      actionId: row.id,
      adAccountId: account.id,
      facebookAccountId: account.facebookAccountId,
      entity: { level: row.entityLevel, externalId: row.entityExternalId, name: row.entityName },
      target: { level: row.targetLevel, externalId: row.targetExternalId, name: row.targetName },
      holderReason: row.holderReason,
      action: row.actionType,
      change: change(row),
      explanation: row.explanation,
      error: error ?? null,
    },
  };
}

export type ProposalStep =
  | 'rule_action_proposed'
  | 'rule_action_notified'
  | 'rule_proposal_approved'
  | 'rule_proposal_rejected'
  | 'rule_proposal_expired'
  | 'rule_proposal_stale';

const PROPOSAL_LEVEL: Record<ProposalStep, NewActivity['level']> = {
  rule_action_proposed: 'info',
  rule_action_notified: 'info',
  rule_proposal_approved: 'info',
  rule_proposal_rejected: 'info',
  rule_proposal_expired: 'warning',
  rule_proposal_stale: 'warning',
};

/**
 * What a stale proposal's entry says changed: a status as Meta names it, a budget in major units with its currency,
 * which the readers write in their own language.
 */
function staleParams(
  row: RuleActionRow,
  extra: { from?: string | number | null; to?: string | number | null },
): CodeParams {
  const value = (shown: string | number | null | undefined) =>
    typeof shown === 'number' && row.field !== 'status' ? shown : String(shown ?? '');
  return {
    from: value(extra.from),
    to: value(extra.to),
    ...(row.field === 'status' ? {} : { currency: row.currency }),
  };
}

/** A decision on a proposal made by hand (ADR 0160): the step's own code, naming who proposed it. */
export type HandProposalStep =
  'rule_proposal_approved' | 'rule_proposal_rejected' | 'rule_proposal_expired' | 'rule_proposal_stale';

function handProposalActivity(row: RuleActionRow, step: HandProposalStep): NewActivity {
  const code = `manual_proposal_${step.slice('rule_proposal_'.length)}` as const;
  const params = { name: row.actorName ?? '', action: row.actionType, target: row.targetName };
  return {
    level: PROPOSAL_LEVEL[step],
    category: 'rule_action',
    description: describeActivity(code, params),
    adAccountId: row.adAccountId,
    metadata: {
      code,
      params,
      actionId: row.id,
      actor: { type: row.actorType, id: row.actorId, name: row.actorName },
      adAccountId: row.adAccountId,
      entity: { level: row.entityLevel, externalId: row.entityExternalId, name: row.entityName },
      target: { level: row.targetLevel, externalId: row.targetExternalId, name: row.targetName },
      holderReason: row.holderReason,
      action: row.actionType,
      change: change(row),
      explanation: row.explanation,
      error: null,
    },
  };
}

/**
 * The entry of one step of a change a person decides (approve mode) or is only told of (notify mode). A notify-mode
 * entry's `action` is `notify`, which is what the notifier sends at once; the change it stands for is in `proposed`.
 * A proposal made by hand (`rule` null) is decided with its own codes, naming who proposed it.
 */
export function proposalActivity(
  rule: Pick<AutomationRuleRow, 'id' | 'name'> | null,
  row: RuleActionRow,
  step: ProposalStep,
  extra: { from?: string | number | null; to?: string | number | null } = {},
): NewActivity {
  if (rule === null) {
    if (step === 'rule_action_proposed' || step === 'rule_action_notified')
      return handActivity({ id: row.adAccountId, facebookAccountId: null }, row, 'proposed');
    return handProposalActivity(row, step);
  }
  const params = {
    ruleName: rule.name,
    action: row.actionType,
    target: row.targetName,
    ...(step === 'rule_proposal_stale' ? staleParams(row, extra) : {}),
  };
  return {
    level: PROPOSAL_LEVEL[step],
    category: 'rule_action',
    description: describeActivity(step, params),
    adAccountId: row.adAccountId,
    metadata: {
      code: step,
      params,
      ruleId: rule.id,
      runId: row.runId,
      actionId: row.id,
      adAccountId: row.adAccountId,
      entity: { level: row.entityLevel, externalId: row.entityExternalId, name: row.entityName },
      target: { level: row.targetLevel, externalId: row.targetExternalId, name: row.targetName },
      holderReason: row.holderReason,
      action: step === 'rule_action_notified' ? 'notify' : row.actionType,
      ...(step === 'rule_action_notified' ? { proposed: row.actionType } : {}),
      change: change(row),
      explanation: row.explanation,
      error: null,
    },
  };
}

/** The activity entry of a finished run: what it judged and what became of its actions. */
export function runActivity(
  rule: AutomationRuleRow,
  run: RuleRunRow,
  counts: { applied: number; failed: number; postponed: number },
  error?: CodedText,
): NewActivity {
  const code = error ? 'rule_run_failed' : 'rule_run_completed';
  const params: CodeParams = error
    ? { ruleName: rule.name, reason: error.code }
    : { ruleName: rule.name, evaluated: run.entitiesEvaluated, matched: run.entitiesMatched, ...counts };
  return {
    level: error || counts.failed > 0 ? 'error' : counts.postponed > 0 ? 'warning' : 'info',
    category: 'rule_run',
    description: describeActivity(code, params),
    metadata: {
      code,
      params,
      ruleId: rule.id,
      runId: run.id,
      slot: run.slot,
      trigger: run.trigger,
      error: error ?? null,
    },
  };
}

const HAND_CODES = {
  applied: 'manual_action_applied',
  failed: 'manual_action_failed',
  postponed: 'manual_action_failed',
  reverted: 'manual_action_reverted',
  skipped: 'manual_action_skipped',
} as const;

/**
 * The activity entry of a change by hand (ADR 0160): the same shape as a rule's, without a rule, signed by the unit
 * of work's member (the person who acted, or the agent's creator with the agent on the entry).
 */
export function handActivity(
  account: { id: string; facebookAccountId: string | null },
  row: RuleActionRow,
  state: keyof typeof HAND_CODES | 'proposed',
  error?: CodedText,
): NewActivity {
  const code = state === 'proposed' ? 'manual_action_proposed' : HAND_CODES[state];
  const failed = code === 'manual_action_failed' || code === 'manual_action_skipped';
  const params = {
    action: row.actionType,
    target: row.targetName,
    ...(failed ? { error: error?.code ?? 'error' } : {}),
  };
  return {
    level: state === 'proposed' ? 'info' : LEVEL[state],
    category: 'rule_action',
    description: describeActivity(code, params),
    adAccountId: account.id,
    metadata: {
      code,
      params,
      actionId: row.id,
      actor: { type: row.actorType, id: row.actorId, name: row.actorName },
      adAccountId: account.id,
      facebookAccountId: account.facebookAccountId,
      entity: { level: row.entityLevel, externalId: row.entityExternalId, name: row.entityName },
      target: { level: row.targetLevel, externalId: row.targetExternalId, name: row.targetName },
      holderReason: row.holderReason,
      action: row.actionType,
      change: change(row),
      explanation: row.explanation,
      error: error ?? null,
    },
  };
}
