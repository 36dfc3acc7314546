import { createHmac, timingSafeEqual } from 'node:crypto';

export const SHORT_TOKEN_SECONDS = 5_400;
export const LONG_TOKEN_SECONDS = 5_183_944;

export interface UserTokenClaims {
  /** The sandbox user (persona) id. */
  sub: string;
  scopes: string[];
  /** Issued at and expiry, in epoch seconds like Meta's debug_token. */
  iat: number;
  exp: number;
  /** The sandbox world the token belongs to ('' for the default world; absent from the default world's tokens). */
  world: string;
}

function base64url(text: string): string {
  return Buffer.from(text).toString('base64url');
}

/**
 * Tokens are signed claims rather than rows in a table, so the tokens AdPilot stored keep working after the
 * sandbox restarts; the signature (HMAC with the app secret) stops anyone from minting one without the secret.
 */
export class TokenService {
  constructor(
    private readonly appId: string,
    private readonly appSecret: string,
  ) {}

  issueUser(sub: string, scopes: string[], nowMs: number, lifetimeSeconds: number, world = ''): string {
    const iat = Math.floor(nowMs / 1000);
    const claims = { sub, scopes, iat, exp: iat + lifetimeSeconds, ...(world ? { w: world } : {}) };
    const payload = base64url(JSON.stringify(claims));
    return `EAAS${payload}.${this.sign(payload)}`;
  }

  /** The claims of a well-signed user token, expired or not; undefined for anything else. */
  readUser(token: string): UserTokenClaims | undefined {
    const match = /^EAAS([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(token);
    if (!match?.[1] || !match[2]) return undefined;
    const expected = Buffer.from(this.sign(match[1]));
    const given = Buffer.from(match[2]);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    try {
      const claims = JSON.parse(Buffer.from(match[1], 'base64url').toString('utf8')) as Partial<
        Omit<UserTokenClaims, 'world'> & { w: unknown }
      >;
      if (typeof claims.sub !== 'string' || !Array.isArray(claims.scopes)) return undefined;
      if (typeof claims.iat !== 'number' || typeof claims.exp !== 'number') return undefined;
      if (claims.w !== undefined && typeof claims.w !== 'string') return undefined;
      const world = claims.w ?? '';
      return { sub: claims.sub, scopes: claims.scopes.map(String), iat: claims.iat, exp: claims.exp, world };
    } catch {
      return undefined;
    }
  }

  /** What client_credentials hands out; `{app-id}|{app-secret}` is accepted too, as on Meta. */
  appToken(): string {
    return `${this.appId}|${this.sign('app-token')}`;
  }

  isAppToken(token: string): boolean {
    return token === this.appToken() || token === `${this.appId}|${this.appSecret}`;
  }

  appSecretProof(token: string): string {
    return createHmac('sha256', this.appSecret).update(token).digest('hex');
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.appSecret).update(payload).digest('base64url').slice(0, 32);
  }
}
