import {
  createRuleRequestSchema,
  RULE_APPROVAL_HOURS_DEFAULT,
  RULE_SAFEGUARD_DEFAULTS,
  type CreateRuleRequest,
  type Rule,
  type RuleAction,
  type RuleActionType,
  type RuleBody,
  type RuleCondition,
  type RuleConditionGroup,
} from '@adpilot/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import type { Resolver } from 'react-hook-form';

/**
 * The builder's form holds a whole rule body, field for field as the API takes it, so the contracts' own schema
 * validates it and its issue paths are the form's field names (server field errors land on the same names).
 */
export type RuleFormValues = RuleBody;

export const newCondition = (): RuleCondition => ({
  metric: 'cpa',
  operator: 'gt',
  value: 500,
  window: 'last_7d',
  includeToday: false,
});

export const newGroup = (): RuleConditionGroup => ({ match: 'all', items: [newCondition()] });

/** A blank rule: one condition, one pause action, hourly, default safeguards, asking before each change. */
export function blankRule(): RuleFormValues {
  return {
    name: '',
    description: '',
    isActive: false,
    scope: { adAccountIds: [], level: 'ad', statuses: ['ACTIVE'] },
    conditions: newGroup(),
    actions: [{ type: 'pause' }],
    schedule: { everyMinutes: 60 },
    safeguards: { ...RULE_SAFEGUARD_DEFAULTS },
    mode: 'approve',
    approvalHours: RULE_APPROVAL_HOURS_DEFAULT,
  };
}

/** A stored rule as the form edits it: the body without the answer's own fields. */
export function ruleToForm(rule: Rule): RuleFormValues {
  const { name, description, isActive, scope, conditions, actions, schedule, safeguards, mode, approvalHours } = rule;
  return structuredClone({
    name,
    description,
    isActive,
    scope,
    conditions,
    actions,
    schedule,
    safeguards,
    mode,
    approvalHours,
  });
}

/** Fresh fields for an action when its type changes, keeping nothing of the old shape. */
export function actionOfType(type: RuleActionType): RuleAction {
  switch (type) {
    case 'increase_budget':
    case 'decrease_budget':
      return { type, by: 20, unit: 'percent' };
    case 'set_budget':
      return { type, amount: 1000 };
    case 'boost_budget':
      return { type, by: 30, unit: 'percent', from: '18:00', to: '22:00' };
    case 'notify':
      return { type };
    default:
      return { type };
  }
}

const isBlankNumber = (value: unknown) => typeof value === 'number' && Number.isNaN(value);

/**
 * What an input leaves empty means "not set": an empty optional number (NaN from valueAsNumber), an empty name
 * filter, no status ticked, an empty notify message. Those keys are dropped before the schema sees the body.
 */
export function normalizeRule(values: RuleFormValues): CreateRuleRequest {
  const scope = { ...values.scope };
  if (!scope.nameContains?.trim()) delete scope.nameContains;
  if (!scope.statuses?.length) delete scope.statuses;
  const actions = values.actions.map((action) => {
    const copy: Record<string, unknown> = { ...action };
    for (const key of ['ceiling', 'floor'] as const) {
      if (key in copy && (isBlankNumber(copy[key]) || copy[key] === undefined)) delete copy[key];
    }
    if (copy.type === 'notify' && !String(copy.message ?? '').trim()) delete copy.message;
    return copy as RuleAction;
  });
  return { ...values, scope, actions };
}

/*
 * The schema's input type is the API body (optional keys may be absent), the form's is the full body; the resolver
 * only ever sees the normalised form values, which are such a body, so the one cast below is safe.
 */
const schemaResolver = zodResolver(createRuleRequestSchema) as unknown as Resolver<RuleFormValues, unknown, RuleBody>;

/** The contracts' schema on the normalised body: the same checks, with the same messages, as the server's. */
export const ruleResolver: Resolver<RuleFormValues, unknown, RuleBody> = (values, context, options) =>
  schemaResolver(normalizeRule(values) as RuleFormValues, context, options);
