import { z } from 'zod';
import { RECIPIENT_OUTCOMES } from './outbound-mail.ts';
import { text } from './text.ts';
import {
  REPORT_FREQUENCIES,
  REPORT_LANGUAGES,
  REPORT_RECIPIENTS_MAX,
  REPORT_SCHEDULE_MESSAGES,
} from './validation-messages.ts';

/**
 * Scheduled reports: per workspace, weekly or monthly, in English or Thai, mailed to members and outside addresses
 * (a client without an account) with a summary in the body and the report as a PDF attachment.
 *
 * A weekly report covers the last full Monday–Sunday week, a monthly one the last full calendar month, both in the
 * time zone of the schedule's first ad account (UTC without one), compared with the period before. It is due at
 * 08:00 local time on the day after its period ends and is sent once per period, whichever worker finds it due.
 */

/** A due report that failed to send is tried this many times in all before the failure is logged. */
export const REPORT_SEND_ATTEMPTS = 3;

const recipient = text({ required: REPORT_SCHEDULE_MESSAGES.recipientInvalid, trim: true })
  .max(254, REPORT_SCHEDULE_MESSAGES.recipientInvalid)
  .pipe(z.email({ error: REPORT_SCHEDULE_MESSAGES.recipientInvalid }))
  .transform((value) => value.toLowerCase())
  .meta({ format: 'email' });

const recipients = z
  .array(recipient, { error: REPORT_SCHEDULE_MESSAGES.recipientsRequired })
  .min(1, REPORT_SCHEDULE_MESSAGES.recipientsRequired)
  .max(REPORT_RECIPIENTS_MAX, REPORT_SCHEDULE_MESSAGES.recipientsTooMany)
  .refine((list) => new Set(list).size === list.length, REPORT_SCHEDULE_MESSAGES.recipientsDuplicate);

/** Absent or null: every ad account of the workspace, those connected later included. */
const adAccountIds = z
  .array(z.uuid({ error: REPORT_SCHEDULE_MESSAGES.adAccountInvalid }))
  .min(1, REPORT_SCHEDULE_MESSAGES.adAccountsEmpty)
  .max(100)
  .nullable();

const scheduleFields = {
  frequency: z.enum(REPORT_FREQUENCIES, { error: REPORT_SCHEDULE_MESSAGES.frequencyInvalid }),
  language: z.enum(REPORT_LANGUAGES, { error: REPORT_SCHEDULE_MESSAGES.languageInvalid }),
  recipients,
  adAccountIds,
};

/** POST /api/reports/schedules (201). */
export const createReportScheduleSchema = z.strictObject({
  ...scheduleFields,
  adAccountIds: adAccountIds.optional().default(null),
});
export type CreateReportScheduleInput = z.infer<typeof createReportScheduleSchema>;

/** PATCH /api/reports/schedules/:id: any of the fields. */
export const updateReportScheduleSchema = z
  .strictObject({
    frequency: scheduleFields.frequency.optional(),
    language: scheduleFields.language.optional(),
    recipients: recipients.optional(),
    adAccountIds: adAccountIds.optional(),
  })
  .refine(
    (input) => Object.values(input).some((value) => value !== undefined),
    REPORT_SCHEDULE_MESSAGES.nothingToChange,
  );
export type UpdateReportScheduleInput = z.infer<typeof updateReportScheduleSchema>;

export const reportScheduleIdParamsSchema = z.strictObject({
  id: z.uuid({ error: REPORT_SCHEDULE_MESSAGES.notFound }),
});

export const REPORT_DELIVERY_STATUSES = ['sent', 'failed'] as const;
export type ReportDeliveryStatus = (typeof REPORT_DELIVERY_STATUSES)[number];

/** One period's report of a schedule as it went out (or finally failed to). */
export const reportDeliverySchema = z.object({
  id: z.uuid(),
  /** The period the report covered, local dates of the schedule's time zone, both included. */
  periodStart: z.string(),
  periodEnd: z.string(),
  status: z.enum(REPORT_DELIVERY_STATUSES),
  /** `scheduled` by the clock, `manual` by "Send now". */
  trigger: z.enum(['scheduled', 'manual']),
  recipients: z.array(z.string()),
  /**
   * What became of each address mailed so far (ADR 0092): the report, the first mail asking an outside address to
   * confirm, nothing while it has not confirmed or after it unsubscribed, or nothing because a day's budget was spent.
   */
  outcomes: z.record(z.string(), z.enum(RECIPIENT_OUTCOMES)),
  attempts: z.number().int(),
  /** The last failure's code (an error code, not words) when the status is failed. */
  errorCode: z.string().nullable(),
  at: z.string(),
});
export type ReportDelivery = z.infer<typeof reportDeliverySchema>;

export const reportScheduleSchema = z.object({
  id: z.uuid(),
  frequency: z.enum(REPORT_FREQUENCIES),
  language: z.enum(REPORT_LANGUAGES),
  recipients: z.array(z.string()),
  adAccountIds: z.array(z.uuid()).nullable(),
  /** The IANA zone the periods are read in (the first account's), and when the next report is due. */
  timeZone: z.string(),
  nextDueAt: z.string(),
  /** The latest delivery, if any. */
  lastDelivery: reportDeliverySchema.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ReportSchedule = z.infer<typeof reportScheduleSchema>;

/** GET /api/reports/schedules. */
export const reportScheduleListSchema = z.array(reportScheduleSchema);
