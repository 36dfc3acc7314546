import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerUser, type TestApp } from '../../test/test-app.ts';

/** Reset links are single-use, die together, and hold under concurrent use. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, payload });

/** Asks for a reset link and reads it from the mail sent. */
async function requestLink(email: string): Promise<string> {
  const before = t.mailer.sent.length;
  expect((await post('/api/auth/forgot-password', { email })).statusCode).toBe(200);
  expect(t.mailer.sent.length).toBe(before + 1);
  const text = t.mailer.sent.at(-1)?.text ?? '';
  return decodeURIComponent(/reset-password\?token=(\S+)/.exec(text)?.[1] ?? '');
}

const reset = (token: string, password: string) => post('/api/auth/reset-password', { token, password });
const signIn = (email: string, password: string) => post('/api/auth/login', { email, password });

describe('reset links', () => {
  it('a successful reset kills the other unused links of the user', async () => {
    const owner = await registerUser(t.app);
    const first = await requestLink(owner.user.email);
    const second = await requestLink(owner.user.email);
    expect(first).not.toBe(second);

    expect((await reset(first, 'N3w-Password')).statusCode).toBe(200);
    const refused = await reset(second, 'Th1rd-Password');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe('INVALID_STATE');
    expect((await signIn(owner.user.email, 'N3w-Password')).statusCode).toBe(200);
  });

  it("does not touch another user's links", async () => {
    const owner = await registerUser(t.app);
    const other = await registerUser(t.app);
    const ownerLink = await requestLink(owner.user.email);
    const otherLink = await requestLink(other.user.email);
    expect((await reset(ownerLink, 'N3w-Password')).statusCode).toBe(200);
    expect((await reset(otherLink, 'N3w-Password')).statusCode).toBe(200);
  });

  it('two links of one user used at once: exactly one succeeds', async () => {
    const owner = await registerUser(t.app);
    const links = [await requestLink(owner.user.email), await requestLink(owner.user.email)];
    const passwords = ['Fir5t-Password', 'Sec0nd-Password'];
    const responses = await Promise.all(links.map((link, i) => reset(link, passwords[i] ?? '')));
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([200, 400]);
    const winner = passwords[responses.findIndex((response) => response.statusCode === 200)] ?? '';
    expect((await signIn(owner.user.email, winner)).statusCode).toBe(200);
  });

  it('one link used several times at once: exactly one succeeds', async () => {
    const owner = await registerUser(t.app);
    const link = await requestLink(owner.user.email);
    const responses = await Promise.all(Array.from({ length: 5 }, (_, i) => reset(link, `Parallel-Passw0rd${i}`)));
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 400, 400, 400, 400]);
  });

  it('a link asked for after a reset works', async () => {
    const owner = await registerUser(t.app);
    expect((await reset(await requestLink(owner.user.email), 'N3w-Password')).statusCode).toBe(200);
    expect((await reset(await requestLink(owner.user.email), 'Newer-Passw0rd')).statusCode).toBe(200);
    expect((await signIn(owner.user.email, 'Newer-Passw0rd')).statusCode).toBe(200);
  });
});

describe('the reset e-mail', () => {
  it('is written in the language of the page that asked, and never greets with the name typed at sign-up', async () => {
    const user = await registerUser(t.app, { name: 'Buy cheap pills at evil.example' });
    const mailFor = async (payload: object) => {
      expect((await post('/api/auth/forgot-password', { email: user.user.email, ...payload })).statusCode).toBe(200);
      return t.mailer.sent.findLast((mail) => mail.to === user.user.email)!;
    };
    const thai = await mailFor({ language: 'th' });
    expect(thai.subject).toBe('ตั้งรหัสผ่าน AdPilot ใหม่');
    expect(thai.text).toContain('โปรดเปิดลิงก์นี้ภายในหนึ่งชั่วโมง');
    const english = await mailFor({});
    expect(english.subject).toBe('Reset your AdPilot password');
    for (const mail of [thai, english]) {
      expect(mail.text).toMatch(/\/reset-password\?token=\S+/);
      expect(mail.text).not.toContain('evil.example');
    }
    const unknown = await post('/api/auth/forgot-password', { email: user.user.email, language: 'fr' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
  });
});
