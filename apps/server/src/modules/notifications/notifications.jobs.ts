import { z } from 'zod';
import { NOTIFY_JOBS, type NotificationDispatcher } from './notification-dispatcher.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { registeredJob } from '../../jobs/job-registry.ts';
import type { LineDelivery } from './line-delivery.ts';

export interface WebhookRetry {
  /** Attempts after the first. */
  limit: number;
  /** The first wait; pg-boss doubles it each time (with jitter). */
  delaySeconds: number;
}

export const DEFAULT_WEBHOOK_RETRY: WebhookRetry = { limit: 5, delaySeconds: 30 };

const entryPayload = z.object({ userId: z.uuid(), workspaceId: z.uuid(), activityId: z.uuid() });

/**
 * The notifier's jobs (ADR 0038): the minute scan, per-user nudges, one job per mail, call or LINE push, the digests.
 * `retry` is the webhook's and LINE's.
 */
export function defineNotificationJobs(
  queue: JobQueue,
  dispatcher: NotificationDispatcher,
  line: LineDelivery,
  retry: WebhookRetry = DEFAULT_WEBHOOK_RETRY,
): void {
  queue.define({
    ...registeredJob(NOTIFY_JOBS.scan),
    payload: z.object({}).loose(),
    retryLimit: 0,
    handler: async () => {
      await dispatcher.scanAll();
    },
  });
  queue.define({
    ...registeredJob(NOTIFY_JOBS.nudge),
    payload: z.object({ workspaceId: z.uuid() }),
    retryLimit: 1,
    retryDelaySeconds: 5,
    handler: async ({ workspaceId }) => {
      await dispatcher.scanWorkspace(workspaceId);
    },
  });
  queue.define({
    ...registeredJob(NOTIFY_JOBS.email),
    payload: entryPayload,
    retryLimit: 5,
    retryDelaySeconds: 60,
    handler: ({ userId, workspaceId, activityId }) => dispatcher.deliverEmail({ workspaceId, userId }, activityId),
  });
  queue.define({
    ...registeredJob(NOTIFY_JOBS.webhook),
    payload: entryPayload,
    retryLimit: retry.limit,
    retryDelaySeconds: retry.delaySeconds,
    expireInSeconds: 120,
    handler: ({ userId, workspaceId, activityId }, job) =>
      dispatcher.deliverWebhook({ workspaceId, userId }, activityId, {
        retryCount: job.retryCount,
        retryLimit: retry.limit,
      }),
  });
  // LINE keeps a retry key for 24 hours: the retries (with the default, about 15 minutes) stay well inside it.
  queue.define({
    ...registeredJob(NOTIFY_JOBS.line),
    payload: entryPayload,
    retryLimit: retry.limit,
    retryDelaySeconds: retry.delaySeconds,
    expireInSeconds: 120,
    handler: ({ userId, workspaceId, activityId }, job) =>
      line.deliver({ workspaceId, userId }, activityId, { retryCount: job.retryCount, retryLimit: retry.limit }),
  });
  queue.define({
    ...registeredJob(NOTIFY_JOBS.digestTick),
    payload: z.object({}).loose(),
    retryLimit: 0,
    handler: async () => {
      await dispatcher.enqueueDueDigests();
    },
  });
  queue.define({
    ...registeredJob(NOTIFY_JOBS.digest),
    payload: z.object({ userId: z.uuid(), workspaceId: z.uuid(), date: z.iso.date() }),
    retryLimit: 5,
    retryDelaySeconds: 60,
    handler: async ({ userId, workspaceId, date }) => {
      await dispatcher.sendDigest({ workspaceId, userId }, date);
    },
  });
}
