import { AGENT_SCOPES, effectiveScopes, type WorkspaceRole } from '@adpilot/contracts';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  LATEST_PROTOCOL_VERSION,
  ListToolsRequestSchema,
  McpError,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { AppError } from '../../lib/app-error.ts';
import { APP_VERSION } from '../../version.ts';
import type { ToolCalls, ToolCaller, ToolCallObserver } from '../agent-tools/index.ts';
import type { AgentCredential } from '../agents/index.ts';
import type { AttemptLimiter } from '../auth/index.ts';
import type { McpSessions } from './mcp-sessions.ts';

/**
 * The protocol versions spoken (ADR 0152): the one the SDK speaks by default and the one before it. A client asking
 * for another is answered with the newest, as the lifecycle specification has it; a later request naming another in
 * its MCP-Protocol-Version header is a 400.
 */
export const PROTOCOL_VERSIONS: readonly string[] = [LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS[1]!];

const INSTRUCTIONS = [
  'AdPilot automates Meta ad campaigns with a person in the loop.',
  'Every figure the tools answer comes from the ad accounts AdPilot synced; cite the entity by name.',
  'No tool writes to Meta by itself: create_rule saves rules in approve mode, so each change they plan waits in the Inbox for a person.',
  'List tools answer a page at a time: pass nextCursor back for the next page.',
].join(' ');

export interface McpEndpointDeps {
  calls: Pick<ToolCalls, 'visible' | 'has' | 'call'>;
  agents: { authenticate(secret: string): Promise<AgentCredential | null>; isAgentSecret(secret: string): boolean };
  memberships: { resolve(userId: string, workspaceId: string): Promise<{ role: WorkspaceRole } | null> };
  limiter: Pick<AttemptLimiter, 'take'>;
  sessions: McpSessions;
  observer?: Pick<ToolCallObserver, 'toolCall'>;
  publicUrl: string;
  allowedOrigins: readonly string[];
  toolCallsPerMinute: number;
  log: FastifyBaseLogger;
}

type Transport = WebStandardStreamableHTTPServerTransport;

/** Headers the Web Request cannot carry or the transport must not see (they belong to this hop). */
const HOP_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'upgrade']);

const rpcError = (code: number, message: string, data?: Record<string, unknown>) => ({
  jsonrpc: '2.0' as const,
  error: { code, message, ...(data ? { data } : {}) },
  id: null,
});

const messagesOf = (body: unknown): unknown[] => (Array.isArray(body) ? body : [body]);
const isRequestTo = (message: unknown, method: string) =>
  typeof message === 'object' && message !== null && (message as { method?: unknown }).method === method;

/**
 * The MCP endpoint (ADR 0152): Streamable HTTP on the official SDK's transport, one SDK server per session. Each
 * request is authenticated anew (an agent credential in the Authorization header, for this resource), its caller's
 * scopes read from the creator's role at that moment, its tool calls counted against the credential's minute, and
 * then handed to its session's transport.
 */
export class McpEndpoint {
  private readonly origins: ReadonlySet<string>;
  private readonly issuer: string;

  constructor(private readonly deps: McpEndpointDeps) {
    this.issuer = deps.publicUrl.replace(/\/+$/, '');
    this.origins = new Set([new URL(this.issuer).origin, ...deps.allowedOrigins]);
  }

  get resource(): string {
    return `${this.issuer}/mcp`;
  }

  async handle(request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
    const origin = request.headers.origin;
    // DNS rebinding (transport §Security): a browser page of another origin never reaches the endpoint.
    if (origin !== undefined && !this.origins.has(origin))
      return reply.status(403).send(rpcError(-32000, 'Forbidden: this origin may not call AdPilot’s MCP endpoint'));
    const caller = await this.authenticate(request, reply);
    if (!caller) return reply;
    const version = request.headers['mcp-protocol-version'];
    if (typeof version === 'string' && !PROTOCOL_VERSIONS.includes(version))
      return reply
        .status(400)
        .send(rpcError(-32000, `Unsupported protocol version ${version} (supported: ${PROTOCOL_VERSIONS.join(', ')})`));

    let body: unknown = request.body;
    if (request.method === 'POST' && !(await this.withinLimit(caller, body, reply))) return reply;
    const sessionId = request.headers['mcp-session-id'];
    let transport: Transport | undefined;
    if (typeof sessionId === 'string') {
      transport = this.deps.sessions.find(sessionId, caller.credentialId)?.transport;
      if (!transport) return reply.status(404).send(rpcError(-32001, 'Session not found'));
    } else if (request.method === 'POST' && messagesOf(body).some((m) => isRequestTo(m, 'initialize'))) {
      body = negotiated(body);
      transport = await this.open(caller.credentialId);
    } else {
      return reply.status(400).send(rpcError(-32000, 'Bad Request: no valid session id; initialize first'));
    }
    const response = await transport.handleRequest(toWebRequest(request), {
      ...(request.method === 'POST' ? { parsedBody: body } : {}),
      authInfo: { token: '', clientId: caller.credentialId, scopes: caller.scopes, extra: { caller } },
    });
    return reply.send(withOpenedStream(response));
  }

  /** The caller, or null once a 401 with the OAuth challenge was sent (RFC 9728 §5.1, RFC 6750 §3). */
  private async authenticate(request: FastifyRequest, reply: FastifyReply): Promise<ToolCaller | null> {
    const header = request.headers.authorization;
    const secret = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
    const refuse = (description?: string) => {
      const params = [
        `resource_metadata="${this.issuer}/.well-known/oauth-protected-resource/mcp"`,
        `scope="${AGENT_SCOPES.join(' ')}"`,
        ...(description ? ['error="invalid_token"', `error_description="${description}"`] : []),
      ];
      void reply
        .status(401)
        .header('www-authenticate', `Bearer ${params.join(', ')}`)
        .send(rpcError(-32001, description ?? 'Authentication required: an AdPilot API token or OAuth access token'));
      return null;
    };
    if (secret === undefined || secret === '') return refuse();
    const credential = this.deps.agents.isAgentSecret(secret) ? await this.deps.agents.authenticate(secret) : null;
    if (!credential) return refuse('The token is unknown, expired or revoked');
    if (credential.resource !== null && credential.resource !== this.resource)
      return refuse('The token was issued for another resource');
    const membership = await this.deps.memberships.resolve(credential.createdBy, credential.workspaceId);
    if (!membership) return refuse('The member who made this token is no longer in its workspace');
    return {
      credentialId: credential.id,
      name: credential.name,
      scope: { workspaceId: credential.workspaceId, userId: credential.createdBy },
      scopes: effectiveScopes(credential.scopes, membership.role),
    };
  }

  /** Counts the body's tool calls against the credential's minute; false once a 429 with Retry-After was sent. */
  private async withinLimit(caller: ToolCaller, body: unknown, reply: FastifyReply): Promise<boolean> {
    const calls = messagesOf(body).filter((message) => isRequestTo(message, 'tools/call'));
    if (this.deps.toolCallsPerMinute === 0 || calls.length === 0) return true;
    const rule = {
      name: 'mcp-tool-calls',
      scope: 'account',
      max: this.deps.toolCallsPerMinute,
      windowSeconds: 60,
    } as const;
    try {
      for (let i = 0; i < calls.length; i += 1)
        await this.deps.limiter.take([rule], { account: caller.credentialId, address: '' }, 'Too many tool calls');
      return true;
    } catch (error) {
      if (!(error instanceof AppError) || error.statusCode !== 429) throw error;
      const retryAfter = Number(error.headers?.['retry-after'] ?? 60);
      for (const call of calls) {
        const tool = String((call as { params?: { name?: unknown } }).params?.name ?? '');
        this.deps.observer?.toolCall({
          tool: this.deps.calls.has(tool) ? tool : 'unknown',
          outcome: 'rate_limited',
          seconds: 0,
        });
      }
      void reply
        .status(429)
        .header('retry-after', String(retryAfter))
        .send(
          rpcError(
            -32000,
            `Too many tool calls for this token (at most ${this.deps.toolCallsPerMinute} a minute): try again in ${retryAfter} s`,
            { retryAfterSeconds: retryAfter },
          ),
        );
      return false;
    }
  }

  /** A new session: its transport, and its server answering the tool list and the calls for each request's caller. */
  private async open(credentialId: string): Promise<Transport> {
    const server = new Server(
      { name: 'AdPilot', version: APP_VERSION },
      { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
    );
    const callerOf = (extra: { authInfo?: { extra?: Record<string, unknown> } }) => {
      const caller = extra.authInfo?.extra?.caller as ToolCaller | undefined;
      if (!caller) throw new McpError(ErrorCode.InternalError, 'No caller');
      return caller;
    };
    server.setRequestHandler(ListToolsRequestSchema, (_request, extra) => ({
      tools: this.deps.calls.visible(callerOf(extra).scopes),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      if (!this.deps.calls.has(request.params.name))
        throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
      return this.deps.calls.call(callerOf(extra), request.params.name, request.params.arguments);
    });
    const transport: Transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        this.deps.sessions.add(id, credentialId, {
          transport,
          close: async () => {
            await transport.close();
            await server.close();
          },
        });
      },
      onsessionclosed: (id) => this.deps.sessions.forget(id),
    });
    transport.onclose = () => {
      if (transport.sessionId) this.deps.sessions.forget(transport.sessionId);
    };
    transport.onerror = (error) => this.deps.log.debug({ err: error }, 'mcp transport error');
    await server.connect(transport);
    return transport;
  }
}

/** The initialize request asking for a version not spoken, asking for the newest instead (lifecycle §Version Negotiation). */
function negotiated(body: unknown): unknown {
  const ask = (message: unknown) => {
    if (!isRequestTo(message, 'initialize')) return message;
    const params = (message as { params?: Record<string, unknown> }).params ?? {};
    if (typeof params.protocolVersion === 'string' && PROTOCOL_VERSIONS.includes(params.protocolVersion))
      return message;
    return { ...(message as object), params: { ...params, protocolVersion: LATEST_PROTOCOL_VERSION } };
  };
  return Array.isArray(body) ? body.map(ask) : ask(body);
}

/**
 * An event stream that starts with a comment, so its head leaves at once: the session's stream may stay silent until
 * its first keep-alive, and a client waits for the head before it counts the stream open.
 */
function withOpenedStream(response: Response): Response {
  if (!response.body || !response.headers.get('content-type')?.startsWith('text/event-stream')) return response;
  const opened = new TextEncoder().encode(': stream open\n\n');
  const body = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      start: (controller) => controller.enqueue(opened),
    }),
  );
  return new Response(body, { status: response.status, headers: response.headers });
}

/** The Fastify request as the Web Request the SDK's transport reads (its body is handed over already parsed). */
function toWebRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || HOP_HEADERS.has(name)) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return new Request(new URL(request.url, 'http://mcp.invalid'), { method: request.method, headers });
}
