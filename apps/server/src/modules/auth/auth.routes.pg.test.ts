import { AUTH_MESSAGES, REFRESH_RACE_GRACE_SECONDS } from '@adpilot/contracts';
import { users } from '@adpilot/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerUser, buildUser, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers });

describe('register', () => {
  it('answers data{token,refreshToken,user}; the first user is admin, the next are not', async () => {
    // "First" means first on an empty database, which the file's shared app is only until another test registers.
    const empty = await createTestApp();
    try {
      const first = await registerUser(empty.app);
      expect(first.user.role).toBe('admin');
      expect(first.token.split('.')).toHaveLength(3);
      expect(first.refreshToken.length).toBeGreaterThan(30);
      const second = await registerUser(empty.app);
      expect(second.user.role).toBe('user');
    } finally {
      await empty.close();
    }
  });

  it('stores the password as argon2id, never in clear', async () => {
    const session = await registerUser(t.app);
    const [row] = await t.inspect((db) => db.select().from(users).where(eq(users.id, session.user.id)));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row?.passwordHash).not.toContain(session.password);
  });

  it('refuses a taken e-mail, whatever its case, with 409', async () => {
    const payload = buildUser();
    expect((await post('/api/auth/register', payload)).statusCode).toBe(201);
    const again = await post('/api/auth/register', { ...payload, email: payload.email.toUpperCase() });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      success: false,
      code: 'EMAIL_TAKEN',
      message: 'An account with this email already exists',
    });
  });

  it.each([
    [{ name: '' }, 'name', AUTH_MESSAGES.nameRequired],
    [{ name: 'A' }, 'name', AUTH_MESSAGES.nameMin],
    [{ email: '' }, 'email', AUTH_MESSAGES.emailRequired],
    [{ email: 'not-an-email' }, 'email', AUTH_MESSAGES.emailInvalid],
    [{ password: '' }, 'password', AUTH_MESSAGES.passwordRequired],
    [{ password: 'Sh0rt' }, 'password', AUTH_MESSAGES.passwordMin],
    [{ password: 'NOLOWER123' }, 'password', AUTH_MESSAGES.passwordLower],
    [{ password: 'noupper123' }, 'password', AUTH_MESSAGES.passwordUpper],
    [{ password: 'NoNumbersHere' }, 'password', AUTH_MESSAGES.passwordNumber],
  ])('answers the spec message for %o', async (change, field, message) => {
    const response = await post('/api/auth/register', { ...buildUser(), ...change });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body).toMatchObject({ success: false, code: 'VALIDATION_ERROR', message });
    expect(body.errors).toContainEqual({ field, message });
  });
});

describe('login', () => {
  it('signs in with the right password and answers the same session shape', async () => {
    const session = await registerUser(t.app);
    const response = await post('/api/auth/login', {
      email: session.user.email.toUpperCase(),
      password: session.password,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.user).toMatchObject({ id: session.user.id, email: session.user.email });
  });

  it('answers 401 with one message for a wrong password and for an unknown e-mail', async () => {
    const session = await registerUser(t.app);
    const wrong = await post('/api/auth/login', { email: session.user.email, password: 'Wrong-passw0rd' });
    const unknown = await post('/api/auth/login', { email: 'nobody@example.com', password: 'Wrong-passw0rd' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json().message).toBe('Invalid email or password');
    expect(unknown.json().message).toBe(wrong.json().message);
  });

  it('answers the spec messages for missing fields', async () => {
    const response = await post('/api/auth/login', {});
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([
      { field: 'email', message: AUTH_MESSAGES.emailRequired },
      { field: 'password', message: AUTH_MESSAGES.passwordRequired },
    ]);
  });

  it('limits failures per account with 429 and Retry-After, then lets the account in after the window', async () => {
    const session = await registerUser(t.app);
    for (let i = 0; i < 5; i += 1) {
      expect(
        (await post('/api/auth/login', { email: session.user.email, password: 'Wrong-passw0rd' })).statusCode,
      ).toBe(401);
    }
    const blocked = await post('/api/auth/login', { email: session.user.email, password: session.password });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().code).toBe('RATE_LIMITED');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    t.clock.advance(16 * 60 * 1000);
    expect((await post('/api/auth/login', { email: session.user.email, password: session.password })).statusCode).toBe(
      200,
    );
  });

  it('limits failures per IP across accounts', async () => {
    const ip = '203.0.113.9';
    let last = 0;
    for (let i = 0; i < 31; i += 1) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: ip,
        payload: { email: `spray${i}@example.com`, password: 'Wrong-passw0rd' },
      });
      last = response.statusCode;
    }
    expect(last).toBe(429);
    t.clock.advance(16 * 60 * 1000);
  });
});

describe('access tokens', () => {
  const me = (authorization?: string) =>
    t.app.inject({ method: 'GET', url: '/api/auth/me', headers: authorization ? { authorization } : {} });

  it('answers /auth/me with the user for a valid token and 401 without one', async () => {
    const session = await registerUser(t.app);
    const response = await me(`Bearer ${session.token}`);
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ id: session.user.id, email: session.user.email });
    expect(response.json().data).not.toHaveProperty('passwordHash');
    expect((await me()).statusCode).toBe(401);
  });

  it('refuses a tampered token', async () => {
    const session = await registerUser(t.app);
    const [header, payload, signature] = session.token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = Buffer.from(
      JSON.stringify({ ...claims, role: 'admin', sub: '00000000-0000-4000-8000-000000000000' }),
    ).toString('base64url');
    expect((await me(`Bearer ${header}.${forged}.${signature}`)).statusCode).toBe(401);
    const flipped = signature.slice(0, -2) + (signature.endsWith('AA') ? 'BB' : 'AA');
    expect((await me(`Bearer ${header}.${payload}.${flipped}`)).statusCode).toBe(401);
  });

  it('refuses an alg:none token', async () => {
    const session = await registerUser(t.app);
    const payload = session.token.split('.')[1];
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    expect((await me(`Bearer ${none}.${payload}.`)).statusCode).toBe(401);
  });

  it('refuses an expired token after 15 minutes', async () => {
    const session = await registerUser(t.app);
    t.clock.advance(16 * 60 * 1000);
    const response = await me(`Bearer ${session.token}`);
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('TOKEN_EXPIRED');
  });
});

describe('refresh tokens', () => {
  it('rotates on every use', async () => {
    const session = await registerUser(t.app);
    const first = await post('/api/auth/refresh', { refreshToken: session.refreshToken });
    expect(first.statusCode).toBe(200);
    const { token, refreshToken } = first.json().data;
    expect(refreshToken).not.toBe(session.refreshToken);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } }))
        .statusCode,
    ).toBe(200);
    expect((await post('/api/auth/refresh', { refreshToken })).statusCode).toBe(200);
  });

  it('treats reuse of a rotated token as theft: the whole family is revoked', async () => {
    const session = await registerUser(t.app);
    const rotated = (await post('/api/auth/refresh', { refreshToken: session.refreshToken })).json().data;
    t.clock.advance(REFRESH_RACE_GRACE_SECONDS * 1000);
    const replay = await post('/api/auth/refresh', { refreshToken: session.refreshToken });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().message).toMatch(/reuse/i);
    // The legitimate holder's newer token and access token die with the family.
    expect((await post('/api/auth/refresh', { refreshToken: rotated.refreshToken })).statusCode).toBe(401);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/auth/me',
          headers: { authorization: `Bearer ${rotated.token}` },
        })
      ).statusCode,
    ).toBe(401);
    // Other sessions of the same user are untouched.
    const other = (await post('/api/auth/login', { email: session.user.email, password: session.password })).json()
      .data;
    expect((await post('/api/auth/refresh', { refreshToken: other.refreshToken })).statusCode).toBe(200);
  });

  it('tells a tab that lost a race to use the successor, and the session lives on', async () => {
    const session = await registerUser(t.app);
    const rotated = (await post('/api/auth/refresh', { refreshToken: session.refreshToken })).json().data;
    t.clock.advance(REFRESH_RACE_GRACE_SECONDS * 1000 - 1);
    const late = await post('/api/auth/refresh', { refreshToken: session.refreshToken });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ success: false, code: 'REFRESH_TOKEN_ROTATED' });
    // The loser got no tokens; the winner's are alive.
    expect(late.json().data).toBeUndefined();
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/auth/me',
          headers: { authorization: `Bearer ${rotated.token}` },
        })
      ).statusCode,
    ).toBe(200);
    expect((await post('/api/auth/refresh', { refreshToken: rotated.refreshToken })).statusCode).toBe(200);
  });

  it('presented by five tabs at once, a token rotates once and the rest are told to wait', async () => {
    const session = await registerUser(t.app);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => post('/api/auth/refresh', { refreshToken: session.refreshToken })),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409]);
    const winner = answers.find((answer) => answer.statusCode === 200)!.json().data;
    expect((await post('/api/auth/refresh', { refreshToken: winner.refreshToken })).statusCode).toBe(200);
  });

  it('refuses an unknown token', async () => {
    expect((await post('/api/auth/refresh', { refreshToken: 'made-up' })).statusCode).toBe(401);
  });
});

describe('logout', () => {
  it('revokes the session: its access and refresh tokens stop working', async () => {
    const session = await registerUser(t.app);
    const response = await post('/api/auth/logout', { refreshToken: session.refreshToken }, session.auth);
    expect(response.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: session.auth })).statusCode).toBe(401);
    expect((await post('/api/auth/refresh', { refreshToken: session.refreshToken })).statusCode).toBe(401);
  });

  it('succeeds without a body or a valid access token', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/logout' })).statusCode).toBe(200);
    expect((await post('/api/auth/logout', {}, { authorization: 'Bearer nonsense' })).statusCode).toBe(200);
  });
});

describe('password reset', () => {
  const resetToken = () => {
    const text = t.mailer.sent.at(-1)?.text ?? '';
    return decodeURIComponent(/reset-password\?token=([^\s]+)/.exec(text)?.[1] ?? '');
  };

  it('mails a single-use link; the new password works and old sessions end', async () => {
    const session = await registerUser(t.app);
    const asked = await post('/api/auth/forgot-password', { email: session.user.email });
    expect(asked.statusCode).toBe(200);
    expect(t.mailer.sent.at(-1)?.to).toBe(session.user.email);
    const token = resetToken();
    expect(token.length).toBeGreaterThan(30);

    const reset = await post('/api/auth/reset-password', { token, password: 'N3w-Password' });
    expect(reset.statusCode).toBe(200);
    expect((await post('/api/auth/login', { email: session.user.email, password: 'N3w-Password' })).statusCode).toBe(
      200,
    );
    expect((await post('/api/auth/login', { email: session.user.email, password: session.password })).statusCode).toBe(
      401,
    );
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: session.auth })).statusCode).toBe(401);

    const again = await post('/api/auth/reset-password', { token, password: 'An0ther-Password' });
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('INVALID_STATE');
  });

  it('answers the same for an unknown address and sends nothing', async () => {
    const before = t.mailer.sent.length;
    const response = await post('/api/auth/forgot-password', { email: 'ghost@example.com' });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.message).toMatch(/If an account exists/);
    expect(t.mailer.sent.length).toBe(before);
  });

  it('refuses an expired link', async () => {
    const session = await registerUser(t.app);
    await post('/api/auth/forgot-password', { email: session.user.email });
    const token = resetToken();
    t.clock.advance(61 * 60 * 1000);
    expect((await post('/api/auth/reset-password', { token, password: 'N3w-Password' })).statusCode).toBe(400);
  });

  it('applies the password rules to the new password', async () => {
    const response = await post('/api/auth/reset-password', { token: 'x', password: 'short' });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(AUTH_MESSAGES.passwordMin);
  });
});
