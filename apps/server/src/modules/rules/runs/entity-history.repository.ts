import { ENTITY_HISTORY_MAX, localDate, toMajorUnits, type EntityHistoryItem } from '@adpilot/contracts';
import { automationRules, ruleActions, type TenantTx } from '@adpilot/db';
import { sql } from 'drizzle-orm';

type Raw = Record<string, unknown>;

/**
 * An entity's history from the rules' ledger (issue 28), newest first: every change written, tried or reverted on
 * it (or, for a budget, on it as the holder) and every proposal about it. Planned rows and holds not yet due are
 * left out: they have not happened.
 */
export class EntityHistoryService {
  async historyIn(
    tx: TenantTx,
    entity: { adAccountId: string; externalId: string; timezone: string; currency: string },
  ): Promise<EntityHistoryItem[]> {
    const a = ruleActions;
    const result = (await tx.db.execute(sql`
      select l.id, l.rule_id, r.name as rule_name, l.run_id, l.actor_type, l.actor_id, l.actor_name, l.action_type, l.field, l.state, l.proposal,
        l.before_minor, l.after_minor, l.before_status, l.after_status, l.currency,
        coalesce(l.applied_at, l.decided_at, l.created_at) as at
      from ${a} l left join ${automationRules} r on r.id = l.rule_id
      where l.workspace_id = ${tx.workspaceId} and l.ad_account_id = ${entity.adAccountId}
        and (l.target_external_id = ${entity.externalId} or l.entity_external_id = ${entity.externalId})
        and l.field is not null
        and (l.state in ('applied', 'failed', 'reverted', 'skipped') or l.proposal is not null)
      order by coalesce(l.applied_at, l.decided_at, l.created_at) desc
      limit ${ENTITY_HISTORY_MAX}`)) as unknown as { rows: Raw[] };
    return result.rows.map((raw) => {
      const at = new Date(String(raw.at)).toISOString();
      const status = raw.field === 'status';
      const major = (value: unknown) =>
        value === null || value === undefined ? null : toMajorUnits(Number(value), String(raw.currency));
      const proposal = raw.proposal !== null && raw.proposal !== undefined;
      const byRule = (raw.actor_type ?? 'rule') === 'rule';
      return {
        id: String(raw.id),
        kind: proposal ? 'proposal' : byRule ? 'rule_action' : 'manual_action',
        at,
        date: localDate(entity.timezone, Date.parse(at)),
        type: String(raw.action_type),
        field: (raw.field as string | null) ?? null,
        from: status ? ((raw.before_status as string | null) ?? null) : major(raw.before_minor),
        to: status ? ((raw.after_status as string | null) ?? null) : major(raw.after_minor),
        status: proposal && raw.state === 'proposed' ? String(raw.proposal) : String(raw.state),
        // A rule by its current name; a person or agent by the name the row was made under (ADR 0160).
        actor: byRule
          ? { type: 'rule', id: (raw.rule_id as string | null) ?? null, name: (raw.rule_name as string | null) ?? null }
          : {
              type: raw.actor_type === 'agent' ? 'agent' : 'person',
              id: (raw.actor_id as string | null) ?? null,
              name: (raw.actor_name as string | null) ?? null,
            },
        ruleId: (raw.rule_id as string | null) ?? null,
        runId: (raw.run_id as string | null) ?? null,
        actionId: String(raw.id),
        revertible: raw.state === 'applied',
      } satisfies EntityHistoryItem;
    });
  }
}
