import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { tenantPolicies, workspacePolicies } from './roles.ts';
import { ownerColumn } from './users.table.ts';
import { workspaceColumn } from './workspaces.table.ts';

/**
 * Single-use OAuth `state` values, bound to the user who started the connection (the callback is that user's
 * browser, with no workspace header) and naming the workspace the accounts land in.
 */
export const oauthStates = pgTable(
  'oauth_states',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerColumn(),
    workspaceId: workspaceColumn(),
    stateHash: text('state_hash').notNull(),
    provider: text('provider').notNull(),
    redirectUri: text('redirect_uri').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('oauth_states_hash_unique').on(t.stateHash),
    index('oauth_states_user_idx').on(t.userId),
    ...tenantPolicies('oauth_states', t.userId),
  ],
);

export const adAccounts = pgTable(
  'ad_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceColumn(),
    /** Meta's numeric account id (without the `act_` prefix). */
    facebookAccountId: text('facebook_account_id').notNull(),
    facebookAccountName: text('facebook_account_name').notNull(),
    metaAccountStatus: integer('meta_account_status').notNull(),
    disableReason: integer('disable_reason'),
    currency: text('currency').notNull(),
    timezone: text('timezone').notNull(),
    /**
     * Meta's `min_daily_budget` in the currency's minor units (a JSON number on Meta, unlike the string budgets):
     * rules never plan a budget (daily, or lifetime) under it; null until Meta has told us (ADR 0055).
     */
    minDailyBudget: bigint('min_daily_budget', { mode: 'number' }),
    /** AES-256-GCM ciphertext of the long-lived user token; never leaves the server. */
    accessTokenEnc: text('access_token_enc').notNull(),
    tokenExpiresAt: timestamp('token_expires_at', { withTimezone: true }),
    /**
     * Whose token it is: a person's (Facebook Login, 60 days) or a Business Manager system user's (generated for an
     * agency's business; never expiring, or 60 days), as debug_token's `type` says.
     */
    tokenKind: text('token_kind', { enum: ['user', 'system_user'] })
      .notNull()
      .default('user'),
    needsReauth: boolean('needs_reauth').notNull().default(false),
    isSandbox: boolean('is_sandbox').notNull().default(false),
    /** Permissions the user did not grant (Meta scope names, read with debug_token); without ads_management the account is read-only. */
    missingScopes: text('missing_scopes')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    autoSync: boolean('auto_sync').notNull().default(true),
    /** The anomaly watch's sensitivity (ADR 0125): off, low, medium or high. */
    anomalySensitivity: text('anomaly_sensitivity', { enum: ['off', 'low', 'medium', 'high'] })
      .notNull()
      .default('medium'),
    /** Until when the anomaly watch writes no new episode of this account ("mute 24 h"). */
    anomalyMutedUntil: timestamp('anomaly_muted_until', { withTimezone: true }),
    /** How many days of daily insights the mirror keeps reading back to (ADR 0103): 30 to 1125 (Meta's 37 months). */
    backfillDays: integer('backfill_days').notNull().default(90),
    /**
     * The earliest local day whose daily insights the mirror has read from Meta (null before the first sync): the
     * first sync sets it, the backfill job moves it back a chunk at a time (ADR 0103).
     */
    historyFrom: date('history_from', { mode: 'string' }),
    /** Moves on every write of the account's daily insights: what the explorer's cached sums are keyed by. */
    insightsVersion: bigint('insights_version', { mode: 'number' }).notNull().default(0),
    syncStatus: text('sync_status', { enum: ['idle', 'queued', 'syncing', 'error'] })
      .notNull()
      .default('idle'),
    lastSync: timestamp('last_sync', { withTimezone: true }),
    lastSyncError: text('last_sync_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('ad_accounts_workspace_fb_unique').on(t.workspaceId, t.facebookAccountId),
    index('ad_accounts_workspace_idx').on(t.workspaceId),
    ...workspacePolicies('ad_accounts', t.workspaceId),
  ],
);

/** Our mirror of the account's campaigns, ad sets and ads; budgets in the currency's minor units. */
export const adEntities = pgTable(
  'ad_entities',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceColumn(),
    adAccountId: uuid('ad_account_id')
      .notNull()
      .references(() => adAccounts.id, { onDelete: 'cascade' }),
    level: text('level', { enum: ['campaign', 'adset', 'ad'] }).notNull(),
    externalId: text('external_id').notNull(),
    name: text('name').notNull(),
    status: text('status').notNull(),
    effectiveStatus: text('effective_status').notNull(),
    campaignExternalId: text('campaign_external_id'),
    adsetExternalId: text('adset_external_id'),
    dailyBudget: bigint('daily_budget', { mode: 'number' }),
    lifetimeBudget: bigint('lifetime_budget', { mode: 'number' }),
    createdTime: timestamp('created_time', { withTimezone: true }),
    updatedTime: timestamp('updated_time', { withTimezone: true }),
    syncedAt: timestamp('synced_at', { withTimezone: true }).notNull().defaultNow(),
    /** The last status or budget change made outside AdPilot, as a sync found it, and who made it if Meta said. */
    externalChangeAt: timestamp('external_change_at', { withTimezone: true }),
    externalChangeBy: text('external_change_by'),
    /** Meta's learning phase of an ad set (`learning_stage_info.status`: LEARNING, SUCCESS, FAIL); null elsewhere. */
    learningStatus: text('learning_status'),
  },
  (t) => [
    uniqueIndex('ad_entities_account_external_unique').on(t.adAccountId, t.externalId),
    index('ad_entities_workspace_idx').on(t.workspaceId),
    index('ad_entities_account_level_idx').on(t.adAccountId, t.level),
    ...workspacePolicies('ad_entities', t.workspaceId),
  ],
);

/** One row per entity and day (in the ad account's time zone); spend in the currency's major units. */
export const insightsDaily = pgTable(
  'insights_daily',
  {
    workspaceId: workspaceColumn(),
    adAccountId: uuid('ad_account_id')
      .notNull()
      .references(() => adAccounts.id, { onDelete: 'cascade' }),
    level: text('level', { enum: ['campaign', 'adset', 'ad'] }).notNull(),
    entityExternalId: text('entity_external_id').notNull(),
    date: date('date', { mode: 'string' }).notNull(),
    spend: numeric('spend', { precision: 18, scale: 4, mode: 'number' }).notNull().default(0),
    impressions: bigint('impressions', { mode: 'number' }).notNull().default(0),
    reach: bigint('reach', { mode: 'number' }).notNull().default(0),
    clicks: bigint('clicks', { mode: 'number' }).notNull().default(0),
    linkClicks: bigint('link_clicks', { mode: 'number' }).notNull().default(0),
    conversions: numeric('conversions', { precision: 18, scale: 4, mode: 'number' }).notNull().default(0),
    conversionValue: numeric('conversion_value', { precision: 18, scale: 4, mode: 'number' }).notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true })
      .notNull()
      .default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.adAccountId, t.level, t.entityExternalId, t.date] }),
    index('insights_daily_workspace_idx').on(t.workspaceId),
    index('insights_daily_account_date_idx').on(t.adAccountId, t.date),
    // The explorer's sums of one level over a window (ADR 0100).
    index('insights_daily_account_level_date_idx').on(t.adAccountId, t.level, t.date),
    ...workspacePolicies('insights_daily', t.workspaceId),
  ],
);

export type AdAccountRow = typeof adAccounts.$inferSelect;
export type AdEntityRow = typeof adEntities.$inferSelect;
export type InsightsDailyRow = typeof insightsDaily.$inferSelect;
