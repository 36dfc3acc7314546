// A live log stream that stays open as the web app's keeps it (apps/web's use-log-stream): when the server ends it
// (the access token it was opened with expired, or a restart), it waits the retry hint, refreshes the token when less
// than 30 seconds of it are left, and reconnects with the last id it received, so nothing between is missed. For
// tests and the soak (bench/soak.ts), whose clients must outlive the 15-minute access token.
import { openSse, type SseConnection, type SseMessage } from './sse-client.ts';

/** Seconds left on an access token at `now` (0 when it cannot be read). */
export function tokenSecondsLeft(token: string, now: Date = new Date()): number {
  const payload = token.split('.')[1];
  if (!payload) return 0;
  try {
    const { exp } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof exp === 'number' ? exp - now.getTime() / 1000 : 0;
  } catch {
    return 0;
  }
}

export interface LiveSession {
  /** The access token the client holds now. */
  token(): string | Promise<string>;
  /** The client's refresh of its session (a new access token). */
  refresh(): Promise<void>;
  /** The clock the token's expiry is read on (the real one by default). */
  now?(): Date;
}

export interface LiveStream {
  /** Every message of every connection, in order; an entry is never received twice. */
  readonly messages: SseMessage[];
  /** Times the stream was opened again after the server ended it. */
  readonly reconnects: number;
  /** Attempts to reopen that failed (each retried after the wait), with what failed. */
  readonly failures: string[];
  /** Whether a connection is open now (false while it waits to reconnect). */
  isOpen(): boolean;
  waitFor(predicate: () => boolean, timeoutMs?: number): Promise<void>;
  close(): void;
}

/** The web app's wait before it reconnects, when the server sent no `retry:` hint. */
const RETRY_MS = 2_000;

/**
 * Opens `url` (the stream's address without token or lastEventId) for `session`; the first connection must
 * succeed, later ones are retried until `close`.
 */
export async function openLiveStream(
  url: string,
  session: LiveSession,
  options: { retryMs?: number } = {},
): Promise<LiveStream> {
  const closed: SseConnection[] = [];
  const failures: string[] = [];
  let current: SseConnection | undefined;
  let reconnects = 0;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const messages = () => [...closed.flatMap((connection) => connection.messages), ...(current?.messages ?? [])];
  const connect = async (reconnecting: boolean): Promise<SseConnection> => {
    const lastId = messages().at(-1)?.id;
    // As the web app: the first connection takes the token as it is; a reconnect refreshes a (nearly) spent one.
    if (reconnecting && tokenSecondsLeft(await session.token(), session.now?.()) < 30) await session.refresh();
    const token = await session.token();
    const query = new URLSearchParams({ token, ...(lastId ? { lastEventId: lastId } : {}) });
    const connection = await openSse(`${url}${url.includes('?') ? '&' : '?'}${query}`);
    if (connection.status !== 200) {
      connection.close();
      throw new Error(`the stream answered ${connection.status}`);
    }
    return connection;
  };
  const watch = (connection: SseConnection) => {
    current = connection;
    void connection.ended.then(() => {
      if (stopped) return;
      closed.push(connection);
      current = undefined;
      retry(connection.retries.at(-1) ?? options.retryMs ?? RETRY_MS);
    });
  };
  const retry = (waitMs: number) => {
    timer = setTimeout(() => {
      if (stopped) return;
      connect(true).then(
        (connection) => {
          if (stopped) return connection.close();
          reconnects += 1;
          watch(connection);
        },
        (error: unknown) => {
          failures.push(String(error instanceof Error ? error.message : error));
          retry(options.retryMs ?? RETRY_MS);
        },
      );
    }, waitMs);
  };

  watch(await connect(false));
  return {
    get messages() {
      return messages();
    },
    get reconnects() {
      return reconnects;
    },
    failures,
    isOpen: () => current !== undefined && !current.isEnded(),
    async waitFor(predicate, timeoutMs = 5_000) {
      const until = Date.now() + timeoutMs;
      while (!predicate()) {
        if (Date.now() > until) throw new Error(`timed out waiting (${messages().length} messages so far)`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    close() {
      stopped = true;
      clearTimeout(timer);
      current?.close();
    },
  };
}
