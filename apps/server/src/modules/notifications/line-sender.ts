import type { LineFailureCode } from '@adpilot/contracts';

export type LineOutcome =
  | {
      ok: true;
      status: number;
      /** LINE had already accepted a push with this retry key (409): the message went out then, not now. */
      repeated: boolean;
    }
  | { ok: false; code: LineFailureCode; status: number | null; retryable: boolean };

/** One push: a text message to a user, group or chat, sent once however often it is retried with the same key. */
export interface LinePush {
  to: string;
  text: string;
  /** A UUID; LINE accepts a key once and answers 409 to each later request carrying it (for 24 hours). */
  retryKey: string;
}

type Fetch = (url: string, init: RequestInit) => Promise<Response>;

/** A status LINE answered, as what it means for the notifier: only a server error may pass on a retry. */
function outcomeOf(status: number): LineOutcome {
  if (status >= 200 && status < 300) return { ok: true, status, repeated: false };
  if (status === 409) return { ok: true, status, repeated: true };
  if (status === 401) return { ok: false, code: 'unauthorized', status, retryable: false };
  if (status === 403) return { ok: false, code: 'forbidden', status, retryable: false };
  // LINE answers 429 both past the month's messages and past the rate limit; neither passes within the retries.
  if (status === 429) return { ok: false, code: 'quota', status, retryable: false };
  if (status >= 500) return { ok: false, code: 'server', status, retryable: true };
  return { ok: false, code: 'rejected', status, retryable: false };
}

/**
 * The LINE Messaging API's push endpoint (`POST {base}/v2/bot/message/push`, ADR 0075), with the channel access
 * token as a bearer token and the retry key in `X-Line-Retry-Key`. The answer's body is not needed: its status says
 * everything the notifier acts on, and LINE's error text is not shown to users. `timeoutMs` bounds the whole call.
 */
export class LineSender {
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs = 10_000,
    private readonly fetchImpl: Fetch = (url, init) => globalThis.fetch(url, init),
  ) {}

  async push(token: string, push: LinePush): Promise<LineOutcome> {
    const controller = new AbortController();
    const deadline = setTimeout(() => controller.abort(), this.timeoutMs);
    try {
      const response = await this.fetchImpl(`${this.baseUrl}/v2/bot/message/push`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json; charset=utf-8',
          'x-line-retry-key': push.retryKey,
        },
        body: JSON.stringify({ to: push.to, messages: [{ type: 'text', text: push.text }] }),
        redirect: 'error',
        signal: controller.signal,
      });
      await response.arrayBuffer();
      return outcomeOf(response.status);
    } catch {
      return controller.signal.aborted
        ? { ok: false, code: 'timeout', status: null, retryable: true }
        : { ok: false, code: 'network', status: null, retryable: true };
    } finally {
      clearTimeout(deadline);
    }
  }
}
