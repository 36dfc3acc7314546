import { ACCESS_TOKEN_TTL_SECONDS } from '@adpilot/contracts';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { SignJWT } from 'jose';

const ISSUER = 'adpilot';
const AUDIENCE = 'adpilot-api';

export interface AccessClaims {
  userId: string;
  sessionId: string;
  role: 'admin' | 'user';
  /** A demo session's token (ADR 0185): the server refuses its every write. */
  demo?: boolean;
}

/**
 * Short-lived HS256 access tokens; only HS256 is accepted, so `alg: none` and key confusion fail. `exp` is required:
 * a token without one, even correctly signed, would never end.
 */
export class AccessTokens {
  constructor(
    private readonly key: Uint8Array,
    private readonly now: () => Date = () => new Date(),
  ) {}

  sign(claims: AccessClaims): Promise<string> {
    const issuedAt = Math.floor(this.now().getTime() / 1000);
    return new SignJWT({ sid: claims.sessionId, role: claims.role, ...(claims.demo ? { demo: true } : {}) })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.userId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + ACCESS_TOKEN_TTL_SECONDS)
      .sign(this.key);
  }

  /**
   * The claims of a valid token, or null for anything forged, expired or malformed. Verified here rather than by
   * `jose` on every request: an HMAC over the token's first two parts compared in constant time against its third,
   * exactly the checks below, at a tenth of the cost (a request's budget is counted in microseconds, ADR 0014).
   */
  async verify(token: string): Promise<AccessClaims | null> {
    const parts = token.split('.');
    if (parts.length !== 3) return null;
    const [encodedHeader, encodedPayload, signature] = parts as [string, string, string];
    const header = decodeJson(encodedHeader);
    // HS256 only (so `none` and key confusion fail), and no extensions we would have to understand (`crit`, `b64`).
    if (!header || header.alg !== 'HS256' || 'crit' in header || 'b64' in header) return null;
    const expected = createHmac('sha256', this.key).update(`${encodedHeader}.${encodedPayload}`).digest('base64url');
    if (signature.length !== expected.length || !timingSafeEqual(Buffer.from(signature), Buffer.from(expected))) {
      return null;
    }
    const payload = decodeJson(encodedPayload);
    if (!payload) return null;
    const { iss, aud, exp, iat, nbf, sub, sid } = payload;
    const nowSeconds = Math.floor(this.now().getTime() / 1000);
    if (iss !== ISSUER) return null;
    if (aud !== AUDIENCE && !(Array.isArray(aud) && aud.includes(AUDIENCE))) return null;
    // `exp` is required: a token without one, even correctly signed, would never end.
    if (!isNumericDate(exp) || exp <= nowSeconds) return null;
    if (!isNumericDate(iat)) return null;
    if (nbf !== undefined && (!isNumericDate(nbf) || nbf > nowSeconds)) return null;
    if (typeof sub !== 'string' || typeof sid !== 'string') return null;
    return {
      userId: sub,
      sessionId: sid,
      role: payload.role === 'admin' ? 'admin' : 'user',
      ...(payload.demo === true ? { demo: true } : {}),
    };
  }
}

const isNumericDate = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** A base64url JSON object, or null. */
function decodeJson(part: string): Record<string, unknown> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(part)) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
