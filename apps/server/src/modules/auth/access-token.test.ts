import { createHmac } from 'node:crypto';
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

  it('refuses a token signed with another key, with alg none or another algorithm, or with its signature changed', async () => {
    const token = await tokens.sign({ userId: 'u-1', sessionId: 'family-1', role: 'user' });
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const other = await new AccessTokens(new Uint8Array(32).fill(8), () => now).sign({
      userId: 'u-1',
      sessionId: 'family-1',
      role: 'user',
    });
    expect(await tokens.verify(other)).toBeNull();
    expect(await tokens.verify(`${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`)).toBeNull();
    const hs512 = await new SignJWT({ sid: 'family-1' })
      .setProtectedHeader({ alg: 'HS512' })
      .setSubject('u-1')
      .setIssuer('adpilot')
      .setAudience('adpilot-api')
      .setIssuedAt(seconds)
      .setExpirationTime(seconds + 60)
      .sign(new Uint8Array(64).fill(7));
    expect(await tokens.verify(hs512)).toBeNull();
    const flipped = signature.slice(0, -2) + (signature.at(-2) === 'A' ? 'B' : 'A') + signature.at(-1);
    expect(await tokens.verify(`${header}.${payload}.${flipped}`)).toBeNull();
    // The payload changed under a valid header and signature: an admin role forged.
    const forged = b64({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), role: 'admin' });
    expect(await tokens.verify(`${header}.${forged}.${signature}`)).toBeNull();
    expect(await tokens.verify(`${header}.${payload}.${signature}=`)).toBeNull();
    expect(await tokens.verify(`${header}.${payload}`)).toBeNull();
    expect(await tokens.verify('not a token')).toBeNull();
  });

  it('refuses an expired token, a token not yet valid, and one for another issuer or audience', async () => {
    const build = (edit: (jwt: SignJWT) => SignJWT) =>
      edit(
        new SignJWT({ sid: 'family-1' })
          .setProtectedHeader({ alg: 'HS256' })
          .setSubject('u-1')
          .setIssuedAt(seconds - 120),
      ).sign(key);
    const valid = (jwt: SignJWT) =>
      jwt
        .setIssuer('adpilot')
        .setAudience('adpilot-api')
        .setExpirationTime(seconds + 60);
    expect(await tokens.verify(await build(valid))).not.toBeNull();
    expect(await tokens.verify(await build((jwt) => valid(jwt).setExpirationTime(seconds)))).toBeNull();
    expect(await tokens.verify(await build((jwt) => valid(jwt).setNotBefore(seconds + 30)))).toBeNull();
    expect(await tokens.verify(await build((jwt) => valid(jwt).setIssuer('someone-else')))).toBeNull();
    expect(await tokens.verify(await build((jwt) => valid(jwt).setAudience('another-api')))).toBeNull();
    expect(await tokens.verify(await build((jwt) => valid(jwt).setAudience(['x', 'adpilot-api'])))).not.toBeNull();
  });

  it('refuses a token whose header asks for extensions it does not implement', async () => {
    const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const payload = b64({ sub: 'u-1', sid: 'f', iss: 'adpilot', aud: 'adpilot-api', iat: seconds, exp: seconds + 60 });
    const withHeader = (header: object) => {
      const encoded = b64(header);
      return `${encoded}.${payload}.${createHmac('sha256', key).update(`${encoded}.${payload}`).digest('base64url')}`;
    };
    expect(await tokens.verify(withHeader({ alg: 'HS256' }))).not.toBeNull();
    expect(await tokens.verify(withHeader({ alg: 'HS256', crit: ['exp'] }))).toBeNull();
    expect(await tokens.verify(withHeader({ alg: 'HS256', b64: false, crit: ['b64'] }))).toBeNull();
    expect(await tokens.verify(withHeader({ alg: 'hs256' }))).toBeNull();
  });
});
