import { LOG_STREAMS_PER_USER } from '@adpilot/contracts';
import type { DatabaseHandle } from '@adpilot/db';
import type { FastifyBaseLogger } from 'fastify';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { bindRoutes } from '../../lib/bind-routes.ts';
import type { AuthService } from '../auth/index.ts';
import { defineActivityJobs } from './activity.jobs.ts';
import type { ActivityRepository } from './activity.repository.ts';
import { activityRoutes } from './activity.routes.ts';
import { ACTIVITY_CHANNEL, ActivityStream, type StreamMemberships } from './activity-stream.ts';
import { ActivityService } from './activity.service.ts';
import { StreamSlots } from './stream-slots.ts';

export interface ActivityModuleDeps {
  database: Pick<DatabaseHandle, 'tenant' | 'user' | 'system' | 'listen'>;
  /** The one activity writer every module is handed (context.ts wraps it with the notifier's nudge). */
  writer: ActivityRepository;
  queue: JobQueue;
  /** LOG_RETENTION_DAYS and LOG_STREAM_HEARTBEAT_MS. */
  logs: { retentionDays: number; streamHeartbeatMs: number };
  /** Whether a stream's session still stands (auth's service). */
  sessions: Pick<AuthService, 'sessionRole'>;
  /** The names of the entries' authors (auth's service). */
  profiles: Pick<AuthService, 'profilesIn'>;
  /** Whether a stream's user is still a member of its workspace, and word the moment that may have changed. */
  memberships: StreamMemberships;
  now: () => Date;
  log: FastifyBaseLogger;
}

/**
 * The activity log's API (the Logs page): the service, the live stream and the retention job. Its public API:
 * `stream` (app.ts closes it before the server closes). Writing entries is the writer's, which every module holds.
 */
export function createActivityModule(deps: ActivityModuleDeps) {
  const { database, now, log } = deps;
  // Its notes go through the same writer as every module's, so an error note is sent at once too.
  const service = new ActivityService({
    transactions: database,
    repository: deps.writer,
    profiles: deps.profiles,
  });
  const stream = new ActivityStream({
    service,
    listen: (listener) => database.listen(ACTIVITY_CHANNEL, listener),
    log,
  });
  defineActivityJobs(deps.queue, { activity: service, retentionDays: deps.logs.retentionDays, now, log });
  return {
    service,
    stream,
    routes: bindRoutes(activityRoutes, {
      activity: service,
      activityStream: stream,
      heartbeatMs: deps.logs.streamHeartbeatMs,
      sessions: deps.sessions,
      memberships: deps.memberships,
      slots: new StreamSlots(LOG_STREAMS_PER_USER),
      now,
    }),
  };
}
