import type { EntityLevel } from '@adpilot/contracts';
import { ruleActions, automationRules, type TenantTx } from '@adpilot/db';
import { sql } from 'drizzle-orm';
import { toRuleBody } from '../definitions/rule-definition.ts';
import type { RulesRepository } from '../definitions/rules.repository.ts';

/** An entity the explorer shows, as the rules see it: its account, level, Meta id, name and status. */
export interface KnownEntity {
  adAccountId: string;
  level: EntityLevel;
  externalId: string;
  name: string;
  status: string;
}

/** What the rules know of one entity (issue 28): who watches it, what was last done to it, what waits. */
export interface EntityKnowledge {
  rules: { id: string; name: string }[];
  lastAction: {
    actionId: string;
    ruleId: string | null;
    ruleName: string | null;
    runId: string | null;
    type: string;
    status: string;
    at: string;
    actorType: 'rule' | 'person' | 'agent';
  } | null;
  pendingProposals: number;
  hold: { actionId: string; resumesAt: string } | null;
}

const keyOf = (adAccountId: string, externalId: string) => `${adAccountId}|${externalId}`;

/**
 * The rules' part of the explorer's rows, in the caller's unit of work: the active rules whose scope covers each
 * entity (account, level, name filter, statuses: the engine's own scope test), and from the ledger the last action
 * written (or tried) on it, its pending proposals and a timed hold waiting to resume it. One read of the rules and
 * one of the ledger for a whole page.
 */
export class EntityKnowledgeService {
  constructor(private readonly rulesRepository: RulesRepository) {}

  /** Meta's four-an-hour count per budget holder (see recentBudgetChangesIn). */
  recentBudgetChangesIn(tx: TenantTx, adAccountId: string, targetExternalIds: readonly string[], since: Date) {
    return recentBudgetChangesIn(tx, adAccountId, targetExternalIds, since);
  }

  async knowledgeIn(tx: TenantTx, entities: readonly KnownEntity[]): Promise<Map<string, EntityKnowledge>> {
    const out = new Map<string, EntityKnowledge>();
    if (entities.length === 0) return out;
    for (const entity of entities)
      out.set(keyOf(entity.adAccountId, entity.externalId), {
        rules: [],
        lastAction: null,
        pendingProposals: 0,
        hold: null,
      });

    const rules = (await this.rulesRepository.list(tx)).filter((rule) => rule.isActive);
    const scopes = rules.map((rule) => ({ rule, scope: toRuleBody(rule).scope }));
    for (const entity of entities) {
      const known = out.get(keyOf(entity.adAccountId, entity.externalId))!;
      for (const { rule, scope } of scopes) {
        if (scope.level !== entity.level) continue;
        if (scope.adAccountIds.length > 0 && !scope.adAccountIds.includes(entity.adAccountId)) continue;
        const statuses = scope.statuses?.length ? scope.statuses : ['ACTIVE', 'PAUSED'];
        if (!(statuses as readonly string[]).includes(entity.status)) continue;
        if (scope.nameContains && !entity.name.toLowerCase().includes(scope.nameContains.toLowerCase())) continue;
        known.rules.push({ id: rule.id, name: rule.name });
      }
    }

    const keys = JSON.stringify(entities.map((e) => ({ a: e.adAccountId, x: e.externalId })));
    const a = ruleActions;
    const result = (await tx.db.execute(sql`
      with k as (select * from json_to_recordset(${keys}::json) as k(a uuid, x text))
      select k.a as "adAccountId", k.x as "externalId",
        (select json_build_object('id', l.id, 'ruleId', l.rule_id, 'ruleName', r.name, 'runId', l.run_id,
            'type', l.action_type, 'status', l.state, 'at', coalesce(l.applied_at, l.updated_at),
            'actorType', l.actor_type)
          from ${a} l left join ${automationRules} r on r.id = l.rule_id
          where l.workspace_id = ${tx.workspaceId} and l.ad_account_id = k.a and l.target_external_id = k.x
            and l.state in ('applied', 'failed', 'reverted') and l.field is not null
          order by coalesce(l.applied_at, l.updated_at) desc limit 1) as "last",
        (select count(*) from ${a} p
          where p.workspace_id = ${tx.workspaceId} and p.ad_account_id = k.a and p.target_external_id = k.x
            and p.proposal = 'pending') as "pending",
        (select json_build_object('id', h.id, 'dueAt', h.due_at)
          from ${a} h
          where h.workspace_id = ${tx.workspaceId} and h.ad_account_id = k.a and h.target_external_id = k.x
            and h.hold_of is not null and h.state in ('planned', 'postponed')
          order by h.due_at limit 1) as "hold"
      from k`)) as unknown as {
      rows: { adAccountId: string; externalId: string; last: unknown; pending: unknown; hold: unknown }[];
    };
    const parse = (value: unknown) =>
      (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, unknown> | null;
    for (const row of result.rows) {
      const known = out.get(keyOf(row.adAccountId, row.externalId));
      if (!known) continue;
      const last = parse(row.last);
      if (last)
        known.lastAction = {
          actionId: String(last.id),
          ruleId: (last.ruleId as string | null) ?? null,
          ruleName: (last.ruleName as string | null) ?? null,
          runId: (last.runId as string | null) ?? null,
          type: String(last.type),
          status: String(last.status),
          at: new Date(String(last.at)).toISOString(),
          actorType: (last.actorType as 'rule' | 'person' | 'agent') ?? 'rule',
        };
      known.pendingProposals = Number(row.pending ?? 0);
      const hold = parse(row.hold);
      if (hold) known.hold = { actionId: String(hold.id), resumesAt: new Date(String(hold.dueAt)).toISOString() };
    }
    return out;
  }
}

/**
 * The budget changes written on each of an account's budget holders since a moment (Meta's four an hour): how many,
 * and the oldest, from the ledger (rules' and people's alike), counting those planned and not yet written too, so a
 * caller holding the holders' lock (`RuleLedgerRepository.lockHolders`) sees every change a parallel request made.
 */
export async function recentBudgetChangesIn(
  tx: TenantTx,
  adAccountId: string,
  targetExternalIds: readonly string[],
  since: Date,
): Promise<Map<string, { count: number; oldestAt: Date | null }>> {
  const out = new Map<string, { count: number; oldestAt: Date | null }>();
  if (targetExternalIds.length === 0) return out;
  const result = (await tx.db.execute(sql`
    select target_external_id as "id", count(*)::int as "count", min(coalesce(applied_at, created_at)) as "oldest"
    from ${ruleActions}
    where workspace_id = ${tx.workspaceId} and ad_account_id = ${adAccountId}
      and target_external_id in (${sql.join(
        targetExternalIds.map((id) => sql`${id}`),
        sql`, `,
      )})
      and field in ('daily_budget', 'lifetime_budget')
      and ((state in ('applied', 'reverted') and applied_at >= ${since.toISOString()})
        or (state in ('planned', 'postponed') and hold_of is null and created_at >= ${since.toISOString()}))
    group by target_external_id`)) as unknown as { rows: { id: string; count: number; oldest: string | null }[] };
  for (const row of result.rows)
    out.set(row.id, { count: Number(row.count), oldestAt: row.oldest ? new Date(row.oldest) : null });
  return out;
}
