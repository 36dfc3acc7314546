import { UUID_PATTERN } from '@adpilot/contracts';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startLocalServer } from './fakes/http-fake.ts';

/** A push the fake accepted: what reached the chat. */
export interface AcceptedPush {
  token: string;
  to: string;
  texts: string[];
  retryKey: string;
  requestId: string;
}

/** Every request the fake answered, with the status it answered. */
export interface LineRequest {
  path: string;
  retryKey: string | undefined;
  status: number;
}

export interface RunningLineFake {
  url: string;
  /** The channel access tokens the fake accepts. */
  tokens: Set<string>;
  pushes: AcceptedPush[];
  requests: LineRequest[];
  /**
   * Answers the next `count` pushes with `status` and LINE's error body. With `accept`, the push is accepted first
   * (it reaches the chat, its retry key is spent) and only the answer is lost, as when a 5xx or a timeout hides a
   * push that went out.
   */
  failNext(status: number, count?: number, options?: { accept?: boolean }): void;
  close(): Promise<void>;
}

const TARGET = /^[UCR][0-9a-f]{32}$/;
const PUSH_FIELDS = new Set(['to', 'messages', 'notificationDisabled', 'customAggregationUnits']);
const TEXT_MAX = 5000;

const ERRORS: Record<number, string> = {
  401: 'Authentication failed. Confirm that the access token in the authorization header is valid.',
  403: 'The channel is not permitted to send a message to this ID.',
  429: 'You have reached your monthly limit.',
  500: 'An error occurred in the server.',
  502: 'Bad gateway.',
  503: 'Service unavailable.',
};

interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** The body's mistakes, each as LINE's `details` entry; none for a well-formed push of text messages. */
function bodyErrors(raw: string): { message: string; property: string }[] {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return [{ message: 'The request body could not be parsed as JSON', property: '' }];
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return [{ message: 'must be an object', property: '' }];
  const push = body as Record<string, unknown>;
  const errors: { message: string; property: string }[] = [];
  for (const key of Object.keys(push))
    if (!PUSH_FIELDS.has(key)) errors.push({ message: 'unknown property', property: key });
  if (typeof push.to !== 'string' || !TARGET.test(push.to)) errors.push({ message: 'invalid', property: 'to' });
  const messages = push.messages;
  if (!Array.isArray(messages) || messages.length < 1 || messages.length > 5)
    return [...errors, { message: 'must be between 1 and 5 messages', property: 'messages' }];
  messages.forEach((message: unknown, index) => {
    const m = message as Record<string, unknown> | null;
    if (!m || m.type !== 'text') errors.push({ message: 'must be text', property: `messages[${index}].type` });
    else if (typeof m.text !== 'string' || m.text.length < 1 || m.text.length > TEXT_MAX)
      errors.push({ message: `length must be between 1 and ${TEXT_MAX}`, property: `messages[${index}].text` });
  });
  return errors;
}

/**
 * A local server speaking LINE's push endpoint strictly (ADR 0075): `POST /v2/bot/message/push` only, a known bearer
 * token (else 401), a JSON body of `to` (a user, group or chat id) and one to five text messages of at most 5,000
 * UTF-16 code units (else 400 with `{ message, details }`), a retry key that is a UUID, and a key already accepted
 * answered 409 with the first request's id in `x-line-accepted-request-id`. Stricter than LINE in one way: a push
 * without a retry key is refused (400), since the notifier must always send one.
 */
export async function startLineFake(options: { tokens?: string[] } = {}): Promise<RunningLineFake> {
  const tokens = new Set(options.tokens ?? ['line-test-token']);
  const pushes: AcceptedPush[] = [];
  const requests: LineRequest[] = [];
  const accepted = new Map<string, string>();
  const failures: { status: number; accept: boolean }[] = [];

  const error = (status: number, message: string, details?: unknown[]): Answer => ({
    status,
    body: { message, ...(details && details.length > 0 ? { details } : {}) },
  });

  const handle = (request: IncomingMessage, raw: string): Answer => {
    if (request.method !== 'POST' || request.url !== '/v2/bot/message/push') return error(404, 'Not found');
    const token = request.headers.authorization?.match(/^Bearer (.+)$/)?.[1];
    if (!token || !tokens.has(token)) return error(401, ERRORS[401] as string);
    if (!String(request.headers['content-type'] ?? '').startsWith('application/json'))
      return error(415, 'Unsupported media type');
    const retryKey = request.headers['x-line-retry-key'];
    if (typeof retryKey !== 'string' || !UUID_PATTERN.test(retryKey))
      return error(400, "The value for the 'X-Line-Retry-Key' header is invalid");
    const details = bodyErrors(raw);
    if (details.length > 0) return error(400, `The request body has ${details.length} error(s)`, details);
    const first = accepted.get(retryKey);
    if (first)
      return {
        ...error(409, 'The retry key is already accepted'),
        headers: { 'x-line-accepted-request-id': first },
      };
    const failure = failures.shift();
    if (failure && !failure.accept) return error(failure.status, ERRORS[failure.status] ?? 'Error');
    const requestId = randomUUID();
    const push = JSON.parse(raw) as { to: string; messages: { text: string }[] };
    accepted.set(retryKey, requestId);
    pushes.push({ token, to: push.to, texts: push.messages.map((m) => m.text), retryKey, requestId });
    if (failure) return error(failure.status, ERRORS[failure.status] ?? 'Error');
    return {
      status: 200,
      body: { sentMessages: push.messages.map(() => ({ id: String(Date.now()), quoteToken: randomUUID() })) },
      headers: { 'x-line-request-id': requestId },
    };
  };

  const server = await startLocalServer((request: IncomingMessage, raw: string, response: ServerResponse) => {
    const answer = handle(request, raw);
    const retryKey = request.headers['x-line-retry-key'];
    requests.push({
      path: request.url ?? '/',
      retryKey: typeof retryKey === 'string' ? retryKey : undefined,
      status: answer.status,
    });
    response.writeHead(answer.status, {
      'content-type': 'application/json',
      'x-line-request-id': randomUUID(),
      ...answer.headers,
    });
    response.end(JSON.stringify(answer.body));
  });

  return {
    ...server,
    tokens,
    pushes,
    requests,
    failNext(status, count = 1, failOptions = {}) {
      for (let i = 0; i < count; i += 1) failures.push({ status, accept: failOptions.accept ?? false });
    },
  };
}
