import {
  AGENT_MESSAGES,
  effectiveScopes,
  hasRole,
  UUID_PATTERN,
  WORKSPACE_HEADER,
  type AgentScope,
  type WorkspaceRole,
} from '@adpilot/contracts';
import type { TenantScope } from '@adpilot/db';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../lib/app-error.ts';
import type { AgentCredential } from '../modules/agents/index.ts';
import type { AccessTokens, AuthService } from '../modules/auth/index.ts';
import type { Membership } from '../modules/workspaces/index.ts';

export interface AuthUser {
  id: string;
  role: 'admin' | 'user';
  sessionId: string;
  /** A demo session (ADR 0185): read-only, in the demo workspace whatever the request names. */
  demo?: boolean;
}

/** The request's current workspace and the user's role in it (ADR 0070). */
export type CurrentWorkspace = Membership;

declare module 'fastify' {
  interface FastifyRequest {
    authUser: AuthUser | null;
    workspace: CurrentWorkspace | null;
    /** The agent credential (API token) a request came with, behind `requireAuth`; null for a person's session. */
    agent: AgentCredential | null;
  }
  interface FastifyContextConfig {
    /** The SSE stream cannot send headers from EventSource, so it may carry the token as `?token=`. */
    allowQueryToken?: boolean;
    /**
     * The lowest workspace role the route needs behind `requireAuth`; without it, `viewer` for reads (GET) and
     * `editor` for everything else. A lower role is refused with 403 FORBIDDEN naming the role.
     */
    role?: WorkspaceRole;
    /**
     * What an API token needs for this route (ADR 0151): a scope, or `never`. Without it, `read` for reads and
     * `never` for everything else: agents write through the MCP tools, which keep every write on a person's paths.
     */
    agents?: AgentScope | 'never';
  }
}

/** A role in the words of a refusal ("This needs an admin of this workspace"). */
export const ROLE_WORDS: Record<WorkspaceRole, string> = {
  owner: 'an owner',
  admin: 'an admin',
  editor: 'an editor',
  viewer: 'a viewer',
};

/** The bearer of the Authorization header alone: an agent's secret is never taken from a URL (it would be logged). */
function headerBearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim();
  if (request.routeOptions.config.allowQueryToken) {
    const token = (request.query as Record<string, unknown> | undefined)?.token;
    if (typeof token === 'string') return token;
  }
  return undefined;
}

/** The workspace the request names: the header, or for the stream the `workspaceId` query parameter. */
function requestedWorkspace(request: FastifyRequest): string | undefined {
  const header = request.headers[WORKSPACE_HEADER];
  if (typeof header === 'string' && header !== '') return header.trim();
  if (request.routeOptions.config.allowQueryToken) {
    const id = (request.query as Record<string, unknown> | undefined)?.workspaceId;
    if (typeof id === 'string' && id !== '') return id;
  }
  return undefined;
}

/** The lowest role a route needs: its declared one, else viewer for reads and editor for writes. */
export function routeRole(method: string, declared: WorkspaceRole | undefined): WorkspaceRole {
  return declared ?? (method === 'GET' || method === 'HEAD' ? 'viewer' : 'editor');
}

/** What an API token needs for a route: its declared need, else `read` for reads and `never` for writes. */
export function routeAgentNeed(method: string, declared: AgentScope | 'never' | undefined): AgentScope | 'never' {
  return declared ?? (method === 'GET' || method === 'HEAD' ? 'read' : 'never');
}

/** An agent's role: its creator's, never above an editor's (a token administers nothing). */
export function agentRole(creatorRole: WorkspaceRole): WorkspaceRole {
  return hasRole(creatorRole, 'editor') ? 'editor' : creatorRole;
}

const invalidAgentToken = () => AppError.unauthorized('Invalid, expired or revoked API token', 'TOKEN_EXPIRED');

/**
 * Adds `request.authUser`, `request.workspace` and the hooks protected route subtrees use: `requireUser` (a signed-in
 * person, for what is theirs alone), `requireAuth` (a member of the current workspace with the route's role) and
 * `requireAdmin` (the instance administrator).
 */
export function registerAuthentication(
  app: FastifyInstance,
  auth: {
    accessTokens: Pick<AccessTokens, 'verify'>;
    sessions: Pick<AuthService, 'sessionRole'>;
    memberships: { resolve(userId: string, workspaceId: string | undefined): Promise<Membership | null> };
    /** Agent credentials (API tokens, ADR 0150); without it, no token is accepted. */
    agents?: { authenticate(secret: string): Promise<AgentCredential | null>; isAgentSecret(secret: string): boolean };
    /** The demo workspace a demo session views now (ADR 0185); without it, a demo session has no workspace. */
    demo?: { workspaceOf(visitorId: string): Promise<string | undefined> };
  },
): void {
  app.decorateRequest('authUser', null);
  app.decorateRequest('workspace', null);
  app.decorateRequest('agent', null);

  /** The live credential of a request bearing an agent's secret in its header; null when it bears none. */
  const agentOf = async (request: FastifyRequest): Promise<AgentCredential | null> => {
    const secret = headerBearer(request);
    if (!auth.agents || secret === undefined || !auth.agents.isAgentSecret(secret)) return null;
    const credential = await auth.agents.authenticate(secret);
    if (!credential) throw invalidAgentToken();
    return credential;
  };

  app.decorate('requireUser', async (request: FastifyRequest, _reply: FastifyReply) => {
    // A person's own routes (their account, notifications, workspaces, the instance's settings): never an agent's.
    if (await agentOf(request)) throw AppError.forbidden(AGENT_MESSAGES.personOnly);
    const token = bearerToken(request);
    if (!token) throw AppError.unauthorized();
    const claims = await auth.accessTokens.verify(token);
    if (!claims) throw AppError.unauthorized('Invalid or expired token', 'TOKEN_EXPIRED');
    // A logout or a detected refresh-token reuse revokes the session, and with it every access token issued in it.
    // The role comes from the session's user, not from the token: a demoted admin loses admin routes at once.
    const role = await auth.sessions.sessionRole(claims.sessionId, claims.userId);
    if (!role) throw AppError.unauthorized('Session has ended, please sign in again', 'TOKEN_EXPIRED');
    request.authUser = { id: claims.userId, role, sessionId: claims.sessionId, ...(claims.demo ? { demo: true } : {}) };
  });

  app.decorate('requireAuth', async (request: FastifyRequest, reply: FastifyReply) => {
    const agent = await agentOf(request);
    if (agent) return admitAgent(request, agent);
    await app.requireUser(request, reply);
    const user = currentUser(request);
    const requested = requestedWorkspace(request);
    // Another workspace's id, a removed member's, or no id at all look the same: not found (ADR 0070).
    if (requested !== undefined && !UUID_PATTERN.test(requested)) throw AppError.notFound('Workspace not found');
    // A demo session views the demo workspace of now: the one it was shown may have been rebuilt since (ADR 0185).
    const demoWorkspace = user.demo ? await auth.demo?.workspaceOf(user.id) : undefined;
    const membership = await auth.memberships.resolve(user.id, user.demo ? demoWorkspace : requested);
    if (!membership || (user.demo && demoWorkspace === undefined)) throw AppError.notFound('Workspace not found');
    request.workspace = membership;
    const needed = routeRole(request.method, request.routeOptions.config.role);
    if (!hasRole(membership.role, needed)) {
      throw AppError.forbidden(`This needs ${ROLE_WORDS[needed]} of this workspace (or higher)`);
    }
  });

  /**
   * An API token on a workspace route (ADR 0151): its own workspace only, as its creator with their role now (never
   * above an editor), and only where the route lets agents in with a scope the token has. An OAuth grant's tokens
   * are for the MCP endpoint alone (RFC 8707: their audience), so they are refused here.
   */
  const admitAgent = async (request: FastifyRequest, agent: AgentCredential) => {
    if (agent.resource !== null) throw invalidAgentToken();
    const requested = requestedWorkspace(request);
    if (requested !== undefined && requested !== agent.workspaceId) throw AppError.notFound('Workspace not found');
    const membership = await auth.memberships.resolve(agent.createdBy, agent.workspaceId);
    // The member who made it left the workspace, or lost their account: the token acts for nobody.
    if (!membership) throw invalidAgentToken();
    const role = agentRole(membership.role);
    const need = routeAgentNeed(request.method, request.routeOptions.config.agents);
    if (need === 'never')
      throw AppError.forbidden(request.method === 'GET' ? AGENT_MESSAGES.personOnly : AGENT_MESSAGES.restWrite);
    if (!effectiveScopes(agent.scopes, membership.role).includes(need))
      throw AppError.forbidden(AGENT_MESSAGES.scopeMissing(need));
    const needed = routeRole(request.method, request.routeOptions.config.role);
    if (!hasRole(role, needed))
      throw AppError.forbidden(`This needs ${ROLE_WORDS[needed]} of this workspace (or higher)`);
    request.authUser = { id: agent.createdBy, role: 'user', sessionId: `agent:${agent.id}` };
    request.workspace = { ...membership, role };
    request.agent = agent;
  };

  app.decorate('requireAdmin', async (request: FastifyRequest, reply: FastifyReply) => {
    await app.requireUser(request, reply);
    if (request.authUser?.role !== 'admin') throw AppError.forbidden('Only the instance administrator can do this');
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    requireUser: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    requireAuth: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    requireAdmin: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}

/** The signed-in user of a request behind `requireUser` or `requireAuth`. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.authUser) throw AppError.unauthorized();
  return request.authUser;
}

/** The current workspace of a request behind `requireAuth`. */
export function currentWorkspace(request: FastifyRequest): CurrentWorkspace {
  if (!request.workspace) throw AppError.notFound('Workspace not found');
  return request.workspace;
}

/** Who a request's workspace unit of work acts for: the current workspace and the signed-in member. */
export function scopeOf(request: FastifyRequest): TenantScope {
  return { workspaceId: currentWorkspace(request).workspaceId, userId: currentUser(request).id };
}
