import type { ReportDelivery, ReportSchedule } from '@adpilot/contracts';
import type { ReportDeliveryRow, ReportScheduleRow } from '@adpilot/db';

/** A finished delivery as the API shows it; a pending one (being sent) is not shown yet. */
export function presentDelivery(row: ReportDeliveryRow): ReportDelivery {
  return {
    id: row.id,
    periodStart: row.periodStart,
    periodEnd: row.periodEnd,
    status: row.status === 'sent' ? 'sent' : 'failed',
    trigger: row.trigger,
    recipients: row.recipients,
    outcomes: row.outcomes ?? {},
    attempts: row.attempts,
    errorCode: row.status === 'failed' ? row.errorCode : null,
    at: row.at.toISOString(),
  };
}

export function presentSchedule(
  row: ReportScheduleRow,
  extra: { timeZone: string; nextDueAt: Date; lastDelivery: ReportDeliveryRow | undefined },
): ReportSchedule {
  return {
    id: row.id,
    frequency: row.frequency,
    language: row.language,
    recipients: row.recipients,
    adAccountIds: row.adAccountIds,
    timeZone: extra.timeZone,
    nextDueAt: extra.nextDueAt.toISOString(),
    lastDelivery: extra.lastDelivery ? presentDelivery(extra.lastDelivery) : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
