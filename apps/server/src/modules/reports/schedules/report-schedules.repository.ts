import type { RecipientOutcome } from '@adpilot/contracts';
import {
  reportDeliveries,
  reportSchedules,
  type ReportDeliveryRow,
  type ReportScheduleRow,
  type SystemTx,
  type TenantTx,
} from '@adpilot/db';
import { and, asc, count, desc, eq, inArray, lt, max, sql } from 'drizzle-orm';

export interface ScheduleFields {
  frequency: ReportScheduleRow['frequency'];
  language: ReportScheduleRow['language'];
  recipients: string[];
  adAccountIds: string[] | null;
}

/**
 * The report schedules and their deliveries (ADR 0080). Tenant reads and writes filter by the unit of work's
 * workspace as well as row-level security does; the scheduler's scan and claims run on the system path.
 */
export class ReportSchedulesRepository {
  list(tx: TenantTx): Promise<ReportScheduleRow[]> {
    return tx.db
      .select()
      .from(reportSchedules)
      .where(eq(reportSchedules.workspaceId, tx.workspaceId))
      .orderBy(asc(reportSchedules.createdAt), asc(reportSchedules.id));
  }

  async find(tx: TenantTx, id: string): Promise<ReportScheduleRow | undefined> {
    const [row] = await tx.db
      .select()
      .from(reportSchedules)
      .where(and(eq(reportSchedules.id, id), eq(reportSchedules.workspaceId, tx.workspaceId)));
    return row;
  }

  /**
   * Serialises the schedule creations of one workspace until the unit of work ends, so a count read after it stays
   * true until the insert commits (parallel creates past the limit cannot all see room).
   */
  async lockCreation(tx: TenantTx): Promise<void> {
    await tx.db.execute(sql`select pg_advisory_xact_lock(hashtext('report_schedules'), hashtext(${tx.workspaceId}))`);
  }

  async countIn(tx: TenantTx): Promise<number> {
    const [row] = await tx.db
      .select({ count: count() })
      .from(reportSchedules)
      .where(eq(reportSchedules.workspaceId, tx.workspaceId));
    return row?.count ?? 0;
  }

  async insert(tx: TenantTx, fields: ScheduleFields, at: Date): Promise<ReportScheduleRow> {
    const [row] = await tx.db
      .insert(reportSchedules)
      .values({ ...fields, workspaceId: tx.workspaceId, createdAt: at, updatedAt: at })
      .returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  async update(tx: TenantTx, id: string, fields: Partial<ScheduleFields>, at: Date) {
    const [row] = await tx.db
      .update(reportSchedules)
      .set({ ...fields, updatedAt: at })
      .where(and(eq(reportSchedules.id, id), eq(reportSchedules.workspaceId, tx.workspaceId)))
      .returning();
    return row;
  }

  async delete(tx: TenantTx, id: string): Promise<boolean> {
    const rows = await tx.db
      .delete(reportSchedules)
      .where(and(eq(reportSchedules.id, id), eq(reportSchedules.workspaceId, tx.workspaceId)))
      .returning({ id: reportSchedules.id });
    return rows.length > 0;
  }

  /** Each schedule's latest finished delivery (sent or failed). */
  async lastDeliveries(tx: TenantTx, scheduleIds: string[]): Promise<Map<string, ReportDeliveryRow>> {
    if (scheduleIds.length === 0) return new Map();
    const rows = await tx.db
      .selectDistinctOn([reportDeliveries.scheduleId])
      .from(reportDeliveries)
      .where(
        and(
          eq(reportDeliveries.workspaceId, tx.workspaceId),
          inArray(reportDeliveries.scheduleId, scheduleIds),
          inArray(reportDeliveries.status, ['sent', 'failed']),
        ),
      )
      .orderBy(reportDeliveries.scheduleId, desc(reportDeliveries.at), desc(reportDeliveries.id));
    return new Map(rows.map((row) => [row.scheduleId, row]));
  }

  /** The period starts the clock already claimed for these schedules, latest only (what `nextDueAt` needs). */
  async latestScheduledStarts(tx: TenantTx | SystemTx, scheduleIds: string[]): Promise<Map<string, string>> {
    if (scheduleIds.length === 0) return new Map();
    const rows = await tx.db
      .select({ scheduleId: reportDeliveries.scheduleId, start: max(reportDeliveries.periodStart) })
      .from(reportDeliveries)
      .where(and(inArray(reportDeliveries.scheduleId, scheduleIds), eq(reportDeliveries.trigger, 'scheduled')))
      .groupBy(reportDeliveries.scheduleId);
    return new Map(rows.flatMap((row) => (row.start ? [[row.scheduleId, row.start] as const] : [])));
  }

  /** Every schedule of every workspace (the scheduler's scan). */
  allSchedules(tx: SystemTx): Promise<ReportScheduleRow[]> {
    return tx.db.select().from(reportSchedules).orderBy(asc(reportSchedules.workspaceId), asc(reportSchedules.id));
  }

  /**
   * Claims a schedule's period for the clock: the row goes in unless one exists for that period (the partial unique
   * index), so of the workers that found it due exactly one gets an id back.
   */
  async claimScheduled(
    tx: TenantTx,
    schedule: ReportScheduleRow,
    period: { start: string; end: string },
    at: Date,
  ): Promise<ReportDeliveryRow | undefined> {
    const [row] = await tx.db
      .insert(reportDeliveries)
      .values(deliveryValues(tx, schedule, period, 'scheduled', at))
      .onConflictDoNothing({
        target: [reportDeliveries.scheduleId, reportDeliveries.periodStart],
        where: sql`${reportDeliveries.trigger} = 'scheduled'`,
      })
      .returning();
    return row;
  }

  async insertManual(
    tx: TenantTx,
    schedule: ReportScheduleRow,
    period: { start: string; end: string },
    at: Date,
  ): Promise<ReportDeliveryRow> {
    const [row] = await tx.db
      .insert(reportDeliveries)
      .values(deliveryValues(tx, schedule, period, 'manual', at))
      .returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  async findDelivery(tx: TenantTx, id: string): Promise<ReportDeliveryRow | undefined> {
    const [row] = await tx.db
      .select()
      .from(reportDeliveries)
      .where(and(eq(reportDeliveries.id, id), eq(reportDeliveries.workspaceId, tx.workspaceId)));
    return row;
  }

  /** Notes one more address mailed (a retry skips it). */
  /** Notes an address as done, with what became of it (ADR 0092): a retry mails only the others. */
  async markSentTo(tx: TenantTx, id: string, address: string, outcome: RecipientOutcome): Promise<void> {
    await tx.db
      .update(reportDeliveries)
      .set({
        sentTo: sql`array_append(${reportDeliveries.sentTo}, ${address})`,
        outcomes: sql`${reportDeliveries.outcomes} || jsonb_build_object(${address}::text, ${outcome}::text)`,
      })
      .where(and(eq(reportDeliveries.id, id), eq(reportDeliveries.workspaceId, tx.workspaceId)));
  }

  async finish(
    tx: TenantTx,
    id: string,
    change: { status: ReportDeliveryRow['status']; attempts: number; errorCode: string | null; at: Date },
  ): Promise<ReportDeliveryRow> {
    const [row] = await tx.db
      .update(reportDeliveries)
      .set(change)
      .where(and(eq(reportDeliveries.id, id), eq(reportDeliveries.workspaceId, tx.workspaceId)))
      .returning();
    if (!row) throw new Error('update returned no row');
    return row;
  }

  /**
   * Deliveries still pending since before `before`: their job or their request was lost (a clock's claim whose
   * process crashed before the enqueue, a "Send now" whose process ended mid-send). Addresses already mailed are
   * recorded, so sending them again mails only the rest.
   */
  stalePending(tx: SystemTx, before: Date): Promise<{ id: string; workspaceId: string }[]> {
    return tx.db
      .select({ id: reportDeliveries.id, workspaceId: reportDeliveries.workspaceId })
      .from(reportDeliveries)
      .where(and(eq(reportDeliveries.status, 'pending'), lt(reportDeliveries.at, before)))
      .limit(100);
  }
}

/** A new delivery of `schedule` for `period`, to the schedule's recipients as they are now. */
function deliveryValues(
  tx: TenantTx,
  schedule: ReportScheduleRow,
  period: { start: string; end: string },
  trigger: 'scheduled' | 'manual',
  at: Date,
) {
  return {
    scheduleId: schedule.id,
    workspaceId: tx.workspaceId,
    periodStart: period.start,
    periodEnd: period.end,
    trigger,
    recipients: schedule.recipients,
    createdAt: at,
    at,
  };
}
