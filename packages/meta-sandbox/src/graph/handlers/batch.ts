import { invalidParameter } from '../graph-error.ts';
import { jsonParam, mergeParams, parseFormBody } from '../params.ts';
import type { GraphAnswer, GraphCall, GraphRuntime, HttpMethod } from '../runtime.ts';

export const MAX_BATCH_SIZE = 50;
const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'DELETE'];
const VERSION = /^v\d{1,2}\.\d$/;

interface BatchItemAnswer {
  code: number;
  headers?: { name: string; value: string }[];
  body: string;
}

function errorItem(message: string): BatchItemAnswer {
  return {
    code: 400,
    body: JSON.stringify({ error: { message: `(#100) ${message}`, type: 'OAuthException', code: 100 } }),
  };
}

function itemCall(outer: GraphCall, item: unknown): GraphCall | string {
  if (!item || typeof item !== 'object') return 'Each batch request must be an object';
  const { method, relative_url: relativeUrl, body } = item as Record<string, unknown>;
  const verb = typeof method === 'string' ? method.toUpperCase() : 'GET';
  if (!METHODS.includes(verb as HttpMethod)) return `Unsupported batch method ${String(method)}`;
  if (typeof relativeUrl !== 'string') return 'Each batch request needs a relative_url';
  const url = new URL(relativeUrl.replace(/^\/+/, ''), 'http://batch.invalid/');
  const segments = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const version =
    segments[0] !== undefined && VERSION.test(segments[0]) ? (segments.shift() ?? outer.version) : outer.version;
  const query = Object.fromEntries(url.searchParams);
  const params = { ...query, ...(typeof body === 'string' ? parseFormBody(body) : mergeParams(body)) };
  // A multi-ID read inside a batch is refused by the dispatcher like one sent on its own.
  if (segments.length === 0 && params.ids === undefined) return 'Batch requests cannot be nested';
  const token = params.access_token ?? outer.token;
  // Items that use the batch's own token are covered by the batch's proof.
  const outerProof = outer.params.appsecret_proof;
  if (token === outer.token && params.appsecret_proof === undefined && outerProof !== undefined) {
    params.appsecret_proof = outerProof;
  }
  return {
    method: verb as HttpMethod,
    version,
    segments,
    params,
    query,
    token,
    baseUrl: outer.baseUrl,
    inBatch: true,
  };
}

/**
 * `POST /` with `batch=[…]`: each item is answered like a request of its own (counted, authenticated, metered)
 * and the answers come back in order with their bodies as JSON strings.
 */
export function handleBatch(
  rt: GraphRuntime,
  call: GraphCall,
  dispatch: (rt: GraphRuntime, call: GraphCall) => GraphAnswer,
): BatchItemAnswer[] {
  const items = jsonParam(call.params, 'batch');
  if (!Array.isArray(items)) throw invalidParameter('Param batch must be a JSON array of requests');
  if (items.length > MAX_BATCH_SIZE) {
    throw invalidParameter(`Too many requests in batch message. Maximum batch size is ${MAX_BATCH_SIZE}`);
  }
  const includeHeaders = call.params.include_headers !== 'false';
  return items.map((item) => {
    const inner = itemCall(call, item);
    if (typeof inner === 'string') return errorItem(inner);
    const answer = dispatch(rt, inner);
    return {
      code: answer.status,
      ...(includeHeaders ? { headers: Object.entries(answer.headers).map(([name, value]) => ({ name, value })) } : {}),
      body: JSON.stringify(answer.body),
    };
  });
}
