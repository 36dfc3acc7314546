import { sql } from 'drizzle-orm';
import { boolean, date, index, numeric, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { adAccounts } from './ad-accounts.table.ts';
import { workspacePolicies } from './roles.ts';
import { workspaceColumn } from './workspaces.table.ts';

/**
 * A monthly budget of an ad account (`campaign_external_id` empty) or of one of its campaigns, in the account
 * currency's major units (ADR 0124). The months an alert was raised for are kept so each is raised once a month.
 */
export const monthlyBudgets = pgTable(
  'monthly_budgets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceColumn(),
    adAccountId: uuid('ad_account_id')
      .notNull()
      .references(() => adAccounts.id, { onDelete: 'cascade' }),
    /** '' for the whole account, else Meta's campaign id. */
    campaignExternalId: text('campaign_external_id').notNull().default(''),
    amount: numeric('amount', { precision: 18, scale: 2, mode: 'number' }).notNull(),
    /** The local month (YYYY-MM) the "ahead of budget" alert was last raised for. */
    overAlertedMonth: text('over_alerted_month'),
    /** The local month (YYYY-MM) the "behind budget" alert was last raised for. */
    underAlertedMonth: text('under_alerted_month'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('monthly_budgets_account_campaign_unique').on(t.adAccountId, t.campaignExternalId),
    index('monthly_budgets_workspace_idx').on(t.workspaceId),
    ...workspacePolicies('monthly_budgets', t.workspaceId),
  ],
);

/**
 * One anomaly episode (ADR 0125): a metric of an account (or a campaign's zero delivery) away from its own
 * baseline, open from the first check that saw it until the first that did not. One entry and one notification
 * per episode; `muted_until` silences the account's new episodes.
 */
export const anomalyEpisodes = pgTable(
  'anomaly_episodes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceColumn(),
    adAccountId: uuid('ad_account_id')
      .notNull()
      .references(() => adAccounts.id, { onDelete: 'cascade' }),
    /** spend, results, cpa, cpm, or no_delivery (a campaign's). */
    metric: text('metric').notNull(),
    /** '' for the account, else the campaign's Meta id (no_delivery). */
    entityExternalId: text('entity_external_id').notNull().default(''),
    direction: text('direction', { enum: ['up', 'down'] }).notNull(),
    /** The local day the episode was first seen on. */
    day: date('day', { mode: 'string' }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** Whether the episode was written to the log (false: the account was muted when it began). */
    notified: boolean('notified').notNull(),
  },
  (t) => [
    uniqueIndex('anomaly_episodes_open_unique')
      .on(t.adAccountId, t.metric, t.entityExternalId)
      .where(sql`${t.endedAt} is null`),
    index('anomaly_episodes_workspace_idx').on(t.workspaceId),
    ...workspacePolicies('anomaly_episodes', t.workspaceId),
  ],
);

export type MonthlyBudgetRow = typeof monthlyBudgets.$inferSelect;
export type AnomalyEpisodeRow = typeof anomalyEpisodes.$inferSelect;
