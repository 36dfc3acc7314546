import { workspaceJob } from '../../lib/scope.ts';
import { rangeEnd, rangeStart, type ActivityLog, type LogFilters } from '@adpilot/contracts';
import type { ChannelListener, Unlisten } from '@adpilot/db';
import type { FastifyBaseLogger } from 'fastify';
import { matchesFilters } from './activity.presenter.ts';
import type { ActivityService } from './activity.service.ts';

/** The channel the `activity_logs_notify` trigger notifies on commit, with the payload `<workspaceId>:<seq>`. */
export const ACTIVITY_CHANNEL = 'activity_logs';

/** Entries read per query when catching up or following; a larger backlog is read in several. */
const BATCH = 500;

interface Subscriber {
  filters: LogFilters;
  bounds: { from?: Date; to?: Date };
  /** The highest seq this subscriber is past (sent, or skipped by its filters). */
  last: number;
  /** While its backlog is read, what the workspace's channel brings waits here. */
  pending: ActivityLog[] | null;
  send: (log: ActivityLog) => void;
}

/** One workspace followed by this process: the highest seq read, and the streams open for that workspace here. */
interface WorkspaceChannel {
  last: number;
  ready: Promise<void>;
  subscribers: Set<Subscriber>;
  reading: boolean;
  again: boolean;
}

export interface StreamSubscription {
  close(): void;
}

/** What a stream asks of the workspaces module: whether its user is still a member, and word when that may change. */
export interface StreamMemberships {
  resolve(userId: string, workspaceId: string): Promise<unknown>;
  watch(userId: string, onChange: () => void): () => void;
}

/**
 * The live stream's hub in one API process (ADR 0035). The database notifies `<workspace>:<seq>` when an entry commits
 * (any process); the hub reads that workspace's new entries once and hands each to its open streams here. A
 * stream resuming from `seq` k first reads its backlog (> k) while new entries wait, then joins: a workspace's entries
 * commit in seq order, so between the backlog and the channel nothing is missed and nothing is sent twice.
 */
export class ActivityStream {
  private readonly channels = new Map<string, WorkspaceChannel>();
  private started: Promise<Unlisten> | undefined;
  private closed = false;

  constructor(
    private readonly deps: {
      service: ActivityService;
      /** `database.listen` on ACTIVITY_CHANNEL: Postgres LISTEN on a connection of its own, or PGlite's listen. */
      listen: (listener: ChannelListener) => Promise<Unlisten>;
      log: FastifyBaseLogger;
    },
  ) {}

  /** Listens once per process, on the first stream; the listener is running before any stream reads the log. */
  private start(): Promise<Unlisten> {
    this.started ??= this.deps.listen({
      onMessage: (payload) => {
        const [workspaceId, seq] = payload.split(':');
        const n = Number(seq);
        if (workspaceId && Number.isSafeInteger(n)) this.signal(workspaceId, n);
      },
      // Notifications sent while the connection was down are lost: re-read every followed workspace.
      onReset: (listening) => {
        if (listening) for (const workspaceId of this.channels.keys()) this.read(workspaceId);
      },
    });
    return this.started;
  }

  /**
   * Follows one workspace's entries matching `filters`, from after `lastSeq` (the Last-Event-ID), or from now when it is
   * absent. `send` gets each entry once, in seq order.
   */
  async subscribe(
    workspaceId: string,
    filters: LogFilters,
    lastSeq: number | undefined,
    send: (log: ActivityLog) => void,
  ): Promise<StreamSubscription> {
    if (this.closed) throw new Error('the activity stream is closed');
    await this.start();
    const channel = this.channel(workspaceId);
    await channel.ready;
    const subscriber: Subscriber = {
      filters,
      bounds: {
        ...(filters.from ? { from: rangeStart(filters.from) } : {}),
        ...(filters.to ? { to: rangeEnd(filters.to) } : {}),
      },
      last: 0,
      pending: [],
      send,
    };
    channel.subscribers.add(subscriber);
    const subscription = { close: () => this.leave(workspaceId, subscriber) };
    try {
      if (lastSeq === undefined) {
        subscriber.last = await this.deps.service.lastSeq(workspaceJob(workspaceId));
      } else {
        subscriber.last = lastSeq;
        for (;;) {
          const rows = await this.deps.service.after(workspaceJob(workspaceId), filters, subscriber.last, BATCH);
          for (const row of rows) this.deliver(subscriber, row);
          if (rows.length < BATCH) break;
        }
      }
      const waiting = subscriber.pending ?? [];
      subscriber.pending = null;
      for (const row of waiting) this.deliver(subscriber, row);
    } catch (error) {
      subscription.close();
      throw error;
    }
    return subscription;
  }

  /** Streams open in this process now (the metrics' gauge). */
  openStreams(): number {
    let open = 0;
    for (const channel of this.channels.values()) open += channel.subscribers.size;
    return open;
  }

  private deliver(subscriber: Subscriber, log: ActivityLog): void {
    if (log.seq <= subscriber.last) return;
    subscriber.last = log.seq;
    if (matchesFilters(log, subscriber.filters, subscriber.bounds)) subscriber.send(log);
  }

  private channel(workspaceId: string): WorkspaceChannel {
    let channel = this.channels.get(workspaceId);
    if (!channel) {
      const created: WorkspaceChannel = {
        last: 0,
        ready: Promise.resolve(),
        subscribers: new Set(),
        reading: false,
        again: false,
      };
      // The listener runs before this read: whatever commits after it is notified, whatever before it is covered
      // by each subscriber's own backlog.
      created.ready = this.deps.service.lastSeq(workspaceJob(workspaceId)).then(
        (last) => {
          created.last = last;
        },
        (error: unknown) => {
          this.channels.delete(workspaceId);
          throw error;
        },
      );
      this.channels.set(workspaceId, created);
      channel = created;
    }
    return channel;
  }

  private leave(workspaceId: string, subscriber: Subscriber): void {
    const channel = this.channels.get(workspaceId);
    if (!channel) return;
    channel.subscribers.delete(subscriber);
    if (channel.subscribers.size === 0) this.channels.delete(workspaceId);
  }

  private signal(workspaceId: string, seq: number): void {
    const channel = this.channels.get(workspaceId);
    if (channel && seq > channel.last) this.read(workspaceId);
  }

  /** Reads the workspace's entries past the channel's last and fans them out; one read at a time per workspace. */
  private read(workspaceId: string): void {
    const channel = this.channels.get(workspaceId);
    if (!channel) return;
    if (channel.reading) {
      channel.again = true;
      return;
    }
    channel.reading = true;
    void (async () => {
      try {
        await channel.ready;
        do {
          channel.again = false;
          for (;;) {
            const rows = await this.deps.service.after(workspaceJob(workspaceId), {}, channel.last, BATCH);
            for (const row of rows) {
              channel.last = row.seq;
              for (const subscriber of channel.subscribers) {
                if (subscriber.pending) subscriber.pending.push(row);
                else this.deliver(subscriber, row);
              }
            }
            if (rows.length < BATCH) break;
          }
        } while (channel.again);
      } catch (error) {
        this.deps.log.error({ err: error }, 'activity stream could not read new entries');
      } finally {
        channel.reading = false;
      }
    })();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.channels.clear();
    if (this.started) await (await this.started.catch(() => undefined))?.().catch(() => undefined);
  }
}
