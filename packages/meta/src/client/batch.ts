import { z } from 'zod';
import { errorInitFromBody, MetaApiError, MetaTransientError, toMetaError, type GraphErrorBody } from './errors.ts';
import type { GraphRequest, GraphTransport } from './graph-transport.ts';
import { redactText } from './redact.ts';

export const MAX_BATCH_SIZE = 50;

export interface BatchRequest {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path and query after the version, e.g. `act_1/campaigns?fields=name` or `120200…`. */
  relativeUrl: string;
  /** Parameters of a POST, sent form-encoded. */
  body?: Record<string, string | number | boolean>;
  /** The ad account the item concerns: the batch waits for every named account's throttle before it is sent. */
  accountId?: string;
}

export interface BatchResult {
  /** HTTP status of the item; 0 when Meta gave no answer for it. */
  code: number;
  /** The item's body, parsed from the JSON string Meta returns. */
  body: unknown;
  error?: MetaApiError;
}

const answersSchema = z.array(
  z.union([z.null(), z.looseObject({ code: z.number(), body: z.string().nullable().optional() })]),
);

const isWrite = (item: BatchRequest): boolean => item.method !== 'GET';
const isBudgetWrite = (item: BatchRequest): boolean =>
  item.body !== undefined && ('daily_budget' in item.body || 'lifetime_budget' in item.body);

function toResult(answer: z.infer<typeof answersSchema>[number], item: BatchRequest, token: string): BatchResult {
  if (answer === null) {
    // Meta answers null for an item that timed out inside the batch: it may work on its own or later.
    const error = new MetaTransientError({
      message: 'Batch item got no answer (timed out); retry it',
      code: 0,
      type: 'BatchTimeout',
    });
    return { code: 0, body: null, error };
  }
  let body: unknown = null;
  try {
    body = answer.body ? JSON.parse(answer.body) : null;
  } catch {
    body = answer.body;
  }
  const errorBody = (body as { error?: GraphErrorBody } | null)?.error;
  if (errorBody && typeof errorBody === 'object') {
    const init = errorInitFromBody(errorBody, answer.code);
    const error = toMetaError(
      { ...init, message: redactText(init.message, [token]) },
      { budgetWrite: isBudgetWrite(item) },
    );
    return { code: answer.code, body, error };
  }
  if (answer.code >= 400) {
    return {
      code: answer.code,
      body,
      error: toMetaError({ message: `Batch item answered HTTP ${answer.code}`, code: 0, httpStatus: answer.code }),
    };
  }
  return { code: answer.code, body };
}

function formEncode(values: Record<string, string | number | boolean>): string {
  return new URLSearchParams(
    Object.entries(values).map(([name, value]): [string, string] => [name, String(value)]),
  ).toString();
}

export async function runBatch(
  transport: GraphTransport,
  token: string,
  requests: readonly BatchRequest[],
): Promise<BatchResult[]> {
  const results: BatchResult[] = [];
  for (let start = 0; start < requests.length; start += MAX_BATCH_SIZE) {
    const chunk = requests.slice(start, start + MAX_BATCH_SIZE);
    const payload = chunk.map((item) => ({
      method: item.method,
      relative_url: item.relativeUrl,
      ...(item.body ? { body: formEncode(item.body) } : {}),
    }));
    const accounts = [...new Set(chunk.flatMap((item) => (item.accountId ? [item.accountId] : [])))];
    const [accountId, ...alsoAccountIds] = accounts;
    const request: GraphRequest = {
      method: 'POST',
      path: '',
      params: { batch: JSON.stringify(payload), include_headers: 'false' },
      token,
      ...(accountId ? { accountId, alsoAccountIds } : {}),
      // A batch that failed as a whole may still have applied some of its writes: resending it could apply them
      // twice, so only batches of reads are retried.
      ...(chunk.some(isWrite) ? { noRetry: true } : {}),
    };
    const answers = transport.parse(answersSchema, await transport.call(request), request);
    if (answers.length !== chunk.length) {
      throw new MetaApiError({
        message: `Batch answered ${answers.length} items for ${chunk.length} requests`,
        code: 0,
        type: 'UnexpectedResponse',
      });
    }
    results.push(...answers.map((answer, index) => toResult(answer, chunk[index] as BatchRequest, token)));
  }
  return results;
}
