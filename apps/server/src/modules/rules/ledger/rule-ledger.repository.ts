import type { RuleMode } from '@adpilot/contracts';
import {
  automationRules,
  ruleActions,
  ruleRuns,
  type CodedText,
  type RuleActionRow,
  type RuleRunRow,
} from '@adpilot/db';
import { alias } from 'drizzle-orm/pg-core';
import { and, desc, eq, gt, gte, inArray, isNotNull, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { SystemTx, TenantTx } from '@adpilot/db';

/** A ledger row as the engine's plan proposes it. */
export type PlannedAction = Pick<
  RuleActionRow,
  | 'adAccountId'
  | 'actionType'
  | 'entityLevel'
  | 'entityExternalId'
  | 'entityName'
  | 'targetLevel'
  | 'targetExternalId'
  | 'targetName'
  | 'holderReason'
  | 'field'
  | 'currency'
  | 'beforeMinor'
  | 'afterMinor'
  | 'beforeStatus'
  | 'afterStatus'
  | 'explanation'
> &
  Partial<Pick<RuleActionRow, 'budgetSchedule'>>;

/** A change by hand as the ledger records it: the change, its actor and its request key (`slot`). */
export type ByHandAction = PlannedAction & Pick<RuleActionRow, 'state' | 'proposal' | 'expiresAt'>;

/** Who made a change by hand, and the key of their request (`slot`: `hand:<key>`). */
export interface ByHandKey {
  actorType: 'person' | 'agent';
  actorId: string;
  actorUserId: string;
  actorName: string;
  slot: string;
}

export interface RunWithActions extends RuleRunRow {
  actions: RuleActionRow[];
}

export type Settlement =
  | { state: 'applied'; at: Date }
  | { state: 'failed'; at: Date; error: CodedText }
  | { state: 'postponed'; at: Date; error: CodedText; retryAt: Date }
  | { state: 'skipped'; at: Date; error: CodedText };

/** A ledger row still to be written: planned, or postponed by a Meta limit. */
const PENDING = ['planned', 'postponed'] as const;

/** Rule runs and the action ledger of the transaction's user. */
/** The rows of an actor's changes by hand in the unit's workspace (no rule: a person's, a token's). */
function byHandOfActor(tx: TenantTx, { actorType, actorId }: Pick<ByHandKey, 'actorType' | 'actorId'>) {
  return [
    eq(ruleActions.workspaceId, tx.workspaceId),
    isNull(ruleActions.ruleId),
    eq(ruleActions.actorType, actorType),
    eq(ruleActions.actorId, actorId),
  ];
}

export class RuleLedgerRepository {
  /** The run of a rule for a slot, created on first sight: duplicated jobs of one slot share one run. */
  async ensureRun(tx: TenantTx, ruleId: string, slot: string, trigger: RuleRunRow['trigger']): Promise<RuleRunRow> {
    await tx.db
      .insert(ruleRuns)
      .values({ workspaceId: tx.workspaceId, ruleId, slot, trigger })
      .onConflictDoNothing({ target: [ruleRuns.ruleId, ruleRuns.slot] });
    const [row] = await tx.db
      .select()
      .from(ruleRuns)
      .where(and(eq(ruleRuns.workspaceId, tx.workspaceId), eq(ruleRuns.ruleId, ruleId), eq(ruleRuns.slot, slot)));
    if (!row) throw new Error('rule run vanished');
    return row;
  }

  async findRun(tx: TenantTx, runId: string): Promise<RuleRunRow | undefined> {
    const [row] = await tx.db
      .select()
      .from(ruleRuns)
      .where(and(eq(ruleRuns.workspaceId, tx.workspaceId), eq(ruleRuns.id, runId)));
    return row;
  }

  async markRunStarted(tx: TenantTx, runId: string, at: Date): Promise<void> {
    await tx.db
      .update(ruleRuns)
      .set({ status: 'running', startedAt: sql`coalesce(${ruleRuns.startedAt}, ${at.toISOString()}::timestamptz)` })
      .where(and(eq(ruleRuns.workspaceId, tx.workspaceId), eq(ruleRuns.id, runId)));
  }

  /**
   * Records the engine's plan once per run: the ledger rows (a row already there for the same rule, target, action
   * and slot wins) and the run's figures. A change (a row with a field) is `planned` in auto mode, a pending
   * proposal until `expiresAt` in approve mode, `notified` in notify mode; a notification is always `planned`.
   * Answers the rows inserted, or false when another job of the run planned first.
   */
  async commitPlan(
    tx: TenantTx,
    run: RuleRunRow,
    plan: { actions: PlannedAction[]; evaluated: number; matched: number; skipped: unknown[] },
    at: Date,
    disposition: { mode: RuleMode; expiresAt: Date } = { mode: 'auto', expiresAt: at },
  ): Promise<RuleActionRow[] | false> {
    const [claimed] = await tx.db
      .update(ruleRuns)
      .set({ plannedAt: at, entitiesEvaluated: plan.evaluated, entitiesMatched: plan.matched, skipped: plan.skipped })
      .where(and(eq(ruleRuns.workspaceId, tx.workspaceId), eq(ruleRuns.id, run.id), isNull(ruleRuns.plannedAt)))
      .returning({ id: ruleRuns.id });
    if (!claimed) return false;
    if (plan.actions.length === 0) return [];
    const { mode, expiresAt } = disposition;
    const asked = (action: PlannedAction) =>
      action.field === null || mode === 'auto'
        ? {}
        : mode === 'approve'
          ? { state: 'proposed' as const, proposal: 'pending' as const, expiresAt }
          : { state: 'notified' as const };
    return tx.db
      .insert(ruleActions)
      .values(
        plan.actions.map((action) => ({
          ...action,
          ...asked(action),
          workspaceId: tx.workspaceId,
          ruleId: run.ruleId,
          runId: run.id,
          slot: run.slot,
        })),
      )
      .onConflictDoNothing({
        target: [ruleActions.ruleId, ruleActions.targetExternalId, ruleActions.actionType, ruleActions.slot],
      })
      .returning();
  }

  /** The rule's proposals still waiting at `at`, as `target|action` keys: a run does not propose them again. */
  async pendingProposalKeys(tx: TenantTx, ruleId: string, at: Date): Promise<Set<string>> {
    const rows = await tx.db
      .select({ target: ruleActions.targetExternalId, action: ruleActions.actionType })
      .from(ruleActions)
      .where(
        and(
          eq(ruleActions.workspaceId, tx.workspaceId),
          eq(ruleActions.ruleId, ruleId),
          eq(ruleActions.proposal, 'pending'),
          gt(ruleActions.expiresAt, at),
        ),
      );
    return new Set(rows.map((row) => `${row.target}|${row.action}`));
  }

  /** Takes one row still to be written, under a lease (an approved proposal, written at once). */
  async claimRow(tx: TenantTx, id: string, now: Date, leaseUntil: Date): Promise<RuleActionRow | undefined> {
    const [row] = await this.lease(tx, now, leaseUntil, eq(ruleActions.id, id));
    return row;
  }

  /**
   * Takes the pending rows of a run and account that nobody holds, each with a lease until `leaseUntil`: the holder
   * is the only one to write it to Meta. A crashed worker's lease runs out, and the next attempt takes the row again.
   */
  claimPending(
    tx: TenantTx,
    runId: string,
    adAccountId: string,
    now: Date,
    leaseUntil: Date,
  ): Promise<RuleActionRow[]> {
    return this.lease(
      tx,
      now,
      leaseUntil,
      eq(ruleActions.runId, runId),
      eq(ruleActions.adAccountId, adAccountId),
      isNull(ruleActions.holdOf),
    );
  }

  /**
   * Leases the workspace's pending rows nobody holds that match `where` (each attempt counted): the one lease every
   * claim takes, whether a run's rows, an approved proposal or a timed hold's resume.
   */
  private lease(tx: TenantTx, now: Date, leaseUntil: Date, ...where: (SQL | undefined)[]): Promise<RuleActionRow[]> {
    return tx.db
      .update(ruleActions)
      .set({ leaseUntil, attempts: sql`${ruleActions.attempts} + 1`, updatedAt: now })
      .where(
        and(
          eq(ruleActions.workspaceId, tx.workspaceId),
          ...where,
          inArray(ruleActions.state, [...PENDING]),
          or(isNull(ruleActions.leaseUntil), lt(ruleActions.leaseUntil, now)),
        ),
      )
      .returning();
  }

  /** The run's rows still to be written, with the moment each may be taken again. */
  pendingOf(tx: TenantTx, runId: string): Promise<{ adAccountId: string; leaseUntil: Date | null }[]> {
    return tx.db
      .select({ adAccountId: ruleActions.adAccountId, leaseUntil: ruleActions.leaseUntil })
      .from(ruleActions)
      .where(
        and(
          eq(ruleActions.workspaceId, tx.workspaceId),
          eq(ruleActions.runId, runId),
          inArray(ruleActions.state, [...PENDING]),
          isNull(ruleActions.holdOf),
        ),
      );
  }

  async settle(tx: TenantTx, id: string, outcome: Settlement): Promise<void> {
    const set =
      outcome.state === 'applied'
        ? { state: outcome.state, updatedAt: outcome.at, appliedAt: outcome.at, leaseUntil: null, error: null }
        : outcome.state === 'failed'
          ? { state: outcome.state, updatedAt: outcome.at, leaseUntil: null, error: outcome.error }
          : outcome.state === 'skipped'
            ? { state: outcome.state, updatedAt: outcome.at, leaseUntil: null, error: outcome.error }
            : { state: outcome.state, updatedAt: outcome.at, leaseUntil: outcome.retryAt, error: outcome.error };
    await tx.db
      .update(ruleActions)
      .set(set)
      .where(and(eq(ruleActions.workspaceId, tx.workspaceId), eq(ruleActions.id, id)));
  }

  /** Ends a run once: false when another job of the run ended it first (so only one logs it). */
  async finishRun(
    tx: TenantTx,
    runId: string,
    status: 'completed' | 'failed',
    at: Date,
    error?: CodedText,
  ): Promise<RuleRunRow | undefined> {
    const [row] = await tx.db
      .update(ruleRuns)
      .set({ status, finishedAt: at, error: error ?? null })
      .where(
        and(
          eq(ruleRuns.workspaceId, tx.workspaceId),
          eq(ruleRuns.id, runId),
          inArray(ruleRuns.status, ['queued', 'running']),
        ),
      )
      .returning();
    return row;
  }

  /** Opens a finished run again for a row that must wait (an approved proposal Meta postponed). */
  async reopenRun(tx: TenantTx, runId: string): Promise<RuleRunRow | undefined> {
    const [row] = await tx.db
      .update(ruleRuns)
      .set({ status: 'running', finishedAt: null })
      .where(and(eq(ruleRuns.workspaceId, tx.workspaceId), eq(ruleRuns.id, runId)))
      .returning();
    return row;
  }

  /** How many of a run's rows ended in each state. */
  async runCounts(tx: TenantTx, runId: string): Promise<Record<RuleActionRow['state'], number>> {
    const rows = await tx.db
      .select({ state: ruleActions.state, n: sql<number>`count(*)::int` })
      .from(ruleActions)
      .where(and(eq(ruleActions.workspaceId, tx.workspaceId), eq(ruleActions.runId, runId)))
      .groupBy(ruleActions.state);
    const counts = {
      planned: 0,
      applied: 0,
      failed: 0,
      postponed: 0,
      reverted: 0,
      skipped: 0,
      cancelled: 0,
      proposed: 0,
      notified: 0,
    };
    for (const row of rows) counts[row.state] = row.n;
    return counts;
  }

  /** The runs of a rule, newest first, each with its ledger rows. */
  async listRuns(tx: TenantTx, ruleId: string, limit: number): Promise<RunWithActions[]> {
    const runs = await tx.db
      .select()
      .from(ruleRuns)
      .where(and(eq(ruleRuns.workspaceId, tx.workspaceId), eq(ruleRuns.ruleId, ruleId)))
      .orderBy(desc(ruleRuns.createdAt), desc(ruleRuns.id))
      .limit(limit);
    if (runs.length === 0) return [];
    const actions = await tx.db
      .select()
      .from(ruleActions)
      .where(
        and(
          eq(ruleActions.workspaceId, tx.workspaceId),
          inArray(
            ruleActions.runId,
            runs.map((run) => run.id),
          ),
          // A timed hold's resume is listed with the rule's holds, not with the run of its pause.
          isNull(ruleActions.holdOf),
        ),
      )
      .orderBy(ruleActions.createdAt, ruleActions.targetName);
    return runs.map((run) => ({ ...run, actions: actions.filter((action) => action.runId === run.id) }));
  }

  /**
   * The rows of the given accounts created since a moment and not failed: what cooldowns, the daily cap and
   * Meta's budget changes per hour count (a pending row counts, it is about to land).
   */
  recentActions(tx: TenantTx, adAccountIds: string[], since: Date): Promise<RuleActionRow[]> {
    if (adAccountIds.length === 0) return Promise.resolve([]);
    return tx.db
      .select()
      .from(ruleActions)
      .where(
        and(
          eq(ruleActions.workspaceId, tx.workspaceId),
          inArray(ruleActions.adAccountId, adAccountIds),
          inArray(ruleActions.state, ['planned', 'postponed', 'applied', 'reverted']),
          gte(ruleActions.createdAt, since),
        ),
      );
  }

  /**
   * Other rules' status and budget moves on the given accounts still inside their own rule's cooldown, with that
   * rule's name and cooldown: a rule doing the opposite within it would undo them (skipped as `conflicting_rule`).
   * A hold's resume is not one (its pause is), nor is a reverted or failed action.
   */
  async opposingActions(
    tx: TenantTx,
    adAccountIds: string[],
    ruleId: string | undefined,
    now: Date,
    maxCooldownHours: number,
  ): Promise<(RuleActionRow & { ruleName: string; cooldownHours: number })[]> {
    if (adAccountIds.length === 0) return [];
    const cooldownHours = sql<number>`coalesce((${automationRules.definition}->'safeguards'->>'cooldownHours')::int, 0)`;
    const rows = await tx.db
      .select({ action: ruleActions, ruleName: automationRules.name, cooldownHours })
      .from(ruleActions)
      .innerJoin(automationRules, eq(automationRules.id, ruleActions.ruleId))
      .where(
        and(
          eq(ruleActions.workspaceId, tx.workspaceId),
          inArray(ruleActions.adAccountId, adAccountIds),
          ...(ruleId ? [sql`${ruleActions.ruleId} <> ${ruleId}`] : []),
          inArray(ruleActions.actionType, ['pause', 'resume', 'increase_budget', 'decrease_budget']),
          inArray(ruleActions.state, ['planned', 'postponed', 'applied']),
          isNull(ruleActions.holdOf),
          gte(ruleActions.createdAt, new Date(now.getTime() - maxCooldownHours * 3_600_000)),
          sql`coalesce(${ruleActions.appliedAt}, ${ruleActions.createdAt}) + ${cooldownHours} * interval '1 hour' > ${now.toISOString()}::timestamptz`,
        ),
      );
    return rows.map((row) => ({ ...row.action, ruleName: row.ruleName, cooldownHours: row.cooldownHours }));
  }

  async findAction(tx: TenantTx, id: string): Promise<RuleActionRow | undefined> {
    const [row] = await tx.db
      .select()
      .from(ruleActions)
      .where(and(eq(ruleActions.workspaceId, tx.workspaceId), eq(ruleActions.id, id)));
    return row;
  }

  /** Takes an applied row for a revert under a lease: one revert at a time. */
  async claimRevert(tx: TenantTx, id: string, now: Date, leaseUntil: Date): Promise<RuleActionRow | undefined> {
    const [row] = await tx.db
      .update(ruleActions)
      .set({ leaseUntil, updatedAt: now })
      .where(
        and(
          eq(ruleActions.workspaceId, tx.workspaceId),
          eq(ruleActions.id, id),
          eq(ruleActions.state, 'applied'),
          or(isNull(ruleActions.leaseUntil), lt(ruleActions.leaseUntil, now)),
        ),
      )
      .returning();
    return row;
  }

  async releaseLease(tx: TenantTx, id: string): Promise<void> {
    await tx.db
      .update(ruleActions)
      .set({ leaseUntil: null })
      .where(and(eq(ruleActions.workspaceId, tx.workspaceId), eq(ruleActions.id, id)));
  }

  /** A boost's budget schedule as Meta made it: its id, for the revert (ADR 0191). */
  async recordSchedule(tx: TenantTx, row: RuleActionRow, scheduleId: string): Promise<void> {
    if (!row.budgetSchedule) return;
    await tx.db
      .update(ruleActions)
      .set({ budgetSchedule: { ...row.budgetSchedule, scheduleId } })
      .where(and(eq(ruleActions.workspaceId, tx.workspaceId), eq(ruleActions.id, row.id)));
  }

  async markReverted(tx: TenantTx, id: string, at: Date): Promise<void> {
    await tx.db
      .update(ruleActions)
      .set({ state: 'reverted', revertedAt: at, leaseUntil: null, updatedAt: at })
      .where(and(eq(ruleActions.workspaceId, tx.workspaceId), eq(ruleActions.id, id)));
  }

  /**
   * Plans the resume of a timed hold once its pause is applied: a row of the pause's run, `planned`, due at `dueAt`,
   * the status back from the pause's target to its "before". One per pause (`hold_of` is unique).
   */
  async planHold(tx: TenantTx, pause: RuleActionRow, dueAt: Date): Promise<void> {
    await tx.db
      .insert(ruleActions)
      .values({
        workspaceId: tx.workspaceId,
        ruleId: pause.ruleId,
        runId: pause.runId,
        adAccountId: pause.adAccountId,
        slot: pause.slot,
        actionType: 'resume',
        entityLevel: pause.entityLevel,
        entityExternalId: pause.entityExternalId,
        entityName: pause.entityName,
        targetLevel: pause.targetLevel,
        targetExternalId: pause.targetExternalId,
        targetName: pause.targetName,
        field: 'status',
        currency: pause.currency,
        beforeStatus: pause.afterStatus,
        afterStatus: pause.beforeStatus,
        explanation: pause.explanation,
        holdOf: pause.id,
        dueAt,
      })
      .onConflictDoNothing();
  }

  /** The resumes due now across every workspace (the hold job's question, on the system path). */
  dueHolds(tx: SystemTx, now: Date): Promise<{ workspaceId: string; id: string }[]> {
    return tx.db
      .select({ workspaceId: ruleActions.workspaceId, id: ruleActions.id })
      .from(ruleActions)
      .where(
        and(
          isNotNull(ruleActions.holdOf),
          inArray(ruleActions.state, [...PENDING]),
          lte(ruleActions.dueAt, now),
          or(isNull(ruleActions.leaseUntil), lt(ruleActions.leaseUntil, now)),
        ),
      )
      .orderBy(ruleActions.dueAt)
      .limit(500);
  }

  /**
   * Takes a pending resume under a lease, once due (or at once: "resume now"): the holder is the only one to write
   * it. A postponed resume waits for its retry moment either way.
   */
  async claimHold(
    tx: TenantTx,
    id: string,
    now: Date,
    leaseUntil: Date,
    options: { now: boolean } = { now: false },
  ): Promise<RuleActionRow | undefined> {
    const [row] = await this.lease(
      tx,
      now,
      leaseUntil,
      eq(ruleActions.id, id),
      isNotNull(ruleActions.holdOf),
      options.now ? undefined : lte(ruleActions.dueAt, now),
    );
    return row;
  }

  /**
   * A rule's changes applied at Meta within since…until (reverted ones too, with when), oldest first; notifications
   * changed nothing and are left out. A pause carries when its timed resume was applied, if it was.
   */
  appliedActions(
    tx: TenantTx,
    /** One rule's, or every rule's of the workspace (null). */
    ruleId: string | null,
    since: Date,
    until: Date,
  ): Promise<(RuleActionRow & { resumedAt: Date | null })[]> {
    const resume = alias(ruleActions, 'resume');
    return tx.db
      .select({ row: ruleActions, resumedAt: resume.appliedAt })
      .from(ruleActions)
      .leftJoin(
        resume,
        and(
          eq(resume.holdOf, ruleActions.id),
          inArray(resume.state, ['applied', 'reverted']),
          isNotNull(resume.appliedAt),
        ),
      )
      .where(
        and(
          eq(ruleActions.workspaceId, tx.workspaceId),
          ruleId === null ? undefined : eq(ruleActions.ruleId, ruleId),
          inArray(ruleActions.state, ['applied', 'reverted']),
          isNotNull(ruleActions.field),
          gte(ruleActions.appliedAt, since),
          lt(ruleActions.appliedAt, until),
        ),
      )
      .orderBy(ruleActions.appliedAt, ruleActions.id)
      .then((rows) => rows.map(({ row, resumedAt }) => ({ ...row, resumedAt })));
  }

  /** The resume of a pause's hold. */
  async findHold(tx: TenantTx, pauseId: string): Promise<RuleActionRow | undefined> {
    const [row] = await tx.db
      .select()
      .from(ruleActions)
      .where(and(eq(ruleActions.workspaceId, tx.workspaceId), eq(ruleActions.holdOf, pauseId)));
    return row;
  }

  /** The resumes of a rule's holds, the latest due first. */
  listHolds(tx: TenantTx, ruleId: string, limit: number): Promise<RuleActionRow[]> {
    return tx.db
      .select()
      .from(ruleActions)
      .where(
        and(eq(ruleActions.workspaceId, tx.workspaceId), eq(ruleActions.ruleId, ruleId), isNotNull(ruleActions.holdOf)),
      )
      .orderBy(desc(ruleActions.dueAt), desc(ruleActions.id))
      .limit(limit);
  }

  /** Cancels a pause's resume still pending (the pause was reverted): nothing is left to resume. */
  async cancelHold(tx: TenantTx, pauseId: string, at: Date): Promise<void> {
    await tx.db
      .update(ruleActions)
      .set({ state: 'cancelled', leaseUntil: null, updatedAt: at })
      .where(
        and(
          eq(ruleActions.workspaceId, tx.workspaceId),
          eq(ruleActions.holdOf, pauseId),
          inArray(ruleActions.state, [...PENDING]),
        ),
      );
  }

  /**
   * Serialises the ledger's writers on an account's budget holders until the unit of work ends (a transaction-scoped
   * advisory lock per holder, taken in one order so two requests never wait on each other): whoever counts Meta's
   * four changes an hour and plans a change in the same unit of work cannot be passed by a parallel request.
   */
  async lockHolders(tx: TenantTx, adAccountId: string, targetExternalIds: readonly string[]): Promise<void> {
    for (const id of [...new Set(targetExternalIds)].sort())
      await tx.db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`budget:${adAccountId}:${id}`}, 0))`);
  }

  /**
   * Records changes by hand (ADR 0160) as ledger rows of one request key (`slot`), `planned` for the executor or
   * `proposed` for the Inbox; a row the key already has is kept as it is (a repeated request). Answers every row of
   * the key for these changes, the existing ones included.
   */
  async planByHand(tx: TenantTx, key: ByHandKey, rows: readonly ByHandAction[], at: Date): Promise<RuleActionRow[]> {
    if (rows.length > 0)
      await tx.db
        .insert(ruleActions)
        .values(
          rows.map((row) => ({
            ...row,
            ...key,
            workspaceId: tx.workspaceId,
            ruleId: null,
            runId: null,
            createdAt: at,
            updatedAt: at,
          })),
        )
        .onConflictDoNothing();
    return this.byHandOf(tx, key);
  }

  /** An actor's latest change by hand of one entity with one action (a retried request is found by it). */
  async lastByHandOf(
    tx: TenantTx,
    { actorType, actorId }: Pick<ByHandKey, 'actorType' | 'actorId'>,
    entityExternalId: string,
    actionType: string,
  ): Promise<RuleActionRow | undefined> {
    const [row] = await tx.db
      .select()
      .from(ruleActions)
      .where(
        and(
          ...byHandOfActor(tx, { actorType, actorId }),
          eq(ruleActions.entityExternalId, entityExternalId),
          eq(ruleActions.actionType, actionType),
        ),
      )
      .orderBy(desc(ruleActions.createdAt))
      .limit(1);
    return row;
  }

  /** The rows of one request key of an actor (a change by hand). */
  byHandOf(
    tx: TenantTx,
    { actorType, actorId, slot }: Pick<ByHandKey, 'actorType' | 'actorId' | 'slot'>,
  ): Promise<RuleActionRow[]> {
    return tx.db
      .select()
      .from(ruleActions)
      .where(and(...byHandOfActor(tx, { actorType, actorId }), eq(ruleActions.slot, slot)));
  }

  /** Of the given rule × slot pairs, those that already have a run (the tick's "already enqueued"). */
  async existingRuns(tx: SystemTx, pairs: { ruleId: string; slot: string }[]): Promise<Set<string>> {
    if (pairs.length === 0) return new Set();
    const rows = await tx.db
      .select({ ruleId: ruleRuns.ruleId, slot: ruleRuns.slot })
      .from(ruleRuns)
      .where(
        and(
          inArray(
            ruleRuns.ruleId,
            pairs.map((pair) => pair.ruleId),
          ),
          inArray(
            ruleRuns.slot,
            pairs.map((pair) => pair.slot),
          ),
        ),
      );
    return new Set(rows.map((row) => `${row.ruleId}|${row.slot}`));
  }
}
