import { hasRole, UUID_PATTERN, WORKSPACE_HEADER, type WorkspaceRole } from '@adpilot/contracts';
import type { TenantScope } from '@adpilot/db';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../lib/app-error.ts';
import type { AccessTokens } from '../modules/auth/access-token.ts';
import type { AuthService } from '../modules/auth/auth.service.ts';
import type { Membership } from '../modules/workspaces/membership-cache.ts';

export interface AuthUser {
  id: string;
  role: 'admin' | 'user';
  sessionId: string;
}

/** The request's current workspace and the user's role in it (ADR 0070). */
export type CurrentWorkspace = Membership;

declare module 'fastify' {
  interface FastifyRequest {
    authUser: AuthUser | null;
    workspace: CurrentWorkspace | null;
  }
  interface FastifyContextConfig {
    /** The SSE stream cannot send headers from EventSource, so it may carry the token as `?token=`. */
    allowQueryToken?: boolean;
    /**
     * The lowest workspace role the route needs behind `requireAuth`; without it, `viewer` for reads (GET) and
     * `editor` for everything else. A lower role is refused with 403 FORBIDDEN naming the role.
     */
    role?: WorkspaceRole;
  }
}

/** A role in the words of a refusal ("This needs an admin of this workspace"). */
export const ROLE_WORDS: Record<WorkspaceRole, string> = {
  owner: 'an owner',
  admin: 'an admin',
  editor: 'an editor',
  viewer: 'a viewer',
};

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
  },
): void {
  app.decorateRequest('authUser', null);
  app.decorateRequest('workspace', null);

  app.decorate('requireUser', async (request: FastifyRequest, _reply: FastifyReply) => {
    const token = bearerToken(request);
    if (!token) throw AppError.unauthorized();
    const claims = await auth.accessTokens.verify(token);
    if (!claims) throw AppError.unauthorized('Invalid or expired token', 'TOKEN_EXPIRED');
    // A logout or a detected refresh-token reuse revokes the session, and with it every access token issued in it.
    // The role comes from the session's user, not from the token: a demoted admin loses admin routes at once.
    const role = await auth.sessions.sessionRole(claims.sessionId, claims.userId);
    if (!role) throw AppError.unauthorized('Session has ended, please sign in again', 'TOKEN_EXPIRED');
    request.authUser = { id: claims.userId, role, sessionId: claims.sessionId };
  });

  app.decorate('requireAuth', async (request: FastifyRequest, reply: FastifyReply) => {
    await app.requireUser(request, reply);
    const user = currentUser(request);
    const requested = requestedWorkspace(request);
    // Another workspace's id, a removed member's, or no id at all look the same: not found (ADR 0070).
    if (requested !== undefined && !UUID_PATTERN.test(requested)) throw AppError.notFound('Workspace not found');
    const membership = await auth.memberships.resolve(user.id, requested);
    if (!membership) throw AppError.notFound('Workspace not found');
    request.workspace = membership;
    const needed = routeRole(request.method, request.routeOptions.config.role);
    if (!hasRole(membership.role, needed)) {
      throw AppError.forbidden(`This needs ${ROLE_WORDS[needed]} of this workspace (or higher)`);
    }
  });

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
