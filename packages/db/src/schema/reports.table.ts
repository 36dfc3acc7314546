import { sql } from 'drizzle-orm';
import { check, date, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { workspacePolicies } from './roles.ts';
import { workspaceColumn } from './workspaces.table.ts';

/**
 * A workspace's scheduled report (ADR 0080): how often, in which language, to whom, over which ad accounts (null:
 * all of them, those connected later included). Recipients may be outside the workspace (a client's inbox).
 */
export const reportSchedules = pgTable(
  'report_schedules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceColumn(),
    frequency: text('frequency', { enum: ['weekly', 'monthly'] }).notNull(),
    language: text('language', { enum: ['en', 'th'] }).notNull(),
    recipients: text('recipients').array().notNull(),
    adAccountIds: uuid('ad_account_ids').array(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('report_schedules_workspace_idx').on(t.workspaceId),
    ...workspacePolicies('report_schedules', t.workspaceId),
  ],
);

export type ReportScheduleRow = typeof reportSchedules.$inferSelect;

/**
 * One report of a schedule for one period. A scheduled one is claimed by inserting its row (`pending`) before
 * anything is sent: the partial unique index lets one worker win a period, however many find it due. `sent_to` keeps
 * the addresses already mailed, so a retry after a partial failure mails only the rest.
 */
export const reportDeliveries = pgTable(
  'report_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    scheduleId: uuid('schedule_id')
      .notNull()
      .references(() => reportSchedules.id, { onDelete: 'cascade' }),
    workspaceId: workspaceColumn(),
    periodStart: date('period_start', { mode: 'string' }).notNull(),
    periodEnd: date('period_end', { mode: 'string' }).notNull(),
    trigger: text('trigger', { enum: ['scheduled', 'manual'] }).notNull(),
    status: text('status', { enum: ['pending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    errorCode: text('error_code'),
    recipients: text('recipients').array().notNull(),
    sentTo: text('sent_to')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** What became of each address (ADR 0092): sent, asked to confirm, awaiting, unsubscribed or limited. */
    outcomes: jsonb('outcomes')
      .$type<Record<string, 'sent' | 'confirmation_sent' | 'awaiting_confirmation' | 'unsubscribed' | 'limited'>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The last change of status or attempt. */
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('report_deliveries_scheduled_period_unique')
      .on(t.scheduleId, t.periodStart)
      .where(sql`${t.trigger} = 'scheduled'`),
    index('report_deliveries_schedule_idx').on(t.scheduleId, t.createdAt),
    index('report_deliveries_pending_idx')
      .on(t.at)
      .where(sql`${t.status} = 'pending'`),
    check('report_deliveries_period_check', sql`${t.periodStart} <= ${t.periodEnd}`),
    ...workspacePolicies('report_deliveries', t.workspaceId),
  ],
);

export type ReportDeliveryRow = typeof reportDeliveries.$inferSelect;
