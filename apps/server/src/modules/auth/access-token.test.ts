import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { AccessTokens } from './access-token.ts';

const key = new Uint8Array(32).fill(7);
const now = new Date('2026-06-01T12:00:00Z');
const seconds = Math.floor(now.getTime() / 1000);

/** A token signed with the real key, built claim by claim so a test can leave one out. */
function signed(claims: { exp?: number; iat?: number; sub?: string }): Promise<string> {
  const jwt = new SignJWT({ sid: 'family-1', role: 'user' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer('adpilot')
    .setAudience('adpilot-api');
  if (claims.sub) jwt.setSubject(claims.sub);
  if (claims.iat) jwt.setIssuedAt(claims.iat);
  if (claims.exp) jwt.setExpirationTime(claims.exp);
  return jwt.sign(key);
}

describe('AccessTokens.verify', () => {
  const tokens = new AccessTokens(key, () => now);

  it('accepts its own tokens', async () => {
    const token = await tokens.sign({ userId: 'u-1', sessionId: 'family-1', role: 'admin' });
    expect(await tokens.verify(token)).toEqual({ userId: 'u-1', sessionId: 'family-1', role: 'admin' });
  });

  it('accepts a hand-built token with every required claim (the control for the cases below)', async () => {
    expect(await tokens.verify(await signed({ sub: 'u-1', iat: seconds, exp: seconds + 60 }))).not.toBeNull();
  });

  it('refuses a correctly signed token without exp', async () => {
    expect(await tokens.verify(await signed({ sub: 'u-1', iat: seconds }))).toBeNull();
  });

  it('refuses a correctly signed token without iat or without sub', async () => {
    expect(await tokens.verify(await signed({ sub: 'u-1', exp: seconds + 60 }))).toBeNull();
    expect(await tokens.verify(await signed({ iat: seconds, exp: seconds + 60 }))).toBeNull();
  });
});
