import type { RuleActionRow } from '@adpilot/db';
import type { OwnWrite } from '../../ad-accounts/index.ts';

const FIELDS = new Set(['status', 'daily_budget', 'lifetime_budget']);

/**
 * What one ledger row wrote (or is about to write) at Meta, as the sync's watchdog compares it: the value it wrote
 * over and the value it wrote, and for a reverted row the revert's write back as well. A notification writes nothing.
 */
export function ownWritesOf(row: RuleActionRow): OwnWrite[] {
  if (!row.field || !FIELDS.has(row.field)) return [];
  const field = row.field as OwnWrite['field'];
  const [before, after] = field === 'status' ? [row.beforeStatus, row.afterStatus] : [row.beforeMinor, row.afterMinor];
  const write: OwnWrite = { externalId: row.targetExternalId, field, before, after };
  if (row.state !== 'reverted') return [write];
  return [write, { ...write, before: after, after: before }];
}
