import { ACCESS_TOKEN_TTL_SECONDS } from '@adpilot/contracts';
import { jwtVerify, SignJWT } from 'jose';

const ISSUER = 'adpilot';
const AUDIENCE = 'adpilot-api';

export interface AccessClaims {
  userId: string;
  sessionId: string;
  role: 'admin' | 'user';
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
    return new SignJWT({ sid: claims.sessionId, role: claims.role })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.userId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + ACCESS_TOKEN_TTL_SECONDS)
      .sign(this.key);
  }

  /** The claims of a valid token, or null for anything forged, expired or malformed. */
  async verify(token: string): Promise<AccessClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience: AUDIENCE,
        currentDate: this.now(),
        requiredClaims: ['exp', 'iat', 'sub'],
      });
      const role = payload.role === 'admin' ? 'admin' : 'user';
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
      return { userId: payload.sub, sessionId: payload.sid, role };
    } catch {
      return null;
    }
  }
}
