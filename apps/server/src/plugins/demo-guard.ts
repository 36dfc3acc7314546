import { DEMO_MESSAGES } from '@adpilot/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../lib/app-error.ts';

/**
 * What a demo session may not do (ADR 0185): every write but ending or refreshing itself, and the reads that carry
 * data out of the demo or are a person's own (exports, receipts, My account, API tokens). Keys as the route table
 * writes them (`METHOD /url`, Fastify's `:param`).
 */
const DEMO_WRITES_ALLOWED: ReadonlySet<string> = new Set(['POST /api/auth/logout', 'POST /api/auth/refresh']);
const DEMO_READS_REFUSED = [/\/export/, /\/receipts/, /^\/api\/account(\/|$)/, /^\/api\/tokens(\/|$)/];

export function demoRefuses(method: string, url: string): boolean {
  // Ours: the API, the MCP endpoint and the OAuth endpoints (the Meta sandbox takes no bearer of ours).
  if (!/^\/(api|mcp|oauth)(\/|$)/.test(url)) return false;
  const verb = method.toUpperCase();
  if (verb === 'GET' || verb === 'HEAD') return DEMO_READS_REFUSED.some((pattern) => pattern.test(url));
  if (verb === 'OPTIONS') return false;
  return !DEMO_WRITES_ALLOWED.has(`${verb} ${url}`);
}

/** The demo's refusal, in the envelope: 403 DEMO_READ_ONLY with words a visitor can act on. */
export const demoReadOnly = () => new AppError('DEMO_READ_ONLY', DEMO_MESSAGES.readOnly, 403);

/**
 * Whether a request carries a demo session's access token. The claim is read without checking the signature: a
 * forged claim only makes the server refuse its own bearer, and a real demo token is refused whether or not the
 * route would have checked it, so no route can forget to.
 */
function carriesDemoToken(request: FastifyRequest): boolean {
  const header = request.headers.authorization;
  let token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
  if (token === undefined && request.routeOptions.config.allowQueryToken) {
    const query = (request.query as Record<string, unknown> | undefined)?.token;
    if (typeof query === 'string') token = query;
  }
  const payload = token?.split('.')[1];
  if (!payload || !/^[A-Za-z0-9_-]+$/.test(payload)) return false;
  try {
    return (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { demo?: unknown }).demo === true;
  } catch {
    return false;
  }
}

/** One hook before every route: a demo session's refused call answers 403 before the route runs. */
export function registerDemoGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const url = request.routeOptions.url;
    if (url === undefined) return;
    if (demoRefuses(request.method, url) && carriesDemoToken(request)) throw demoReadOnly();
  });
}
