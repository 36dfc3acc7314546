import { isBudgetAction, type ConflictKind, type RuleBody, type RuleWarning } from '@adpilot/contracts';

/**
 * Warnings shown with a rule: a budget increase without a ceiling, and other rules of the same user that may act on
 * the same entities in opposite ways. Judged from the rules alone (scopes that can overlap), so the list is the
 * same whatever the mirror holds today.
 */

export interface OtherRule {
  id: string;
  name: string;
  rule: Pick<RuleBody, 'scope' | 'actions' | 'isActive'>;
}

function accountsOverlap(a: RuleBody['scope'], b: RuleBody['scope']): boolean {
  if (!a.adAccountIds.length || !b.adAccountIds.length) return true;
  return a.adAccountIds.some((id) => b.adAccountIds.includes(id));
}

/** Two name filters can select the same entity unless neither text contains the other. */
function namesOverlap(a: RuleBody['scope'], b: RuleBody['scope']): boolean {
  const x = a.nameContains?.toLowerCase();
  const y = b.nameContains?.toLowerCase();
  return !x || !y || x.includes(y) || y.includes(x);
}

type Direction = 'up' | 'down' | 'set';

function budgetDirection(actions: RuleBody['actions']): Direction | null {
  for (const action of actions) {
    if (!isBudgetAction(action)) continue;
    return action.type === 'increase_budget' ? 'up' : action.type === 'decrease_budget' ? 'down' : 'set';
  }
  return null;
}

function conflictBetween(rule: Pick<RuleBody, 'scope' | 'actions'>, other: OtherRule['rule']): ConflictKind | null {
  if (!accountsOverlap(rule.scope, other.scope) || !namesOverlap(rule.scope, other.scope)) return null;
  const types = new Set(rule.actions.map((action) => action.type));
  const otherTypes = new Set(other.actions.map((action) => action.type));
  const sameLevel = rule.scope.level === other.scope.level;
  if (
    sameLevel &&
    ((types.has('pause') && otherTypes.has('resume')) || (types.has('resume') && otherTypes.has('pause')))
  ) {
    return 'pause_resume';
  }
  // Budgets of ad sets under campaign budget optimisation live on their campaign: any two levels can meet.
  const mine = budgetDirection(rule.actions);
  const theirs = budgetDirection(other.actions);
  if (!mine || !theirs) return null;
  if ((mine === 'up' && theirs === 'down') || (mine === 'down' && theirs === 'up')) return 'budget_direction';
  return 'budget_both';
}

/** The warnings of a rule against the user's other active rules (the rule itself excluded by id). */
export function ruleWarnings(
  rule: Pick<RuleBody, 'scope' | 'actions'>,
  others: readonly OtherRule[],
  selfId?: string,
): RuleWarning[] {
  const warnings: RuleWarning[] = [];
  rule.actions.forEach((action, actionIndex) => {
    if (action.type === 'increase_budget' && action.ceiling === undefined) {
      warnings.push({ code: 'budget_increase_without_ceiling', params: { actionIndex } });
    }
  });
  for (const other of others) {
    if (other.id === selfId || !other.rule.isActive) continue;
    const conflict = conflictBetween(rule, other.rule);
    if (conflict)
      warnings.push({ code: 'conflicting_rule', params: { ruleId: other.id, ruleName: other.name, conflict } });
  }
  return warnings;
}
