import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../lib/app-error.ts';
import type { AccessTokens } from '../modules/auth/access-token.ts';
import type { AuthService } from '../modules/auth/auth.service.ts';

export interface AuthUser {
  id: string;
  role: 'admin' | 'user';
  sessionId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    authUser: AuthUser | null;
  }
  interface FastifyContextConfig {
    /** The SSE stream cannot send headers from EventSource, so it may carry the token as `?token=`. */
    allowQueryToken?: boolean;
  }
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

/** Adds `request.authUser` and the `requireAuth` / `requireAdmin` hooks used by protected route subtrees. */
export function registerAuthentication(
  app: FastifyInstance,
  auth: { accessTokens: Pick<AccessTokens, 'verify'>; sessions: Pick<AuthService, 'sessionRole'> },
): void {
  app.decorateRequest('authUser', null);

  app.decorate('requireAuth', async (request: FastifyRequest, _reply: FastifyReply) => {
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

  app.decorate('requireAdmin', async (request: FastifyRequest, reply: FastifyReply) => {
    await app.requireAuth(request, reply);
    if (request.authUser?.role !== 'admin') throw AppError.forbidden('Only the instance administrator can do this');
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    requireAuth: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    requireAdmin: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}

/** The signed-in user of a request behind `requireAuth`. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.authUser) throw AppError.unauthorized();
  return request.authUser;
}
