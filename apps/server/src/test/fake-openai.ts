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
  | { hang: true }
  | { turn: (body: SeenRequest['body']) => FakeTurn };

/** A scripted model turn: text, tool calls, or both; streamed as the API streams when the request asks to. */
export interface FakeTurn {
  content?: string;
  toolCalls?: { name: string; arguments: string }[];
}

/**
 * A turn as Chat Completions streams it: a role delta, the text in pieces, each tool call's id and name in its first
 * fragment and its arguments spread over the next ones (by index), the finish_reason chunk, then the usage chunk
 * with no choices (stream_options.include_usage) and `[DONE]`.
 */
export function streamedTurn(model: string, turn: FakeTurn): string {
  const id = `chatcmpl-${Math.random().toString(36).slice(2)}`;
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });
  const chunks: unknown[] = [chunk({ role: 'assistant', content: '' })];
  const text = turn.content ?? '';
  for (let at = 0; at < text.length; at += 12) chunks.push(chunk({ content: text.slice(at, at + 12) }));
  (turn.toolCalls ?? []).forEach((call, index) => {
    chunks.push(
      chunk({
        tool_calls: [
          {
            index,
            id: `call_${index}_${id.slice(-6)}`,
            type: 'function',
            function: { name: call.name, arguments: '' },
          },
        ],
      }),
    );
    const half = Math.ceil(call.arguments.length / 2);
    for (const piece of [call.arguments.slice(0, half), call.arguments.slice(half)])
      if (piece) chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  chunks.push(chunk({}, turn.toolCalls?.length ? 'tool_calls' : 'stop'));
  chunks.push({
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    choices: [],
    usage: { prompt_tokens: 50, completion_tokens: 10, total_tokens: 60 },
  });
  return `${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`;
}

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
    if ('turn' in next) {
      const turn = next.turn(body);
      if (body.stream) {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.end(streamedTurn(String(body.model), turn));
        return;
      }
      const reply = completion(String(body.model), turn.content ?? null) as ReturnType<typeof completion> & {
        choices: { message: Record<string, unknown>; finish_reason: string }[];
      };
      if (turn.toolCalls?.length) {
        reply.choices[0]!.message.tool_calls = turn.toolCalls.map((call, index) => ({
          id: `call_${index}`,
          type: 'function',
          function: call,
        }));
        reply.choices[0]!.finish_reason = 'tool_calls';
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(reply));
      return;
    }
    if (next.delayMs) await new Promise((resolve) => setTimeout(resolve, next.delayMs));
    if (body.stream) {
      // A request that asks for a stream gets one, as the API answers it.
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(streamedTurn(String(body.model), { content: next.content }));
      return;
    }
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
