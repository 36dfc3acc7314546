import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake received: path, headers and the parsed JSON body. */
export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown> & { messages?: { role: string; content: string }[] };
}

/** What the fake answers to the next request. */
export type FakeReply =
  | { content: string; refusal?: string | null; delayMs?: number }
  | { status: number; error: { message: string; type: string; code: string | null; param?: string | null } }
  | { hang: true };

/** A chat completion as OpenAI's API answers it (non-streaming), with the given assistant content. */
export function completion(model: string, content: string | null, refusal: string | null = null) {
  return {
    id: `chatcmpl-${Math.random().toString(36).slice(2)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, refusal, annotations: [] },
        logprobs: null,
        finish_reason: 'stop',
      },
    ],
    usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
    system_fingerprint: 'fp_test',
  };
}

/**
 * A local HTTP server speaking the chat-completions protocol: POST /v1/chat/completions answers the queued replies in
 * order (a completion, at once or after a delay, an error body with its status, or no answer at all), and records
 * every request.
 */
export class FakeOpenAi {
  readonly requests: SeenRequest[] = [];
  private readonly queue: FakeReply[] = [];
  private readonly hanging: ServerResponse[] = [];
  private server!: Server;

  static async start(): Promise<FakeOpenAi> {
    const fake = new FakeOpenAi();
    fake.server = createServer((request, response) => void fake.handle(request, response));
    fake.server.listen(0, '127.0.0.1');
    await once(fake.server, 'listening');
    return fake;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  reply(...replies: FakeReply[]): void {
    this.queue.push(...replies);
  }

  reset(): void {
    this.requests.length = 0;
    this.queue.length = 0;
  }

  async close(): Promise<void> {
    for (const response of this.hanging) response.destroy();
    this.server.closeAllConnections();
    this.server.close();
    await once(this.server, 'close');
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const body = (raw ? JSON.parse(raw) : {}) as SeenRequest['body'];
    this.requests.push({ method: request.method ?? '', path: request.url ?? '', headers: request.headers, body });
    if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: 'Not found', type: 'invalid_request_error', code: null } }));
      return;
    }
    const next = this.queue.shift();
    if (!next) {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: 'no reply queued', type: 'server_error', code: null } }));
      return;
    }
    if ('hang' in next) {
      this.hanging.push(response);
      return;
    }
    if ('status' in next) {
      response.writeHead(next.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { param: null, ...next.error } }));
      return;
    }
    if (next.delayMs) await new Promise((resolve) => setTimeout(resolve, next.delayMs));
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(completion(String(body.model), next.content, next.refusal ?? null)));
  }
}

/** OpenAI's error bodies for the failures the provider names (status, type and code as the API sends them). */
export const OPENAI_ERRORS = {
  invalidKey: {
    status: 401,
    error: {
      message:
        'Incorrect API key provided: sk-test. You can find your API key at https://platform.openai.com/account/api-keys.',
      type: 'invalid_request_error',
      code: 'invalid_api_key',
    },
  },
  insufficientQuota: {
    status: 429,
    error: {
      message: 'You exceeded your current quota, please check your plan and billing details.',
      type: 'insufficient_quota',
      code: 'insufficient_quota',
    },
  },
  rateLimited: {
    status: 429,
    error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' },
  },
  modelNotFound: {
    status: 404,
    error: {
      message: 'The model `no-such-model` does not exist or you do not have access to it.',
      type: 'invalid_request_error',
      code: 'model_not_found',
    },
  },
  serverError: {
    status: 500,
    error: { message: 'The server had an error while processing your request.', type: 'server_error', code: null },
  },
} as const;
