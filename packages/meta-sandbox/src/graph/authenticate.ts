import { tokenExpired } from '../auth/tokens.ts';
import type { SandboxAccount, SandboxEntity } from '../world/types.ts';
import { GraphError, missingPermission, unsupportedRequest } from './graph-error.ts';
import type { Auth, GraphCall, GraphRuntime, UserAuth } from './runtime.ts';

export type AuthNeed = 'none' | 'user' | 'any';

function expiredToken(expiredAt: number, now: number): GraphError {
  return new GraphError({
    message: `Error validating access token: Session has expired on ${new Date(expiredAt).toISOString()}. The current time is ${new Date(now).toISOString()}.`,
    code: 190,
    subcode: 463,
  });
}

/** Checks the token as Graph does: present, proof present and matching, well-formed, signed by this app, not expired. */
export function authenticate(rt: GraphRuntime, call: GraphCall, need: AuthNeed): Auth {
  if (need === 'none') return { kind: 'none' };
  const token = call.token;
  if (!token) {
    throw new GraphError({ message: 'An access token is required to request this resource.', code: 104 });
  }
  const proof = call.params.appsecret_proof;
  if (proof !== undefined && proof !== rt.tokens.appSecretProof(token)) {
    throw new GraphError({
      message: 'Invalid appsecret_proof provided in the API argument',
      code: 100,
      type: 'GraphMethodException',
    });
  }
  const isAppToken = rt.tokens.isAppToken(token);
  // An app token already proves the secret; user tokens need the proof on every call, followed links included.
  if (proof === undefined && !isAppToken && rt.settings.requireAppSecretProof) {
    throw new GraphError({
      message: 'API calls from the server require an appsecret_proof argument',
      code: 100,
      type: 'GraphMethodException',
    });
  }
  if (isAppToken) {
    if (need === 'user') {
      throw new GraphError({
        message: 'An active access token must be used to query information about the current user.',
        code: 2500,
      });
    }
    return { kind: 'app' };
  }
  const claims = rt.tokens.readUser(token);
  if (!claims) throw new GraphError({ message: 'Invalid OAuth access token - Cannot parse access token', code: 190 });
  const persona = rt.world.persona(claims.sub);
  if (!persona) {
    throw new GraphError({
      message: 'Error validating access token: The session has been invalidated.',
      code: 190,
      subcode: 460,
    });
  }
  const now = rt.now();
  if (tokenExpired(claims, now)) throw expiredToken(claims.exp * 1000, now);
  if (rt.faults.isTokenExpired(token)) throw expiredToken(now - 60_000, now);
  return { kind: 'user', token, claims, persona };
}

export function requireUser(auth: Auth): UserAuth {
  if (auth.kind !== 'user') {
    throw new GraphError({ message: 'A user access token is required to request this resource.', code: 102 });
  }
  return auth;
}

/** ads_read allows reading, ads_management reading and writing, as on Meta. */
export function requireScope(auth: UserAuth, access: 'read' | 'write'): void {
  const scopes = auth.claims.scopes;
  if (scopes.includes('ads_management')) return;
  if (access === 'read' && scopes.includes('ads_read')) return;
  throw missingPermission(access === 'read' ? 'ads_read' : 'ads_management');
}

export function ownAccount(rt: GraphRuntime, auth: UserAuth, id: string, method: string): SandboxAccount {
  const account = rt.world.account(id);
  if (!account || account.personaId !== auth.persona.id) throw unsupportedRequest(method, id);
  return account;
}

export function ownEntity(rt: GraphRuntime, auth: UserAuth, id: string, method: string): SandboxEntity {
  const target = rt.world.findEntity(id);
  if (!target || rt.world.accountOf(target.entity).personaId !== auth.persona.id) throw unsupportedRequest(method, id);
  return target;
}
