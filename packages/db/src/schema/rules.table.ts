import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { adAccounts } from './ad-accounts.table.ts';
import { workspacePolicies } from './roles.ts';
import { workspaceColumn } from './workspaces.table.ts';

/** A code and its parameters: what the UI renders in English or Thai, and the plain text exports show. */
export interface CodedText {
  code: string;
  params?: Record<string, unknown>;
}

/**
 * An automation rule: the columns the list and the scheduler need, and the rest of the rule format (scope,
 * conditions, actions, schedule, safeguards) as one JSON document validated by the contracts' schema.
 */
export const automationRules = pgTable(
  'automation_rules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceColumn(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(false),
    definition: jsonb('definition').$type<Record<string, unknown>>().notNull(),
    lastTriggered: timestamp('last_triggered', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('automation_rules_workspace_created_idx').on(t.workspaceId, t.createdAt),
    // The scheduler's tick reads only active rules.
    index('automation_rules_active_idx')
      .on(t.isActive)
      .where(sql`${t.isActive}`),
    ...workspacePolicies('automation_rules', t.workspaceId),
  ],
);

/** One evaluation of a rule for one slot (a schedule tick, or a "run now"). */
export const ruleRuns = pgTable(
  'rule_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceColumn(),
    ruleId: uuid('rule_id')
      .notNull()
      .references(() => automationRules.id, { onDelete: 'cascade' }),
    /** The evaluation slot: `m15:1961234` (every 15 minutes), `d:2026-11-22:Asia/Bangkok` (daily), `manual:<uuid>`. */
    slot: text('slot').notNull(),
    trigger: text('trigger', { enum: ['schedule', 'manual'] }).notNull(),
    /** A run with postponed actions stays `running` until a later attempt settles them. */
    status: text('status', { enum: ['queued', 'running', 'completed', 'failed'] })
      .notNull()
      .default('queued'),
    /** Set when the engine's plan (the ledger rows) is committed: a redelivered job executes it, never re-plans. */
    plannedAt: timestamp('planned_at', { withTimezone: true }),
    entitiesEvaluated: integer('entities_evaluated').notNull().default(0),
    entitiesMatched: integer('entities_matched').notNull().default(0),
    /** Matched entities a safeguard held back, with the engine's reason (codes): the run's "why nothing happened". */
    skipped: jsonb('skipped').$type<unknown[]>().notNull().default([]),
    error: jsonb('error').$type<CodedText>(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('rule_runs_rule_slot_unique').on(t.ruleId, t.slot),
    index('rule_runs_workspace_idx').on(t.workspaceId),
    index('rule_runs_rule_created_idx').on(t.ruleId, t.createdAt),
    ...workspacePolicies('rule_runs', t.workspaceId),
  ],
);

/**
 * `skipped` and `cancelled` are a timed hold's resume only: not written (status changed) or the pause reverted.
 * `proposed`: an approve-mode rule's change waiting for a person, or closed without a write (`proposal` says which);
 * approving it makes it `planned`, and the executor takes it from there. `notified`: a notify-mode rule's change,
 * logged and sent, never written. The executor takes only `planned` and `postponed` rows.
 */
const RULE_ACTION_STATES = [
  'planned',
  'applied',
  'failed',
  'postponed',
  'reverted',
  'skipped',
  'cancelled',
  'proposed',
  'notified',
] as const;
export const PROPOSAL_STATES = ['pending', 'approved', 'rejected', 'expired', 'stale'] as const;
export type RuleActionState = (typeof RULE_ACTION_STATES)[number];

/**
 * Who made a ledger row: a rule (its `rule_id` and `run_id`), a person acting by hand, or an agent's credential
 * (an API token or OAuth grant) acting for its creator.
 */
export const LEDGER_ACTOR_TYPES = ['rule', 'person', 'agent'] as const;
export type LedgerActorType = (typeof LEDGER_ACTOR_TYPES)[number];

/**
 * The action ledger: one row per rule × target entity × action × slot, inserted as `planned` and committed before the
 * Meta write, so a retried, duplicated or crashed job finds it and applies the change at most once. A change by hand
 * (a person or an agent, ADR 0160) is a row without a rule: its `slot` is the request's key (`hand:<key>`), unique
 * per actor × entity × target × action, so a repeated request finds its row instead of writing again.
 */
export const ruleActions = pgTable(
  'rule_actions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceColumn(),
    /** Null for a change by hand. */
    ruleId: uuid('rule_id').references(() => automationRules.id, { onDelete: 'cascade' }),
    runId: uuid('run_id').references(() => ruleRuns.id, { onDelete: 'cascade' }),
    actorType: text('actor_type', { enum: LEDGER_ACTOR_TYPES }).notNull().default('rule'),
    /** A person's user id, or an agent's credential id; null for a rule (its `rule_id` names it). */
    actorId: uuid('actor_id'),
    /** The member the change is attributed to: the person, or the agent credential's creator. */
    actorUserId: uuid('actor_user_id'),
    /** The actor's name as shown, copied from the user or credential record at the time (never typed text). */
    actorName: text('actor_name'),
    adAccountId: uuid('ad_account_id')
      .notNull()
      .references(() => adAccounts.id, { onDelete: 'cascade' }),
    slot: text('slot').notNull(),
    actionType: text('action_type').notNull(),
    /** The entity the rule judged. */
    entityLevel: text('entity_level', { enum: ['campaign', 'adset', 'ad'] }).notNull(),
    entityExternalId: text('entity_external_id').notNull(),
    entityName: text('entity_name').notNull(),
    /** The entity written to: itself, or for a budget its budget holder (the campaign under campaign budget). */
    targetLevel: text('target_level', { enum: ['campaign', 'adset', 'ad'] }).notNull(),
    targetExternalId: text('target_external_id').notNull(),
    targetName: text('target_name').notNull(),
    holderReason: text('holder_reason'),
    /** `status`, `daily_budget` or `lifetime_budget`; null for a notification. */
    field: text('field'),
    currency: text('currency').notNull(),
    /** Budgets in the currency's minor units, as Meta takes them. */
    beforeMinor: bigint('before_minor', { mode: 'number' }),
    afterMinor: bigint('after_minor', { mode: 'number' }),
    /**
     * A budget boost (ADR 0191): Meta's budget schedule as planned (value, type, window) and, once Meta made it, its
     * id, which a revert deletes.
     */
    budgetSchedule: jsonb('budget_schedule').$type<LedgerBudgetSchedule>(),
    beforeStatus: text('before_status'),
    afterStatus: text('after_status'),
    state: text('state', { enum: RULE_ACTION_STATES }).notNull().default('planned'),
    explanation: jsonb('explanation').$type<unknown>().notNull(),
    error: jsonb('error').$type<CodedText>(),
    attempts: integer('attempts').notNull().default(0),
    /** Whoever holds an unexpired lease is writing this row to Meta; nobody else may. */
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    appliedAt: timestamp('applied_at', { withTimezone: true }),
    /**
     * A timed hold's resume: the pause row it ends (`hold_of`) and the moment it is due (`due_at`). Such a row is
     * written by the hold job once due, never by its run's executor.
     */
    holdOf: uuid('hold_of').references((): AnyPgColumn => ruleActions.id, { onDelete: 'cascade' }),
    dueAt: timestamp('due_at', { withTimezone: true }),
    revertedAt: timestamp('reverted_at', { withTimezone: true }),
    /** Approve mode only: where the proposal stands, until when it waits, and who decided it when. */
    proposal: text('proposal', { enum: PROPOSAL_STATES }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    decidedBy: uuid('decided_by'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('rule_actions_ledger_unique').on(t.ruleId, t.targetExternalId, t.actionType, t.slot),
    // A change by hand is written once per request key: a repeated request finds its row.
    uniqueIndex('rule_actions_by_hand_unique')
      .on(t.actorType, t.actorId, t.entityExternalId, t.targetExternalId, t.actionType, t.slot)
      .where(sql`${t.ruleId} is null`),
    check(
      'rule_actions_actor_check',
      sql`(${t.actorType} = 'rule' and ${t.ruleId} is not null and ${t.runId} is not null) or (${t.actorType} <> 'rule' and ${t.ruleId} is null and ${t.runId} is null and ${t.actorId} is not null and ${t.actorUserId} is not null and ${t.actorName} is not null)`,
    ),
    index('rule_actions_workspace_idx').on(t.workspaceId),
    index('rule_actions_run_idx').on(t.runId),
    index('rule_actions_target_idx').on(t.adAccountId, t.targetExternalId, t.createdAt),
    uniqueIndex('rule_actions_hold_unique').on(t.holdOf),
    // The hold job's question every minute: which resumes are due.
    index('rule_actions_hold_due_idx')
      .on(t.dueAt)
      .where(sql`${t.holdOf} is not null and ${t.state} in ('planned', 'postponed')`),
    // The Inbox, the expiry and a run's "already proposed" read only the pending proposals.
    index('rule_actions_pending_proposal_idx')
      .on(t.workspaceId, t.expiresAt)
      .where(sql`${t.proposal} = 'pending'`),
    ...workspacePolicies('rule_actions', t.workspaceId),
  ],
);

/** A boost's schedule as the ledger keeps it: instants as ISO strings, the value in Meta's terms. */
export interface LedgerBudgetSchedule {
  /** The budget the schedule raises. */
  budgetField: 'daily_budget' | 'lifetime_budget';
  budgetValue: number;
  budgetValueType: 'ABSOLUTE' | 'MULTIPLIER';
  timeStart: string;
  timeEnd: string;
  /** Meta's id of the schedule, once created. */
  scheduleId: string | null;
}

export type AutomationRuleRow = typeof automationRules.$inferSelect;
export type RuleRunRow = typeof ruleRuns.$inferSelect;
export type RuleActionRow = typeof ruleActions.$inferSelect;
