import { z } from 'zod';
import { MetaApiError, MetaTransientError } from './errors.ts';
import type { GraphTransport } from './graph-transport.ts';
import { insightsWireRowSchema, reportRunSchema } from './wire-types.ts';

export interface ReportPolling {
  sleep: (ms: number) => Promise<void>;
  /** First wait between status polls; it grows by half each poll up to `maxIntervalMs`. */
  initialIntervalMs: number;
  maxIntervalMs: number;
  /** Give up after this many status polls. */
  maxPolls: number;
}

const startSchema = z.looseObject({ report_run_id: z.string() });

/**
 * Meta's async insights: POST the query, poll the report run until "Job Completed", then page through its rows.
 * For ranges too big to answer in one synchronous request.
 */
export async function runInsightsReport(
  transport: GraphTransport,
  polling: ReportPolling,
  request: { token: string; objectId: string; params: Record<string, string>; accountId?: string },
): Promise<Record<string, unknown>[]> {
  const { token, objectId, params, accountId } = request;
  const context = { token, ...(accountId ? { accountId } : {}) };
  const { limit, ...query } = params;
  const startRequest = { method: 'POST' as const, path: `${objectId}/insights`, params: query, ...context };
  const started = transport.parse(startSchema, await transport.call(startRequest), startRequest);
  const runId = started.report_run_id;

  let interval = polling.initialIntervalMs;
  for (let poll = 0; poll < polling.maxPolls; poll++) {
    await polling.sleep(interval);
    interval = Math.min(polling.maxIntervalMs, Math.round(interval * 1.5));
    const statusRequest = {
      method: 'GET' as const,
      path: runId,
      params: { fields: 'id,async_status,async_percent_completion' },
      ...context,
    };
    const status = transport.parse(reportRunSchema, await transport.call(statusRequest), statusRequest);
    if (status.async_status === 'Job Completed') {
      return transport.listAll(
        { method: 'GET', path: `${runId}/insights`, params: { limit }, ...context },
        insightsWireRowSchema,
      );
    }
    if (status.async_status === 'Job Failed' || status.async_status === 'Job Skipped') {
      throw new MetaTransientError({
        message: `Insights report ${runId} ended with "${status.async_status}"`,
        code: 0,
        type: 'AsyncReport',
      });
    }
  }
  throw new MetaApiError({
    message: `Insights report ${runId} did not complete after ${polling.maxPolls} polls`,
    code: 0,
    type: 'AsyncReport',
    isTransient: true,
  });
}
