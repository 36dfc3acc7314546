import type { WorkspaceRole } from '@adpilot/contracts';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ToolCalls, ToolCallObserver } from '../agent-tools/index.ts';
import type { AgentCredential } from '../agents/index.ts';
import type { AttemptLimiter } from '../auth/index.ts';
import { McpEndpoint } from './mcp-endpoint.ts';
import { McpSessions } from './mcp-sessions.ts';
import { mcpRoutes } from './mcp.routes.ts';

export interface McpModuleDeps {
  /** The agent tools module's calls: the one way a tool is listed and called. */
  calls: ToolCalls;
  /** The agents module: credentials by their secret, and the revocations that end their sessions. */
  agents: {
    authenticate(secret: string): Promise<AgentCredential | null>;
    isAgentSecret(secret: string): boolean;
  };
  revocations: { subscribe(listener: (credentialId: string) => void): () => void };
  memberships: { resolve(userId: string, workspaceId: string): Promise<{ role: WorkspaceRole } | null> };
  limiter: Pick<AttemptLimiter, 'take'>;
  observer?: ToolCallObserver;
  publicUrl: string;
  mcp: { toolCallsPerMinute: number; allowedOrigins: string[] };
  log: FastifyBaseLogger;
}

/** A session nothing was heard from in half an hour is closed; a credential holds at most five at once here. */
const SESSION_LIMITS = { idleMs: 30 * 60_000, perCredential: 5 };
const SWEEP_MS = 60_000;

/**
 * The MCP endpoint (ADR 0152): sessions, the transport and the SDK server over the agent tools. Its public API:
 * `sessions` (the count the metrics read), `routes` (registered at the root by app.ts) and `close` (ends every
 * session when the server stops).
 */
export function createMcpModule(deps: McpModuleDeps) {
  const sessions = new McpSessions(SESSION_LIMITS);
  const endpoint = new McpEndpoint({
    calls: deps.calls,
    agents: deps.agents,
    memberships: deps.memberships,
    limiter: deps.limiter,
    sessions,
    ...(deps.observer ? { observer: deps.observer } : {}),
    publicUrl: deps.publicUrl,
    allowedOrigins: deps.mcp.allowedOrigins,
    toolCallsPerMinute: deps.mcp.toolCallsPerMinute,
    log: deps.log,
  });
  const unsubscribe = deps.revocations.subscribe((credentialId) => sessions.endCredential(credentialId));
  let sweeper: NodeJS.Timeout | undefined;
  return {
    sessions,
    routes: async (app: FastifyInstance) => {
      sweeper = setInterval(() => sessions.sweep(), SWEEP_MS);
      sweeper.unref();
      await app.register(mcpRoutes, { endpoint });
    },
    async close(): Promise<void> {
      if (sweeper) clearInterval(sweeper);
      unsubscribe();
      await sessions.closeAll();
    },
  };
}
