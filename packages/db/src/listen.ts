import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/** What a subscriber hears on a channel. */
export interface ChannelListener {
  /** One `NOTIFY` payload, delivered after the notifying transaction committed. */
  onMessage(payload: string): void;
  /**
   * The connection that listens was lost or (re)established: notifications may have been missed in between, so
   * anything kept on their strength (a cache) must be dropped. Called with `false` when listening stops working,
   * `true` once it works again.
   */
  onReset?(listening: boolean): void;
}

export type Unlisten = () => Promise<void>;

/** `LISTEN` on the embedded database: one process, notifications come with the statement that committed them. */
export async function listenPglite(pglite: PGlite, channel: string, listener: ChannelListener): Promise<Unlisten> {
  const unlisten = await pglite.listen(channel, (payload) => listener.onMessage(payload));
  listener.onReset?.(true);
  return unlisten;
}

const RECONNECT_DELAYS_MS = [100, 500, 2000, 5000];

/**
 * `LISTEN` on Postgres: a dedicated connection per channel that reconnects by itself. While it is down the
 * listener is told (`onReset(false)`), so it stops trusting what it kept; on reconnect `onReset(true)`.
 */
export async function listenPostgres(url: string, channel: string, listener: ChannelListener): Promise<Unlisten> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Not a channel name: ${channel}`);
  let client: pg.Client | undefined;
  let stopped = false;
  let attempt = 0;
  let timer: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (message) => {
      if (message.channel === channel) listener.onMessage(message.payload ?? '');
    });
    const lost = () => {
      if (client !== next || stopped) return;
      client = undefined;
      listener.onReset?.(false);
      schedule();
    };
    next.on('error', lost);
    next.on('end', lost);
    try {
      await next.connect();
      await next.query(`listen ${channel}`);
    } catch (error) {
      await next.end().catch(() => undefined);
      throw error;
    }
    if (stopped) {
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
    attempt = 0;
    listener.onReset?.(true);
  };

  const schedule = () => {
    if (stopped) return;
    const delay = RECONNECT_DELAYS_MS[Math.min(attempt, RECONNECT_DELAYS_MS.length - 1)]!;
    attempt += 1;
    timer = setTimeout(() => {
      connect().catch(schedule);
    }, delay);
    timer.unref();
  };

  await connect();
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    const current = client;
    client = undefined;
    await current?.end().catch(() => undefined);
  };
}
