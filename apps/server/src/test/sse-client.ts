/** A minimal server-sent-events reader over fetch, for tests: messages with their ids, comments, and the end. */
export interface SseMessage {
  id: string | undefined;
  data: string;
}

export interface SseConnection {
  status: number;
  headers: Headers;
  messages: SseMessage[];
  comments: string[];
  /** The `retry:` hints, in milliseconds, in the order sent. */
  retries: number[];
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  isEnded(): boolean;
  waitFor(predicate: () => boolean, timeoutMs?: number): Promise<void>;
  close(): void;
}

export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseConnection> {
  const abort = new AbortController();
  const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal });
  const messages: SseMessage[] = [];
  const comments: string[] = [];
  const retries: number[] = [];
  let done = false;
  const ended = (async () => {
    if (!response.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          let id: string | undefined;
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments.push(line.slice(1).trim());
            else if (line.startsWith('retry: ')) retries.push(Number(line.slice(7)));
            else if (line.startsWith('id: ')) id = line.slice(4);
            else if (line.startsWith('data: ')) data.push(line.slice(6));
          }
          if (data.length) messages.push({ id, data: data.join('\n') });
        }
      }
    } catch {
      // aborted by close()
    } finally {
      done = true;
    }
  })();
  return {
    status: response.status,
    headers: response.headers,
    messages,
    comments,
    retries,
    ended,
    isEnded: () => done,
    async waitFor(predicate, timeoutMs = 5_000) {
      const until = Date.now() + timeoutMs;
      while (!predicate()) {
        if (Date.now() > until) throw new Error(`timed out waiting (${messages.length} messages so far)`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    close: () => abort.abort(),
  };
}

/** The JSON entries of the messages. */
export const entriesOf = (connection: SseConnection) =>
  connection.messages.map((message) => JSON.parse(message.data) as { seq: number; _id: string; description: string });
