import {
  LOG_MESSAGES,
  LOG_STREAM_RETRY_SECONDS,
  activityLogSchema,
  clearLogsRequestSchema,
  createLogRequestSchema,
  deletedCountSchema,
  deleteLogsRequestSchema,
  exportLogsQuerySchema,
  listLogsQuerySchema,
  logIdParamsSchema,
  logListSchema,
  logStatsQuerySchema,
  logStatsSchema,
  streamLogsQuerySchema,
  successEnvelope,
} from '@adpilot/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Readable } from 'node:stream';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.ts';
import { currentUser, currentWorkspace, scopeOf } from '../../plugins/authenticate.ts';
import type { AuthService } from '../auth/index.ts';
import type { ActivityStream, StreamMemberships } from './activity-stream.ts';
import type { ActivityService } from './activity.service.ts';
import { openEventStream } from './event-stream.ts';
import type { StreamSlots } from './stream-slots.ts';

interface ActivityRoutesDeps {
  activity: ActivityService;
  activityStream: ActivityStream;
  /** How often an open log stream sends a heartbeat (LOG_STREAM_HEARTBEAT_MS). */
  heartbeatMs: number;
  /** Whether a stream's session still stands: auth's answer, asked before each heartbeat. */
  sessions: Pick<AuthService, 'sessionRole'>;
  memberships: StreamMemberships;
  /** The cap on each user's open streams in this process (LOG_STREAMS_PER_USER). */
  slots: StreamSlots;
  now: () => Date;
}

const tags = ['logs'];

/** The access token a request was let in with (the stream's ends when it expires). */
function tokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim();
  const token = (request.query as { token?: unknown }).token;
  return typeof token === 'string' ? token : undefined;
}

/** Spec §7 Logs: every route is the signed-in user's; a foreign id answers 404. */
export const activityRoutes: FastifyPluginAsyncZod<ActivityRoutesDeps> = async (
  app,
  { activity, activityStream, heartbeatMs, sessions, memberships, slots, now },
) => {
  app.addHook('onRequest', app.requireAuth);

  app.get(
    '/',
    { schema: { tags, querystring: listLogsQuerySchema, response: { 200: successEnvelope(logListSchema) } } },
    async (request) => ({
      success: true as const,
      data: await activity.list(scopeOf(request), request.query),
    }),
  );

  app.post(
    '/',
    { schema: { tags, body: createLogRequestSchema, response: { 201: successEnvelope(activityLogSchema) } } },
    async (request, reply) => {
      reply.status(201);
      return { success: true as const, data: await activity.createNote(scopeOf(request), request.body) };
    },
  );

  app.delete(
    '/',
    {
      config: { role: 'owner' },
      schema: { tags, body: deleteLogsRequestSchema, response: { 200: successEnvelope(deletedCountSchema) } },
    },
    async (request) => ({
      success: true as const,
      data: { deletedCount: await activity.deleteMany(scopeOf(request), request.body.ids) },
    }),
  );

  app.post(
    '/clear',
    {
      config: { role: 'owner' },
      schema: {
        tags,
        body: clearLogsRequestSchema.nullish(),
        response: { 200: successEnvelope(deletedCountSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: { deletedCount: await activity.clear(scopeOf(request), request.body ?? {}) },
    }),
  );

  app.get(
    '/stats',
    { schema: { tags, querystring: logStatsQuerySchema, response: { 200: successEnvelope(logStatsSchema) } } },
    async (request) => ({
      success: true as const,
      data: await activity.stats(scopeOf(request), request.query),
    }),
  );

  app.get(
    '/export',
    {
      schema: {
        tags,
        querystring: exportLogsQuerySchema,
        response: {
          200: {
            description: 'The entries as a file (CSV or a JSON array), streamed',
            content: { 'text/csv': { schema: z.string() }, 'application/json': { schema: z.array(activityLogSchema) } },
          },
        },
      },
    },
    async (request, reply) => {
      const { format } = request.query;
      const day = new Date().toISOString().slice(0, 10);
      reply
        .type(format === 'json' ? 'application/json; charset=utf-8' : 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="adpilot-activity-${day}.${format}"`)
        .header('cache-control', 'no-store');
      // A stream is piped as it is (no serializer runs); the schema above only documents the file.
      const file = Readable.from(activity.exportChunks(scopeOf(request), request.query));
      return reply.send(file as unknown as string);
    },
  );

  app.get(
    '/stream',
    {
      // EventSource cannot send headers: the token may come as `?token=` (the request log redacts it).
      config: { allowQueryToken: true },
      // Each event must leave as it is written: a compressor would hold them until its buffer fills (ADR 0056).
      compress: false,
      schema: {
        tags,
        querystring: streamLogsQuerySchema,
        response: {
          200: {
            description: 'Server-sent events: each message one log entry (JSON) with its `id:`; comments as heartbeats',
            content: { 'text/event-stream': { schema: z.string() } },
          },
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { workspaceId } = currentWorkspace(request);
      const header = request.headers['last-event-id'];
      const resumeFrom =
        (typeof header === 'string' && header.trim() !== '' ? header.trim() : undefined) ?? request.query.lastEventId;
      if (resumeFrom !== undefined && !/^\d{1,15}$/.test(resumeFrom))
        throw AppError.badRequest(LOG_MESSAGES.lastEventId, 'VALIDATION_ERROR');
      const { token: _token, lastEventId: _last, workspaceId: _workspace, ...filters } = request.query;
      // Taken before anything is awaited, so parallel opens are counted one by one (ADR 0086).
      const release = slots.take(user.id);
      if (!release) throw AppError.tooManyRequests(LOG_MESSAGES.tooManyStreams, LOG_STREAM_RETRY_SECONDS);
      await openEventStream(request, reply, {
        stream: activityStream,
        workspaceId,
        filters,
        lastSeq: resumeFrom === undefined ? undefined : Number(resumeFrom),
        token: tokenOf(request),
        heartbeatMs,
        // A stream ends when its session does, or when its user leaves the workspace (checked the moment the
        // membership cache hears of a change, and at each heartbeat).
        sessionLive: async () =>
          (await sessions.sessionRole(user.sessionId, user.id)) !== null &&
          (await memberships.resolve(user.id, workspaceId)) !== null,
        changes: (check) => memberships.watch(user.id, check),
        release,
        now,
      });
    },
  );

  app.get(
    '/:id',
    { schema: { tags, params: logIdParamsSchema, response: { 200: successEnvelope(activityLogSchema) } } },
    async (request) => ({
      success: true as const,
      data: await activity.get(scopeOf(request), request.params.id),
    }),
  );
};
