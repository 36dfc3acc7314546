import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { workspacePolicies } from './roles.ts';
import { workspaceColumn, workspaces } from './workspaces.table.ts';

/**
 * The plan catalogue (spec §3 Plan) as rows, for the subscriptions' foreign key and the Test page: kept equal by
 * migration to the contracts' `PLAN_TABLE`, which the server reads (ADR 0113). A limit of -1 is unlimited.
 */
export const subscriptionPlans = pgTable('subscription_plans', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  /** Dollars per month. */
  price: integer('price').notNull(),
  adAccounts: integer('ad_accounts').notNull(),
  activeRules: integer('active_rules').notNull(),
  aiRequests: integer('ai_requests').notNull(),
  /** The shortest "every N minutes" a rule may use on this plan. */
  fastestCheckMinutes: integer('fastest_check_minutes').notNull(),
  /** Members plus pending invitations a workspace on this plan may have (ADR 0070). */
  seats: integer('seats').notNull().default(1),
  /** The furthest back a rule backtest may look (ADR 0113). */
  backtestDays: integer('backtest_days').notNull().default(90),
  features: jsonb('features').$type<string[]>().notNull(),
  badge: text('badge', { enum: ['popular', 'recommended'] }),
  sortOrder: integer('sort_order').notNull(),
});

export const SUBSCRIPTION_STATUSES = ['active', 'past_due'] as const;

/**
 * One subscription per workspace (made on first read, on the free plan). The billing period anchors the monthly usage
 * counters; with Stripe the provider's ids and period come from its webhooks.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    workspaceId: workspaceColumn().primaryKey(),
    planId: text('plan_id')
      .notNull()
      .references(() => subscriptionPlans.id),
    status: text('status', { enum: SUBSCRIPTION_STATUSES }).notNull().default('active'),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true }).notNull(),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    provider: text('provider', { enum: ['local', 'stripe'] })
      .notNull()
      .default('local'),
    stripeCustomerId: text('stripe_customer_id'),
    stripeSubscriptionId: text('stripe_subscription_id'),
    /** Stripe's own clock of the last subscription state applied: an older event never overwrites a newer one. */
    providerUpdatedAt: timestamp('provider_updated_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('subscriptions_stripe_customer_unique').on(t.stripeCustomerId),
    uniqueIndex('subscriptions_stripe_subscription_unique').on(t.stripeSubscriptionId),
    ...workspacePolicies('subscriptions', t.workspaceId),
  ],
);

/** Metered usage per workspace and billing period (AI requests today). Taken atomically, one conditional upsert. */
export const usageCounters = pgTable(
  'usage_counters',
  {
    workspaceId: workspaceColumn(),
    periodStart: timestamp('period_start', { withTimezone: true }).notNull(),
    /** The workspace's own requests in the period (what the Subscription page shows per workspace). */
    aiRequests: integer('ai_requests').notNull().default(0),
    /**
     * On the row of a plan's holder (the payer's personal workspace, ADR 0110): the requests of every workspace the
     * plan covers, the figure the plan's monthly limit is taken against.
     */
    pooledAiRequests: integer('pooled_ai_requests').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.periodStart] }),
    ...workspacePolicies('usage_counters', t.workspaceId),
  ],
);

/**
 * Webhook events already applied (Stripe event ids): a redelivered event is acknowledged and skipped. Claimed in the
 * same unit of work as its effect on the workspace's subscription; an event for no workspace of ours is kept with no owner.
 */
export const billingEvents = pgTable(
  'billing_events',
  {
    id: text('id').primaryKey(),
    workspaceId: uuid('workspace_id').references(() => workspaces.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    processedAt: timestamp('processed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('billing_events_processed_idx').on(t.processedAt),
    index('billing_events_workspace_idx').on(t.workspaceId),
    ...workspacePolicies('billing_events', t.workspaceId),
  ],
);

export type SubscriptionPlanRow = typeof subscriptionPlans.$inferSelect;
export type SubscriptionRow = typeof subscriptions.$inferSelect;
