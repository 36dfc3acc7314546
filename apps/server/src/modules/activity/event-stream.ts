import type { ActivityLog, LogFilters } from '@adpilot/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ActivityStream } from './activity-stream.ts';

/** The longest a timer may wait in Node (about 24.8 days); a later expiry is re-armed. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** When an access token expires (its `exp`); requireAuth has already checked its signature and its session. */
export function tokenExpiry(token: string | undefined): Date | undefined {
  const payload = token?.split('.')[1];
  if (!payload) return undefined;
  try {
    const { exp } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof exp === 'number' ? new Date(exp * 1000) : undefined;
  } catch {
    return undefined;
  }
}

/** Messages already encoded: the hub hands the same entry object to every stream of its user. */
const encoded = new WeakMap<ActivityLog, string>();

/**
 * One SSE message: the entry as JSON, its seq as the event id (what Last-Event-ID brings back). Encoded once per
 * entry, however many of the user's streams it goes to.
 */
export function eventOf(log: ActivityLog): string {
  let message = encoded.get(log);
  if (message === undefined) {
    message = `id: ${log.seq}\ndata: ${JSON.stringify(log)}\n\n`;
    encoded.set(log, message);
  }
  return message;
}

export interface EventStreamOptions {
  stream: ActivityStream;
  workspaceId: string;
  filters: LogFilters;
  lastSeq: number | undefined;
  token: string | undefined;
  heartbeatMs: number;
  /** Whether the stream's session still lives: a logout or a password reset ends it at the next heartbeat. */
  sessionLive: () => Promise<boolean>;
  /**
   * Subscribes to moments when the stream's access may have changed (a membership removed or its role changed):
   * each asks `sessionLive` again at once. Answers the unsubscribe.
   */
  changes?: (check: () => void) => () => void;
  /** Gives the user's stream slot back (see StreamSlots): called once, when the stream ends or fails to open. */
  release?: () => void;
  now: () => Date;
}

/** Every open stream of this process, so that a shutdown ends them instead of waiting for them. */
const open = new Set<(retryMs?: number) => void>();

/**
 * Ends every open stream (a graceful stop). Each is told first when to come back, spread over a few seconds, so the
 * clients of a stopped process do not all reconnect to the others in the same instant.
 */
export function endAllEventStreams(): void {
  for (const end of [...open]) end(1000 + Math.floor(Math.random() * 4000));
}

/**
 * Turns the reply into a server-sent-events stream: headers (no proxy buffering), the entries after `lastSeq`
 * and then live ones, a comment every `heartbeatMs`, and the end when the access token expires (the client
 * reconnects with its refreshed token and the last id it saw) or, checked at each heartbeat, when its session ends:
 * an ended session ends every access token issued in it at once (ADR 0004), and an open stream is no exception.
 */
export async function openEventStream(
  request: FastifyRequest,
  reply: FastifyReply,
  options: EventStreamOptions,
): Promise<void> {
  const raw = reply.raw;
  let ended = false;
  let headersSent = false;
  const early: ActivityLog[] = [];
  const timers: NodeJS.Timeout[] = [];
  const held: { subscription?: { close(): void }; unwatch?: () => void } = {};
  const end = (retryMs?: number) => {
    if (ended) return;
    ended = true;
    open.delete(end);
    for (const timer of timers) clearTimeout(timer);
    held.subscription?.close();
    held.unwatch?.();
    options.release?.();
    if (headersSent) raw.end(retryMs === undefined ? undefined : `retry: ${retryMs}\n\n`);
  };
  request.raw.on('close', () => end());

  // Subscribed before the headers go out: once the client sees the stream open, every entry committed from then on
  // reaches it (what arrives meanwhile waits in `early`). A failure here is still an ordinary error answer.
  let subscription: { close(): void };
  try {
    subscription = await options.stream.subscribe(options.workspaceId, options.filters, options.lastSeq, (log) => {
      if (ended) return;
      if (headersSent) raw.write(eventOf(log));
      else early.push(log);
    });
  } catch (error) {
    end();
    throw error;
  }
  held.subscription = subscription;
  if (ended) {
    subscription.close();
    return;
  }

  reply.hijack();
  raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  headersSent = true;
  open.add(end);
  raw.on('error', () => end());
  // Tells EventSource how soon to come back after the stream ends.
  raw.write('retry: 2000\n\n');
  for (const log of early.splice(0)) raw.write(eventOf(log));

  let checking = false;
  const check = () => {
    if (ended || checking) return;
    checking = true;
    options
      .sessionLive()
      .then((live) => {
        if (!live) end();
      })
      // A failed check (the database briefly away) keeps the stream: the next heartbeat asks again.
      .catch(() => undefined)
      .finally(() => {
        checking = false;
      });
  };
  const heartbeat = setInterval(() => {
    if (ended) return;
    raw.write(': heartbeat\n\n');
    check();
  }, options.heartbeatMs);
  timers.push(heartbeat);
  held.unwatch = options.changes?.(check);

  const expiresAt = tokenExpiry(options.token);
  if (expiresAt) {
    const arm = () => {
      const left = expiresAt.getTime() - options.now().getTime();
      if (left <= 0) return end();
      const wait = Math.min(left, MAX_TIMER_MS);
      timers.push(setTimeout(wait === left ? () => end() : arm, wait));
    };
    arm();
  }
}
