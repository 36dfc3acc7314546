import { WORKSPACE_HEADER } from '@adpilot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crc32 } from '../../lib/zip.ts';
import { buildRule } from '../../test/rule-factories.ts';
import { createTestApp, registerUser, type TestApp } from '../../test/test-app.ts';
import { createWorkspace } from '../../test/workspace-fixtures.ts';
import { unzip } from '../../test/zip-reader.ts';
import { ACCOUNT_EXPORT_JOB } from './account.jobs.ts';

/** "Export my data" (issue 31): a job builds the ZIP, a mailed link hands it over once, for 24 hours. */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({}, { jobQueue: { pollingIntervalSeconds: 0.5 } });
  await t.ctx.jobs.start({ work: true });
}, 60_000);
afterAll(async () => {
  await t.ctx.jobs.stop();
  await t.close();
});

type Session = Awaited<ReturnType<typeof registerUser>>;
const inWorkspace = (session: Session, workspaceId: string) => ({ ...session.auth, [WORKSPACE_HEADER]: workspaceId });

/** Asks for the export and waits for the worker's mail: the link it carries. */
async function exportOf(session: Session): Promise<string> {
  const mails = t.mailer.sent.length;
  const asked = await t.app.inject({ method: 'POST', url: '/api/account/export', headers: session.auth });
  expect(asked.statusCode).toBe(202);
  const deadline = Date.now() + 30_000;
  while (
    (t.mailer.sent.length === mails || (await t.ctx.jobs.backlog([ACCOUNT_EXPORT_JOB])) > 0) &&
    Date.now() < deadline
  )
    await new Promise((resolve) => setTimeout(resolve, 100));
  const mail = t.mailer.sent.slice(mails).find((sent) => sent.to === session.user.email);
  const link = /http:\/\/localhost:3000(\/api\/account\/export\/[A-Za-z0-9_-]{43})/.exec(mail?.text ?? '')?.[1];
  if (!link) throw new Error(`no export link mailed: ${mail?.text}`);
  return link;
}

describe('POST /api/account/export', () => {
  it(
    'mails a link to a ZIP with the rules and activity of each owned workspace, and no secret',
    { timeout: 60_000 },
    async () => {
      const owner = await registerUser(t.app);
      const client = await createWorkspace(t, owner, 'Client one');
      const rule = buildRule({ name: 'Pause the costly ads' });
      for (const id of [owner.workspaceId, client])
        expect(
          (await t.app.inject({ method: 'POST', url: '/api/rules', headers: inWorkspace(owner, id), payload: rule }))
            .statusCode,
        ).toBe(201);
      const minted = await t.app.inject({
        method: 'POST',
        url: '/api/tokens',
        headers: inWorkspace(owner, client),
        payload: { name: 'Reporting bot', scopes: ['read'] },
      });
      expect(minted.statusCode).toBe(201);
      const apiToken: string = minted.json().data.token;

      const link = await exportOf(owner);
      const download = await t.app.inject({ method: 'GET', url: link });
      expect(download.statusCode).toBe(200);
      expect(download.headers['content-type']).toBe('application/zip');
      const files = unzip(download.rawPayload, crc32);

      expect(JSON.parse(files.get('profile.json') ?? '{}')).toMatchObject({ email: owner.user.email });
      for (const id of [owner.workspaceId, client]) {
        const rules = JSON.parse(files.get(`workspaces/${id}/rules.json`) ?? '[]') as { name: string }[];
        expect(rules.map((r) => r.name)).toEqual(['Pause the costly ads']);
        expect(files.get(`workspaces/${id}/rules.csv`)).toContain('Pause the costly ads');
        const activity = JSON.parse(files.get(`workspaces/${id}/activity.json`) ?? '[]') as unknown[];
        expect(activity.length).toBeGreaterThan(0);
        expect(files.get(`workspaces/${id}/activity.csv`)?.split('\n').length).toBeGreaterThan(2);
      }
      const tokens = JSON.parse(files.get(`workspaces/${client}/api-tokens.json`) ?? '[]') as { name: string }[];
      expect(tokens.map((token) => token.name)).toEqual(['Reporting bot']);

      // Every secret the person holds, searched in plain text in every file of the archive.
      const secrets = [owner.password, apiToken, owner.refreshToken, owner.token];
      expect(secrets.every((secret) => typeof secret === 'string' && secret.length >= 8)).toBe(true);
      for (const [name, text] of files) for (const secret of secrets) expect(text, name).not.toContain(secret);
    },
  );

  it('hands the ZIP over once: the link answers 404 after, and after its 24 hours', { timeout: 60_000 }, async () => {
    const owner = await registerUser(t.app);
    const link = await exportOf(owner);
    const [first, second] = await Promise.all([
      t.app.inject({ method: 'GET', url: link }),
      t.app.inject({ method: 'GET', url: link }),
    ]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 404]);
    expect((await t.app.inject({ method: 'GET', url: link })).json()).toMatchObject({
      success: false,
      code: 'NOT_FOUND',
    });

    const later = await exportOf(owner);
    t.clock.advance(24 * 3_600_000 + 1);
    expect((await t.app.inject({ method: 'GET', url: later })).statusCode).toBe(404);
  });

  it('is asked signed in only, and a made-up link is refused in the envelope', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/account/export' })).statusCode).toBe(401);
    const bad = await t.app.inject({ method: 'GET', url: '/api/account/export/not-a-token' });
    expect(bad.statusCode).toBe(400);
    const unknown = await t.app.inject({ method: 'GET', url: `/api/account/export/${'A'.repeat(43)}` });
    expect(unknown.statusCode).toBe(404);
  });
});
