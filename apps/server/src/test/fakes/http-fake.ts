import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RunningFake {
  url: string;
  /** Every request the fake received: method, path and authorization header. */
  requests: { method: string; path: string; authorization?: string }[];
  close(): Promise<void>;
}

/** A local HTTP server on a free port of 127.0.0.1 that reads each request's whole body before `answer` replies. */
export async function startLocalServer(
  answer: (request: IncomingMessage, body: string, response: ServerResponse) => void,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => answer(request, body, response));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A local HTTP server answering with `handle`; JSON in, JSON out, as the real services speak. */
export async function startHttpFake(
  handle: (
    request: IncomingMessage,
    body: string,
  ) => { status: number; body: unknown; headers?: Record<string, string> },
): Promise<RunningFake> {
  const requests: RunningFake['requests'] = [];
  const server = await startLocalServer((request, body, response) => {
    requests.push({
      method: request.method ?? 'GET',
      path: request.url ?? '/',
      ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}),
    });
    const answer = handle(request, body);
    response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    response.end(JSON.stringify(answer.body));
  });
  return { ...server, requests };
}

const bearer = (request: IncomingMessage) => request.headers.authorization?.replace(/^Bearer /, '');

/**
 * An OpenAI-compatible server: `GET /v1/models` lists `models` for `apiKey` and answers OpenAI's 401 error body
 * otherwise. `POST /v1/chat/completions` answers `reply` as the assistant's message.
 */
export function startOpenAiFake(options: { apiKey: string; models: string[]; reply?: string }): Promise<RunningFake> {
  return startHttpFake((request) => {
    if (bearer(request) !== options.apiKey)
      return {
        status: 401,
        body: {
          error: {
            message:
              'Incorrect API key provided: sk-wr***ng. You can find your API key at https://platform.openai.com/account/api-keys.',
            type: 'invalid_request_error',
            param: null,
            code: 'invalid_api_key',
          },
        },
      };
    const path = (request.url ?? '').split('?')[0];
    if (request.method === 'GET' && path === '/v1/models')
      return {
        status: 200,
        body: {
          object: 'list',
          data: options.models.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'fake' })),
        },
      };
    if (request.method === 'POST' && path === '/v1/chat/completions')
      return {
        status: 200,
        body: {
          id: 'chatcmpl-fake',
          object: 'chat.completion',
          created: 1_700_000_000,
          model: options.models[0] ?? 'fake',
          choices: [
            { index: 0, message: { role: 'assistant', content: options.reply ?? 'ok' }, finish_reason: 'stop' },
          ],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        },
      };
    return { status: 404, body: { error: { message: `Unknown path ${path}`, type: 'invalid_request_error' } } };
  });
}

/** Stripe's `GET /v1/balance` for `secretKey`, and Stripe's 401 error body for any other key. */
export function startStripeFake(options: { secretKey: string }): Promise<RunningFake> {
  return startHttpFake((request) => {
    if (bearer(request) !== options.secretKey)
      return {
        status: 401,
        body: { error: { message: 'Invalid API Key provided: sk_test_****ong', type: 'invalid_request_error' } },
      };
    if (request.method === 'GET' && request.url === '/v1/balance')
      return {
        status: 200,
        body: {
          object: 'balance',
          available: [{ amount: 0, currency: 'usd', source_types: { card: 0 } }],
          livemode: false,
          pending: [{ amount: 0, currency: 'usd', source_types: { card: 0 } }],
        },
      };
    return { status: 404, body: { error: { message: 'Unrecognized request URL', type: 'invalid_request_error' } } };
  });
}
