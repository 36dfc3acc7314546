import {
  effectiveScopes,
  withImpliedScopes,
  OAUTH_ACCESS_PREFIX,
  OAUTH_REFRESH_PREFIX,
  type AgentScope,
  type OAuthAuthorization,
  type OAuthAuthorizationQuery,
  type OAuthConsentRequest,
  type Workspace,
} from '@adpilot/contracts';
import type { Transactions } from '@adpilot/db';
import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../../lib/app-error.ts';
import { hashToken, randomToken } from '../../../lib/crypto.ts';
import type { ActivityRepository } from '../../activity/index.ts';
import type { AttemptLimiter } from '../../auth/index.ts';
import { scopesOf } from '../api-tokens.presenter.ts';
import type { ApiTokensRepository } from '../api-tokens.repository.ts';
import { credentialEntryIn } from '../api-tokens.service.ts';
import {
  canonicalResource,
  clientNameOf,
  isAllowedRedirectUri,
  isLoopback,
  isPkceValue,
  matchesRegistered,
  requestedScopes,
  type ClientRegistration,
} from './oauth-params.ts';
import type { OAuthRepository } from './oauth.repository.ts';

/** An answer of the protocol endpoints in OAuth's own form (RFC 6749 §5.2, RFC 7591 §3.2.2). */
export class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
  }
}

export interface OAuthDeps {
  transactions: Transactions;
  repository: OAuthRepository;
  credentials: ApiTokensRepository;
  activity: Pick<ActivityRepository, 'insert'>;
  /** The signed-in user's workspaces and roles (the workspaces module). */
  workspaces: { list(userId: string): Promise<Workspace[]> };
  limiter: Pick<AttemptLimiter, 'take'>;
  /** Where AdPilot is served: the issuer, and the MCP endpoint `<publicUrl>/mcp` is the one resource. */
  publicUrl: string;
  now: () => Date;
}

export interface TokenAnswer {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

/** An access token lives an hour (the client refreshes it); a code ten minutes. */
export const ACCESS_TOKEN_SECONDS = 3600;
const CODE_SECONDS = 600;
/** Self-registrations per address and hour: a client registers once per install, not in a loop. */
const REGISTRATION_LIMIT = { name: 'oauth-register', scope: 'address', max: 20, windowSeconds: 3600 } as const;

const invalidRequest = (message: string) => new AppError('OAUTH_REQUEST_INVALID', message, 400);

/** The validated authorization request: what a code will be bound to. */
interface AuthorizationRequest {
  clientId: string;
  clientName: string;
  redirectUri: string;
  codeChallenge: string;
  scopes: AgentScope[];
  resource: string;
  state: string | undefined;
}

/**
 * OAuth 2.1 for MCP clients (ADR 0153): self-registration (RFC 7591), the authorization request a member consents
 * to in AdPilot's own page (PKCE S256 required, the resource indicator of RFC 8707 bound into the code), and the
 * token endpoint (authorization code, refresh with rotation). A consent makes a grant in the chosen workspace: an
 * agent credential like an API token, named after the client, valid only for the MCP endpoint.
 */
export class OAuthService {
  constructor(private readonly deps: OAuthDeps) {}

  get issuer(): string {
    return this.deps.publicUrl.replace(/\/+$/, '');
  }

  /** The MCP endpoint, the one resource our tokens are for. */
  get resource(): string {
    return `${this.issuer}/mcp`;
  }

  async register(body: ClientRegistration, address: string) {
    const redirectUris = body.redirect_uris;
    if (!redirectUris.every(isAllowedRedirectUri))
      throw new OAuthError(
        400,
        'invalid_redirect_uri',
        'Redirect URIs must be https, or http on localhost, without a fragment',
      );
    if (body.grant_types && !body.grant_types.includes('authorization_code'))
      throw new OAuthError(400, 'invalid_client_metadata', 'Only the authorization code grant is offered');
    if (body.response_types && body.response_types.some((type) => type !== 'code'))
      throw new OAuthError(400, 'invalid_client_metadata', 'Only the code response type is offered');
    await this.deps.limiter.take(
      [REGISTRATION_LIMIT],
      { account: '', address },
      'Too many client registrations from this address',
    );
    const now = this.deps.now();
    const client = await this.deps.transactions.system('oauth client registration', (tx) =>
      this.deps.repository.insertClient(tx, { name: clientNameOf(body.client_name), redirectUris, createdAt: now }),
    );
    // Every client is public (PKCE, no secret): a requested secret method is replaced, as RFC 7591 §3.2.1 allows.
    return {
      client_id: client.id,
      client_id_issued_at: Math.floor(now.getTime() / 1000),
      client_name: client.name,
      redirect_uris: client.redirectUris,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  /**
   * The client and redirect URI of an authorization request, checked first: when either is wrong nothing may be
   * sent to the redirect URI (OAuth 2.1 §4.1.2.1). Answers the client's name, or throws.
   */
  async checkClient(query: Pick<OAuthAuthorizationQuery, 'client_id' | 'redirect_uri'>): Promise<string> {
    const client = /^[0-9a-f-]{36}$/i.test(query.client_id)
      ? await this.deps.transactions.system('oauth client', (tx) => this.deps.repository.client(tx, query.client_id))
      : undefined;
    if (!client) throw invalidRequest('This AI client is not registered with AdPilot');
    if (!matchesRegistered(query.redirect_uri, client.redirectUris))
      throw invalidRequest('This redirect address is not one the AI client registered');
    return client.name;
  }

  /**
   * Every other parameter of the request, once the client and redirect URI passed: an OAuth error code and its
   * words, to be sent back to the client's redirect URI, or the request to bind a code to.
   */
  async check(query: OAuthAuthorizationQuery): Promise<AuthorizationRequest | { error: string; description: string }> {
    const clientName = await this.checkClient(query);
    if (query.response_type !== 'code')
      return { error: 'unsupported_response_type', description: 'Only response_type=code is supported' };
    if (query.code_challenge_method !== 'S256' || !isPkceValue(query.code_challenge))
      return { error: 'invalid_request', description: 'PKCE is required: a code_challenge with method S256' };
    const resource = query.resource === undefined ? this.resource : canonicalResource(query.resource);
    if (resource !== this.resource)
      return { error: 'invalid_target', description: `The only resource is ${this.resource}` };
    const scopes = requestedScopes(query.scope);
    if (!scopes) return { error: 'invalid_scope', description: 'Scopes are read, propose and write' };
    return {
      clientId: query.client_id,
      clientName,
      redirectUri: query.redirect_uri,
      codeChallenge: query.code_challenge,
      scopes,
      resource,
      state: query.state,
    };
  }

  /** Where an authorization request's refusal goes: the redirect URI with the error, the state and the issuer. */
  errorRedirect(query: OAuthAuthorizationQuery, error: string, description: string): string {
    return withParams(query.redirect_uri, {
      error,
      error_description: description,
      state: query.state,
      iss: this.issuer,
    });
  }

  /** What the consent page shows the signed-in member: the client, the scopes, and what each workspace lets them grant. */
  async authorization(userId: string, query: OAuthAuthorizationQuery): Promise<OAuthAuthorization> {
    const request = await this.valid(query);
    const workspaces = await this.deps.workspaces.list(userId);
    return {
      client: { id: request.clientId, name: request.clientName },
      redirectHost: new URL(request.redirectUri).host,
      loopback: isLoopback(request.redirectUri),
      scopes: request.scopes,
      workspaces: workspaces.map((workspace) => ({
        id: workspace.id,
        name: workspace.name,
        personal: workspace.personal,
        role: workspace.role,
        grantable: effectiveScopes(request.scopes, workspace.role).filter((scope) => request.scopes.includes(scope)),
      })),
    };
  }

  /** The member's answer: a code for the chosen workspace and scopes, or the refusal, as the redirect to follow. */
  async consent(userId: string, body: OAuthConsentRequest): Promise<{ redirectTo: string }> {
    const request = await this.valid(body);
    if (body.decision === 'deny')
      return { redirectTo: this.errorRedirect(body, 'access_denied', 'The member did not allow access') };
    const workspace = (await this.deps.workspaces.list(userId)).find((w) => w.id === body.workspaceId);
    if (!workspace) throw AppError.notFound('Workspace not found');
    const grantable = effectiveScopes(request.scopes, workspace.role).filter((scope) => request.scopes.includes(scope));
    const scopes = grantable.filter((scope) => body.scopes.includes(scope));
    if (scopes.length === 0 || body.scopes.some((scope) => !grantable.includes(scope)))
      throw invalidRequest('Choose scopes this client asked for and your role in the workspace allows');
    const code = randomToken(32);
    await this.deps.transactions.system('oauth code', (tx) =>
      this.deps.repository.insertCode(tx, {
        codeHash: hashToken(code),
        clientId: request.clientId,
        userId,
        workspaceId: workspace.id,
        scopes,
        redirectUri: request.redirectUri,
        codeChallenge: request.codeChallenge,
        resource: request.resource,
        expiresAt: new Date(this.deps.now().getTime() + CODE_SECONDS * 1000),
      }),
    );
    return { redirectTo: withParams(request.redirectUri, { code, state: request.state, iss: this.issuer }) };
  }

  /** POST /oauth/token, grant_type=authorization_code: one exchange per code, with its PKCE verifier. */
  async exchangeCode(form: Record<string, string>): Promise<TokenAnswer> {
    const { code, code_verifier: verifier, redirect_uri: redirectUri, client_id: clientId } = form;
    if (!code || !redirectUri || !clientId)
      throw new OAuthError(400, 'invalid_request', 'code, redirect_uri and client_id are required');
    if (!isPkceValue(verifier)) throw new OAuthError(400, 'invalid_request', 'A code_verifier is required (PKCE)');
    const now = this.deps.now();
    const spent = await this.deps.transactions.system('oauth code exchange', (tx) =>
      this.deps.repository.spendCode(tx, hashToken(code), now),
    );
    const invalidGrant = new OAuthError(
      400,
      'invalid_grant',
      'The code is unknown, used, expired or not this client’s',
    );
    if (!spent || spent.expiresAt <= now || spent.clientId !== clientId || spent.redirectUri !== redirectUri)
      throw invalidGrant;
    if (!sameSecret(pkceChallenge(verifier), spent.codeChallenge)) throw invalidGrant;
    if (form.resource !== undefined && canonicalResource(form.resource) !== spent.resource)
      throw new OAuthError(400, 'invalid_target', `The only resource is ${this.resource}`);
    const client = await this.deps.transactions.system('oauth client', (tx) =>
      this.deps.repository.client(tx, clientId),
    );
    // The member who consented left the workspace in the minutes since: the code grants nothing.
    const member = (await this.deps.workspaces.list(spent.userId)).some((w) => w.id === spent.workspaceId);
    if (!client || !member) throw invalidGrant;
    const access = `${OAUTH_ACCESS_PREFIX}${randomToken(32)}`;
    const refresh = `${OAUTH_REFRESH_PREFIX}${randomToken(32)}`;
    const scopes = scopesOf(spent.scopes);
    // As the consenting member, in the workspace they chose: the grant and its log entry commit together, and
    // row-level security holds the member to a workspace they still belong to.
    await this.deps.transactions.tenant({ workspaceId: spent.workspaceId, userId: spent.userId }, async (tx) => {
      await this.deps.credentials.insert(tx, {
        kind: 'oauth',
        name: client.name,
        scopes,
        tokenHash: hashToken(access),
        hint: null,
        tokenExpiresAt: new Date(now.getTime() + ACCESS_TOKEN_SECONDS * 1000),
        refreshHash: hashToken(refresh),
        clientId: client.id,
        resource: spent.resource,
        expiresAt: null,
        createdBy: spent.userId,
        createdAt: now,
      });
      await credentialEntryIn(this.deps.activity, tx, 'agent_connected', {
        name: client.name,
        scope: withImpliedScopes(scopes).at(-1)!,
      });
    });
    return answer(access, refresh, scopes);
  }

  /** POST /oauth/token, grant_type=refresh_token: new access and refresh tokens; the old refresh token stops working. */
  async refresh(form: Record<string, string>): Promise<TokenAnswer> {
    const { refresh_token: refreshToken, client_id: clientId } = form;
    if (!refreshToken || !clientId)
      throw new OAuthError(400, 'invalid_request', 'refresh_token and client_id are required');
    const now = this.deps.now();
    const access = `${OAUTH_ACCESS_PREFIX}${randomToken(32)}`;
    const refresh = `${OAUTH_REFRESH_PREFIX}${randomToken(32)}`;
    const scopes = await this.deps.transactions.system('oauth refresh', async (tx) => {
      const grant = await this.deps.credentials.lockByRefreshHash(tx, hashToken(refreshToken));
      if (!grant || grant.revokedAt !== null || grant.clientId !== clientId || grant.kind !== 'oauth') return null;
      if (form.resource !== undefined && canonicalResource(form.resource) !== grant.resource) return null;
      await this.deps.credentials.rotate(tx, grant.id, {
        tokenHash: hashToken(access),
        tokenExpiresAt: new Date(now.getTime() + ACCESS_TOKEN_SECONDS * 1000),
        refreshHash: hashToken(refresh),
      });
      return scopesOf(grant.scopes);
    });
    if (!scopes) throw new OAuthError(400, 'invalid_grant', 'The refresh token is unknown, rotated or revoked');
    return answer(access, refresh, scopes);
  }

  /** The request, every part of it valid, or a 400 the consent page shows (it never redirects on its own). */
  private async valid(query: OAuthAuthorizationQuery): Promise<AuthorizationRequest> {
    const checked = await this.check(query);
    if ('error' in checked) throw invalidRequest(checked.description);
    return checked;
  }
}

function answer(access: string, refresh: string, scopes: AgentScope[]): TokenAnswer {
  return {
    access_token: access,
    token_type: 'Bearer',
    expires_in: ACCESS_TOKEN_SECONDS,
    refresh_token: refresh,
    scope: scopes.join(' '),
  };
}

/** RFC 7636 §4.6: BASE64URL(SHA256(verifier)). */
export function pkceChallenge(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A redirect URI with parameters added to its query (existing ones kept), empty values left out. */
function withParams(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return url.toString();
}
