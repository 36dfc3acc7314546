import { automationRules, type AutomationRuleRow } from '@adpilot/db';
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { SystemTx, TenantTx } from '@adpilot/db';

export type NewRule = Pick<AutomationRuleRow, 'name' | 'description' | 'isActive' | 'definition'>;
export type RulePatch = Partial<NewRule>;

/** Rules of the transaction's user: row-level security plus an explicit filter on `tx.workspaceId`. */
export class RulesRepository {
  list(tx: TenantTx): Promise<AutomationRuleRow[]> {
    return tx.db
      .select()
      .from(automationRules)
      .where(eq(automationRules.workspaceId, tx.workspaceId))
      .orderBy(desc(automationRules.createdAt), desc(automationRules.id));
  }

  async find(tx: TenantTx, id: string, options: { forUpdate?: boolean } = {}): Promise<AutomationRuleRow | undefined> {
    const query = tx.db
      .select()
      .from(automationRules)
      .where(and(eq(automationRules.workspaceId, tx.workspaceId), eq(automationRules.id, id)));
    const [row] = options.forUpdate ? await query.for('update') : await query;
    return row;
  }

  async insert(tx: TenantTx, rule: NewRule): Promise<AutomationRuleRow> {
    const [row] = await tx.db
      .insert(automationRules)
      .values({ ...rule, workspaceId: tx.workspaceId })
      .returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  async update(tx: TenantTx, id: string, patch: RulePatch, at: Date): Promise<AutomationRuleRow | undefined> {
    const [row] = await tx.db
      .update(automationRules)
      .set({ ...patch, updatedAt: at })
      .where(and(eq(automationRules.workspaceId, tx.workspaceId), eq(automationRules.id, id)))
      .returning();
    return row;
  }

  /** Deletes the rule; answers its name, or undefined when there was none. */
  async delete(tx: TenantTx, id: string): Promise<string | undefined> {
    const [row] = await tx.db
      .delete(automationRules)
      .where(and(eq(automationRules.workspaceId, tx.workspaceId), eq(automationRules.id, id)))
      .returning({ name: automationRules.name });
    return row?.name;
  }

  /** The user's rules whose scope names an ad account, locked until the caller's unit of work ends. */
  namingAdAccount(tx: TenantTx, adAccountId: string): Promise<AutomationRuleRow[]> {
    return tx.db
      .select()
      .from(automationRules)
      .where(
        and(
          eq(automationRules.workspaceId, tx.workspaceId),
          sql`${automationRules.definition} -> 'scope' -> 'adAccountIds' @> ${JSON.stringify([adAccountId])}::jsonb`,
        ),
      )
      .orderBy(desc(automationRules.createdAt), desc(automationRules.id))
      .for('update');
  }

  async touchTriggered(tx: TenantTx, id: string, at: Date): Promise<void> {
    await tx.db
      .update(automationRules)
      .set({ lastTriggered: at })
      .where(and(eq(automationRules.workspaceId, tx.workspaceId), eq(automationRules.id, id)));
  }

  /** How many of the user's rules are active (what the plan shows as used), without the activation lock. */
  async countActiveAcross(tx: SystemTx, workspaceIds: readonly string[]): Promise<Map<string, number>> {
    if (workspaceIds.length === 0) return new Map();
    const rows = await tx.db
      .select({ workspaceId: automationRules.workspaceId, n: count() })
      .from(automationRules)
      .where(and(inArray(automationRules.workspaceId, [...workspaceIds]), eq(automationRules.isActive, true)))
      .groupBy(automationRules.workspaceId);
    return new Map(rows.map((row) => [row.workspaceId, row.n]));
  }

  async countActive(tx: TenantTx): Promise<number> {
    const [row] = await tx.db
      .select({ n: count() })
      .from(automationRules)
      .where(and(eq(automationRules.workspaceId, tx.workspaceId), eq(automationRules.isActive, true)));
    return row?.n ?? 0;
  }

  /** The message of the rule's notify action, when it has one. */
  async notifyMessage(tx: TenantTx, ruleId: string): Promise<string | null> {
    const [row] = await tx.db
      .select({ definition: automationRules.definition })
      .from(automationRules)
      .where(and(eq(automationRules.workspaceId, tx.workspaceId), eq(automationRules.id, ruleId)));
    const actions = (row?.definition.actions ?? []) as { type?: unknown; message?: unknown }[];
    const notify = actions.find((action) => action.type === 'notify');
    return typeof notify?.message === 'string' && notify.message.length > 0 ? notify.message : null;
  }

  /**
   * Serialises the user's activations until the transaction ends, then counts the active rules: a limit checked
   * this way holds against parallel requests.
   */
  async lockAndCountActive(tx: TenantTx): Promise<number> {
    await tx.db.execute(
      sql`select pg_advisory_xact_lock(hashtext('automation_rules:active'), hashtext(${tx.workspaceId}))`,
    );
    const [row] = await tx.db
      .select({ n: count() })
      .from(automationRules)
      .where(and(eq(automationRules.workspaceId, tx.workspaceId), eq(automationRules.isActive, true)));
    return row?.n ?? 0;
  }

  /**
   * Switches off the newest active rules beyond `keep` (a downgrade), under the activation lock so no parallel
   * activation slips in between; answers the rules switched off.
   */
  async deactivateNewestBeyond(tx: TenantTx, keep: number, at: Date): Promise<AutomationRuleRow[]> {
    const active = await this.lockAndCountActive(tx);
    if (active <= keep) return [];
    const newest = tx.db
      .select({ id: automationRules.id })
      .from(automationRules)
      .where(and(eq(automationRules.workspaceId, tx.workspaceId), eq(automationRules.isActive, true)))
      .orderBy(desc(automationRules.createdAt), desc(automationRules.id))
      .limit(active - keep);
    return tx.db
      .update(automationRules)
      .set({ isActive: false, updatedAt: at })
      .where(and(eq(automationRules.workspaceId, tx.workspaceId), inArray(automationRules.id, newest)))
      .returning();
  }

  /**
   * Moves the user's active rules that run more often than every `minutes` to every `minutes`, in one statement
   * (a plan change, in its unit of work); answers the rules changed. Daily schedules and switched-off rules stay.
   */
  slowActiveBelow(tx: TenantTx, minutes: number, at: Date): Promise<AutomationRuleRow[]> {
    const every = sql`(${automationRules.definition} -> 'schedule' ->> 'everyMinutes')`;
    return tx.db
      .update(automationRules)
      .set({
        definition: sql`jsonb_set(${automationRules.definition}, '{schedule}', jsonb_build_object('everyMinutes', ${minutes}::int))`,
        updatedAt: at,
      })
      .where(
        and(
          eq(automationRules.workspaceId, tx.workspaceId),
          eq(automationRules.isActive, true),
          sql`${every} is not null`,
          sql`${every}::numeric < ${minutes}`,
        ),
      )
      .returning();
  }

  /** Every active rule of every user, for the scheduler's tick (the one cross-tenant read of rules). */
  listActive(tx: SystemTx): Promise<AutomationRuleRow[]> {
    return tx.db.select().from(automationRules).where(eq(automationRules.isActive, true));
  }
}
