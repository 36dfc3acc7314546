import { toMajorUnits, type Explanation, type Proposal } from '@adpilot/contracts';
import type { RuleActionRow } from '@adpilot/db';
import { actorOf, entityRefsOf } from '../definitions/rules.presenter.ts';

/** A status as it is, a budget in the account currency's major units (what a person reads). */
export function shownValue(row: RuleActionRow, value: string | number | null): string | number | null {
  if (value === null || row.field === 'status') return value;
  return toMajorUnits(Number(value), row.currency);
}

/**
 * A ledger row of approve mode as the Inbox shows it; a pending one past its time reads as expired. `names` gives the
 * decider's name (the list); without it, or for a member since removed, only the id.
 */
export function presentProposal(
  row: RuleActionRow,
  ruleName: string | null,
  now: Date,
  names: ReadonlyMap<string, string> = new Map(),
): Proposal {
  const expiresAt = row.expiresAt ?? row.createdAt;
  const status = row.proposal === 'pending' && expiresAt <= now ? 'expired' : (row.proposal ?? 'pending');
  const isStatus = row.field === 'status';
  return {
    id: row.id,
    ruleId: row.ruleId,
    ruleName,
    runId: row.runId,
    actor: actorOf(row),
    ...entityRefsOf(row),
    action: row.actionType as Proposal['action'],
    field: row.field as Proposal['field'],
    from: isStatus ? row.beforeStatus : shownValue(row, row.beforeMinor),
    to: isStatus ? row.afterStatus : shownValue(row, row.afterMinor),
    currency: row.currency,
    explanation: row.explanation as Explanation,
    createdAt: row.createdAt.toISOString(),
    expiresAt: expiresAt.toISOString(),
    status,
    decidedAt: row.decidedAt?.toISOString() ?? null,
    decidedBy: row.decidedBy ? { id: row.decidedBy, name: names.get(row.decidedBy) ?? null } : null,
  };
}
