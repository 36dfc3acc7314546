import { users } from '@adpilot/db';
import { like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

/** Sign-ups per address (REGISTRATION_LIMIT_PER_HOUR), counted in the database before the password is hashed. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ REGISTRATION_LIMIT_PER_HOUR: '4' });
});
afterAll(() => t.close());

const signUp = (email: string, remoteAddress: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/register',
    remoteAddress,
    payload: { name: 'Flood', email, password: 'Flood-Pass1' },
  });

describe('the sign-up limit per address', () => {
  it('lets exactly the limit through when sign-ups from one address arrive at once, and no more accounts exist', async () => {
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) => signUp(`flood-${i}@limit.example`, '203.0.113.9')),
    );
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([201, 201, 201, 201, ...Array<number>(8).fill(429)]);
    const refused = responses.find((response) => response.statusCode === 429)!;
    expect(refused.json()).toMatchObject({ success: false, code: 'RATE_LIMITED' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3_000);
    const created = await t.inspect((db) => db.select().from(users).where(like(users.email, 'flood-%@limit.example')));
    expect(created).toHaveLength(4);
  });

  it('counts a refused sign-up (an address already taken) too, and leaves other addresses alone', async () => {
    expect((await signUp('taken@limit.example', '203.0.113.10')).statusCode).toBe(201);
    for (let i = 0; i < 3; i += 1) expect((await signUp('taken@limit.example', '203.0.113.10')).statusCode).toBe(409);
    expect((await signUp('fresh@limit.example', '203.0.113.10')).statusCode).toBe(429);
    expect((await signUp('fresh@limit.example', '203.0.113.11')).statusCode).toBe(201);
  });
});
