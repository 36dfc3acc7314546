import type { EntityDecision } from '@adpilot/contracts';
import type { AdAccountRow } from '@adpilot/db';
import type { PlannedAction } from './rule-ledger.repository.ts';

export interface LedgerPlan {
  actions: PlannedAction[];
  evaluated: number;
  matched: number;
  /** Matched entities whose action a safeguard held back, with the reason. */
  skipped: { entity: EntityDecision['entity']; type: string; skip: unknown }[];
}

/** The engine's decisions as ledger rows: one per planned action, with its before and after values. */
export function toLedgerPlan(
  evaluation: { evaluated: number; matched: number; decisions: readonly EntityDecision[] },
  accounts: readonly AdAccountRow[],
): LedgerPlan {
  const currency = new Map(accounts.map((account) => [account.id, account.currency]));
  const plan: LedgerPlan = { actions: [], evaluated: evaluation.evaluated, matched: evaluation.matched, skipped: [] };
  for (const decision of evaluation.decisions) {
    for (const action of decision.actions) {
      if (action.outcome === 'skipped') {
        plan.skipped.push({ entity: decision.entity, type: action.type, skip: action.skip });
        continue;
      }
      const change = action.change;
      plan.actions.push({
        adAccountId: decision.entity.adAccountId,
        actionType: action.type,
        entityLevel: decision.entity.level,
        entityExternalId: decision.entity.externalId,
        entityName: decision.entity.name,
        targetLevel: action.target.level,
        targetExternalId: action.target.externalId,
        targetName: action.target.name,
        holderReason: action.holderReason,
        field: change?.field ?? null,
        currency: currency.get(decision.entity.adAccountId) ?? 'USD',
        beforeMinor: change && change.field !== 'status' ? change.fromMinor : null,
        afterMinor: change && change.field !== 'status' ? change.toMinor : null,
        beforeStatus: change?.field === 'status' ? change.from : null,
        afterStatus: change?.field === 'status' ? change.to : null,
        explanation: decision.explanation,
        ...(change?.field === 'budget_schedule'
          ? {
              budgetSchedule: {
                budgetField: change.budgetField,
                budgetValue: change.budgetValue,
                budgetValueType: change.budgetValueType,
                timeStart: change.timeStart,
                timeEnd: change.timeEnd,
                scheduleId: null,
              },
            }
          : {}),
      });
    }
  }
  return plan;
}
