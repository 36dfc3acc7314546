import { createHmac, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { activityLogs, notificationSettings, workspaceMembers, type TenantScope } from '@adpilot/db';
import { and, eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext, type AppContext } from '../../context.ts';
import { SmtpMailer } from '../../providers/mail/mailer.ts';
import { createTestApp, markEmailVerified, registerUser, TEST_SECRET, type TestApp } from '../../test/test-app.ts';
import { ActivityRepository } from '../activity/activity.repository.ts';
import { NOTIFY_JOBS } from './notification-dispatcher.ts';
import { nudgingActivity } from './notifications.module.ts';

/** What the local webhook receiver got: the raw body as sent, and the headers. */
interface Hit {
  path: string;
  body: string;
  signature: string | undefined;
}

/** A local HTTP receiver; each test uses its own path and chooses the status its path answers. */
function startReceiver() {
  const hits: Hit[] = [];
  const statusFor = new Map<string, number>();
  const server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      hits.push({ path, body, signature: request.headers['x-adpilot-signature'] as string | undefined });
      response.statusCode = statusFor.get(path) ?? 200;
      response.end('ok');
    });
  });
  return { server, hits, statusFor };
}

/** A local SMTP server speaking the real protocol, keeping every message. */
function startSmtp() {
  const mails: { to: string[]; data: string }[] = [];
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    onData(stream, session, callback) {
      let data = '';
      stream.on('data', (chunk: Buffer) => (data += chunk.toString()));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), data });
        callback();
      });
    },
  });
  return { server, mails };
}

/** The decoded text of a message (nodemailer sends non-ASCII as quoted-printable). */
function mailText(data: string): string {
  const flat = data.replace(/=\r?\n/g, '');
  return Buffer.from(
    flat.replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');
}

async function waitFor<T>(probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('timed out');
}

/** Until no notification job (delivery, retry, nudge, digest) is waiting or running: nothing more can arrive. */
async function settled(ctx: AppContext): Promise<void> {
  const names = Object.values(NOTIFY_JOBS);
  await waitFor(async () => ((await ctx.jobs.backlog(names)) === 0 ? true : undefined), 45_000);
}

const RETRY = { limit: 2, delaySeconds: 1 };

describe('notifications', () => {
  let t: TestApp;
  let second: AppContext;
  const receiver = startReceiver();
  const smtp = startSmtp();
  let base = '';
  let counter = 0;

  beforeAll(async () => {
    receiver.server.listen(0, '127.0.0.1');
    await once(receiver.server, 'listening');
    base = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}`;
    smtp.server.listen(0, '127.0.0.1');
    await once(smtp.server.server, 'listening');
    const smtpPort = (smtp.server.server.address() as AddressInfo).port;
    const mailer = () =>
      new SmtpMailer({ host: '127.0.0.1', port: smtpPort, secure: false }, 'AdPilot <n@adpilot.local>');
    t = await createTestApp(
      { WEBHOOK_ALLOWED_PRIVATE_HOSTS: '127.0.0.1' },
      { mailer: mailer(), webhookRetry: RETRY, jobQueue: { pollingIntervalSeconds: 0.5 } },
    );
    // A second process on the same database: its own services, queue and workers.
    second = createContext({
      config: t.ctx.config,
      database: t.database,
      appSecret: TEST_SECRET,
      log: pino({ level: 'silent' }),
      mailer: mailer(),
      webhookRetry: RETRY,
      jobQueue: { pollingIntervalSeconds: 0.5 },
    });
    await t.ctx.jobs.start({ work: true });
    await second.jobs.start({ work: true });
  }, 60_000);

  afterAll(async () => {
    await second.jobs.stop();
    await t.ctx.jobs.stop();
    await t.close();
    receiver.server.close();
    await new Promise<void>((resolve) => smtp.server.close(() => resolve()));
  }, 60_000);

  function hookPath(): string {
    counter += 1;
    return `/hook/${counter}-${Date.now()}`;
  }

  async function settings(session: { auth: Record<string, string> }, payload: object) {
    return t.app.inject({ method: 'PUT', url: '/api/notifications', headers: session.auth, payload });
  }

  /** An entry written as the activity writer writes it, in the member's unit of work in the workspace. */
  async function writeEntry(
    scope: TenantScope,
    entry: {
      level: 'error' | 'success' | 'info' | 'warning';
      category: string;
      description: string;
      metadata?: Record<string, unknown>;
    },
    createdAt?: Date,
  ): Promise<string> {
    return t.database.tenant(scope, async (tx) => {
      const [row] = await tx.db
        .insert(activityLogs)
        .values({ workspaceId: scope.workspaceId, metadata: {}, ...entry, ...(createdAt ? { createdAt } : {}) })
        .returning({ id: activityLogs.id });
      return row!.id;
    });
  }

  function verify(secret: string, hit: Hit): boolean {
    const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(hit.body).digest('hex')}`);
    const given = Buffer.from(hit.signature ?? '');
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  it('keeps the webhook secret sealed: shown once, then only its hint', async () => {
    const session = await registerUser(t.app);
    const first = await t.app.inject({ method: 'GET', url: '/api/notifications', headers: session.auth });
    expect(first.json().data).toMatchObject({ emailErrors: false, emailDigest: false, webhook: null });

    const saved = (await settings(session, { webhookUrl: `${base}${hookPath()}` })).json().data;
    expect(saved.webhookSecret).toMatch(/^whsec_/);
    expect(saved.webhook.secretHint).toBe(`whsec_…${saved.webhookSecret.slice(-4)}`);

    const again = (await t.app.inject({ method: 'GET', url: '/api/notifications', headers: session.auth })).json();
    expect(JSON.stringify(again)).not.toContain(saved.webhookSecret);
    const [row] = await t.inspect((db) =>
      db.select().from(notificationSettings).where(eq(notificationSettings.userId, session.user.id)),
    );
    expect(row?.webhookSecretEnc).toMatch(/^v1\./);
    expect(row?.webhookSecretEnc).not.toContain(saved.webhookSecret);

    // Changing the address keeps the secret; rotating makes a new one.
    const moved = (await settings(session, { webhookUrl: `${base}${hookPath()}` })).json().data;
    expect(moved.webhookSecret).toBeUndefined();
    const rotated = await t.app.inject({
      method: 'POST',
      url: '/api/notifications/webhook/secret',
      headers: session.auth,
    });
    expect(rotated.json().data.webhookSecret).not.toBe(saved.webhookSecret);
  });

  it.each([
    ['ftp://example.com/hook', 'https://'],
    ['javascript:alert(1)', 'https://'],
    ['https://user:pw@example.com/hook', 'user name'],
    ['http://10.0.0.5/hook', 'private'],
    ['http://169.254.169.254/latest/meta-data', 'private'],
    ['http://[::1]:8080/', 'private'],
    ['http://[::ffff:192.168.1.1]/', 'private'],
    ['http://localhost:9000/', 'private'],
    ['http://intranet/hook', 'private'],
  ])('refuses the webhook address %s with a 400', async (url, words) => {
    const session = await registerUser(t.app);
    const response = await settings(session, { webhookUrl: url });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    expect(response.json().errors[0]).toMatchObject({ field: 'webhookUrl' });
    expect(response.json().errors[0].message).toContain(words);
  });

  it('sends a signed test call that the receiver can verify', async () => {
    const session = await registerUser(t.app);
    const path = hookPath();
    const { webhookSecret } = (await settings(session, { webhookUrl: `${base}${path}` })).json().data;
    const result = await t.app.inject({
      method: 'POST',
      url: '/api/notifications/test',
      headers: session.auth,
      payload: { channel: 'webhook' },
    });
    expect(result.json().data).toEqual({ channel: 'webhook', delivered: true, status: 200, code: null });
    const hit = receiver.hits.find((h) => h.path === path)!;
    expect(verify(webhookSecret, hit)).toBe(true);
    expect(verify('whsec_wrong', hit)).toBe(false);
    expect(JSON.parse(hit.body)).toMatchObject({ text: expect.any(String), adpilot: { event: 'test' } });
  });

  it('sends at most five test e-mails an hour per user, however many are asked for at once', async () => {
    const session = await registerUser(t.app);
    await markEmailVerified(t, session.user.id);
    const ask = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/notifications/test',
        headers: session.auth,
        payload: { channel: 'email' },
      });
    const answers = await Promise.all(Array.from({ length: 14 }, ask));
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(5);
    const refused = answers.filter((answer) => answer.statusCode === 429);
    expect(refused).toHaveLength(9);
    expect(refused[0]!.json()).toMatchObject({ success: false, code: 'RATE_LIMITED' });
    expect(Number(refused[0]!.headers['retry-after'])).toBeGreaterThan(0);
    await waitFor(() => (smtp.mails.filter((m) => m.to.includes(session.user.email)).length >= 5 ? true : undefined));
    // Another user's budget is their own.
    const other = await registerUser(t.app);
    await markEmailVerified(t, other.user.id);
    const theirs = await t.app.inject({
      method: 'POST',
      url: '/api/notifications/test',
      headers: other.auth,
      payload: { channel: 'email' },
    });
    expect(theirs.statusCode).toBe(200);
  });

  it('delivers an error entry to the webhook through the job, signed, in the chosen language', async () => {
    const session = await registerUser(t.app);
    const path = hookPath();
    const { webhookSecret } = (await settings(session, { webhookUrl: `${base}${path}`, language: 'th' })).json().data;
    const id = await writeEntry(session.scope, {
      level: 'error',
      category: 'sync',
      description: 'Sync failed for <b>Shop</b>',
      metadata: { code: 'sync_failed', params: { account: 'Shop' } },
    });
    await t.modules.notifications.dispatcher.scanAll();
    const hit = await waitFor(() => receiver.hits.find((h) => h.path === path));
    expect(verify(webhookSecret, hit)).toBe(true);
    const body = JSON.parse(hit.body);
    // Slack's control characters in what a user or Meta wrote are sent as its entities (no link, no mention);
    // the entry under `adpilot` stays as it was written, and the link to the activity log is ours.
    expect(body.text).toContain('ข้อผิดพลาด: Sync failed for &lt;b&gt;Shop&lt;/b&gt;');
    expect(body.text).not.toContain('<b>');
    expect(body.text).toMatch(/\n<http[^|>]+\/activity\|[^>]+>$/);
    expect(body.adpilot.entry).toMatchObject({ id, level: 'error', type: 'sync', code: 'sync_failed' });
    expect(body.adpilot.entry.description).toBe('Sync failed for <b>Shop</b>');
  });

  it('retries a receiver answering 500 with backoff, then logs the failure as a coded entry', async () => {
    const session = await registerUser(t.app);
    const path = hookPath();
    receiver.statusFor.set(path, 500);
    await settings(session, { webhookUrl: `${base}${path}` });
    const id = await writeEntry(session.scope, { level: 'error', category: 'sync', description: 'Sync failed' });
    await t.modules.notifications.dispatcher.scanAll();

    const failure = await waitFor(async () => {
      const rows = await t.inspect((db) =>
        db
          .select()
          .from(activityLogs)
          .where(
            sql`${activityLogs.workspaceId} = ${session.workspaceId} and ${activityLogs.category} = 'notification'`,
          ),
      );
      return rows[0];
    }, 45_000);
    const attempts = receiver.hits.filter((h) => h.path === path);
    expect(attempts).toHaveLength(RETRY.limit + 1);
    expect(failure.level).toBe('error');
    expect(failure.metadata).toMatchObject({
      code: 'notification_webhook_failed',
      params: { host: new URL(base).host, attempts: RETRY.limit + 1, reason: 'http_status', status: 500 },
      activityId: id,
    });
    // The failure entry is an error, but it is not sent to the failing webhook again (no loop).
    await t.modules.notifications.dispatcher.scanAll();
    await settled(t.ctx);
    expect(receiver.hits.filter((h) => h.path === path)).toHaveLength(RETRY.limit + 1);
  }, 60_000);

  it('e-mails an error entry at once through SMTP, and nothing from before it was turned on', async () => {
    const session = await registerUser(t.app);
    await markEmailVerified(t, session.user.id);
    await writeEntry(session.scope, { level: 'error', category: 'sync', description: 'Old failure before opt-in' });
    await settings(session, { emailErrors: true });
    await writeEntry(session.scope, { level: 'error', category: 'sync', description: 'Token expired for Shop' });
    await writeEntry(session.scope, { level: 'info', category: 'sync', description: 'Synced Shop' });
    await t.modules.notifications.dispatcher.scanAll();
    const mail = await waitFor(() => smtp.mails.find((m) => m.to.includes(session.user.email)));
    expect(mail.data).toContain('Subject: AdPilot: Error: Token expired for Shop');
    await settled(t.ctx);
    const mine = smtp.mails.filter((m) => m.to.includes(session.user.email));
    expect(mine).toHaveLength(1);
    expect(mailText(mine[0]!.data)).not.toContain('Old failure');
  });

  it('sends a rule notify action on both channels', async () => {
    const session = await registerUser(t.app);
    await markEmailVerified(t, session.user.id);
    const path = hookPath();
    await settings(session, { webhookUrl: `${base}${path}`, emailErrors: true });
    await writeEntry(session.scope, {
      level: 'success',
      category: 'rule_action',
      description: 'Rule "Fatigue" applied notify on ad "A1"',
      metadata: { code: 'rule_action_applied', action: 'notify' },
    });
    await t.modules.notifications.dispatcher.scanAll();
    const hit = await waitFor(() => receiver.hits.find((h) => h.path === path));
    expect(JSON.parse(hit.body).text).toContain('Rule notification: Rule "Fatigue" applied notify');
    await waitFor(() => smtp.mails.find((m) => m.to.includes(session.user.email)));
  });

  it('a nudge from the activity writer alone sends an error entry within seconds', async () => {
    const session = await registerUser(t.app);
    const path = hookPath();
    await settings(session, { webhookUrl: `${base}${path}` });
    const nudged: string[] = [];
    const writer = nudgingActivity(new ActivityRepository(), (workspaceId) => {
      nudged.push(workspaceId);
      t.modules.notifications.dispatcher.nudge(workspaceId);
    });
    await t.database.tenant(session.scope, async (tx) => {
      await writer.insert(tx, { level: 'info', category: 'sync', description: 'Synced' });
      await writer.insert(tx, { level: 'error', category: 'sync', description: 'Nudged failure' });
    });
    // Only the error asked for a scan; no minute tick runs here, the nudge's job does the work.
    expect(nudged).toEqual([session.workspaceId]);
    const hit = await waitFor(() => receiver.hits.find((h) => h.path === path), 15_000);
    expect(JSON.parse(hit.body).adpilot.entry.description).toBe('Nudged failure');
  });

  it('sends each entry once however many processes scan at the same time', async () => {
    const session = await registerUser(t.app);
    await markEmailVerified(t, session.user.id);
    const path = hookPath();
    await settings(session, { webhookUrl: `${base}${path}`, emailErrors: true });
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1)
      ids.push(await writeEntry(session.scope, { level: 'error', category: 'sync', description: `Failure ${i}` }));
    // Both processes scan, several times, all at once, and nudges ask for more scans on both.
    await Promise.all([
      t.modules.notifications.dispatcher.scanAll(),
      second.modules.notifications.dispatcher.scanAll(),
      t.modules.notifications.dispatcher.scanWorkspace(session.workspaceId),
      second.modules.notifications.dispatcher.scanWorkspace(session.workspaceId),
      t.modules.notifications.dispatcher.scanAll(),
      second.modules.notifications.dispatcher.scanAll(),
    ]);
    t.modules.notifications.dispatcher.nudge(session.workspaceId);
    second.modules.notifications.dispatcher.nudge(session.workspaceId);
    await waitFor(() => (receiver.hits.filter((h) => h.path === path).length >= 5 ? true : undefined));
    await waitFor(() => (smtp.mails.filter((m) => m.to.includes(session.user.email)).length >= 5 ? true : undefined));
    // Every delivery, retry and nudge (they run a second later) is done on both processes: a duplicate would be in.
    await settled(t.ctx);
    await Promise.all([
      t.modules.notifications.dispatcher.scanAll(),
      second.modules.notifications.dispatcher.scanAll(),
    ]);
    await settled(t.ctx);
    const delivered = receiver.hits.filter((h) => h.path === path).map((h) => JSON.parse(h.body).adpilot.entry.id);
    expect(delivered.sort()).toEqual([...ids].sort());
    const mails = smtp.mails.filter((m) => m.to.includes(session.user.email)).map((m) => mailText(m.data));
    expect(mails).toHaveLength(5);
    for (let i = 0; i < 5; i += 1) expect(mails.filter((m) => m.includes(`Error: Failure ${i}`))).toHaveLength(1);
  }, 60_000);

  it('sends the daily digest of the previous local day once, through SMTP', async () => {
    const session = await registerUser(t.app);
    await markEmailVerified(t, session.user.id);
    await settings(session, { emailDigest: true, timeZone: 'Asia/Bangkok', digestHour: 8, language: 'en' });
    // 2026-03-10 in Bangkok (UTC+7) runs from 03-09T17:00Z to 03-10T17:00Z.
    await writeEntry(
      session.scope,
      { level: 'success', category: 'rule_action', description: 'Paused ad "A1"' },
      new Date('2026-03-09T17:30:00Z'),
    );
    await writeEntry(
      session.scope,
      { level: 'error', category: 'rule_action', description: 'Could not pause ad "A2"' },
      new Date('2026-03-10T16:59:00Z'),
    );
    await writeEntry(
      session.scope,
      { level: 'success', category: 'rule_action', description: 'Paused ad "A3" next day' },
      new Date('2026-03-10T17:00:00Z'),
    );
    await writeEntry(
      session.scope,
      { level: 'info', category: 'sync', description: 'Synced' },
      new Date('2026-03-10T05:00:00Z'),
    );
    // 07:30 in Bangkok on the 11th: the hour has not come.
    const early = await t.modules.notifications.dispatcher.enqueueDueDigests(new Date('2026-03-11T00:30:00Z'));
    const at = new Date('2026-03-11T02:00:00Z'); // 09:00 in Bangkok
    const queued = await Promise.all([
      t.modules.notifications.dispatcher.enqueueDueDigests(at),
      second.modules.notifications.dispatcher.enqueueDueDigests(at),
    ]);
    const mail = await waitFor(() => smtp.mails.find((m) => m.to.includes(session.user.email)));
    const text = mailText(mail.data);
    expect(text).toContain('AdPilot daily summary for 2026-03-10: 2 action(s)');
    expect(text).toContain('1 applied, 1 failed, 0 other');
    expect(text).toContain('Paused ad "A1"');
    expect(text).toContain('Could not pause ad "A2"');
    expect(text).not.toContain('A3');
    expect(text).not.toContain('Synced');
    expect(queued.filter((n) => n > 0)).toHaveLength(1);
    expect(early).toBe(0);
    // A later tick the same day queues nothing again.
    expect(await t.modules.notifications.dispatcher.enqueueDueDigests(new Date('2026-03-11T10:00:00Z'))).toBe(0);
  });

  it("mails a workspace's error to each member who asked, once, and nothing to a member who left", async () => {
    const owner = await registerUser(t.app);
    const member = await registerUser(t.app);
    await t.inspect((db) =>
      db.insert(workspaceMembers).values({ workspaceId: owner.workspaceId, userId: member.user.id, role: 'viewer' }),
    );
    for (const person of [owner, member]) {
      await markEmailVerified(t, person.user.id);
      await settings(person, { emailErrors: true });
    }
    const mailsTo = (email: string) => smtp.mails.filter((m) => m.to.includes(email)).map((m) => mailText(m.data));

    await writeEntry(owner.scope, { level: 'error', category: 'sync', description: 'Team failure before' });
    await Promise.all([
      t.modules.notifications.dispatcher.scanAll(),
      second.modules.notifications.dispatcher.scanWorkspace(owner.workspaceId),
    ]);
    await waitFor(() =>
      mailsTo(owner.user.email).length > 0 && mailsTo(member.user.email).length > 0 ? true : undefined,
    );
    await settled(t.ctx);
    await t.modules.notifications.dispatcher.scanAll();
    await settled(t.ctx);
    for (const person of [owner, member]) {
      const mine = mailsTo(person.user.email);
      expect(mine).toHaveLength(1);
      expect(mine[0]).toContain('Error: Team failure before');
    }

    // The member leaves: later entries of the workspace reach its owner only, by the scan or by a job already queued.
    await t.inspect((db) =>
      db
        .delete(workspaceMembers)
        .where(and(eq(workspaceMembers.workspaceId, owner.workspaceId), eq(workspaceMembers.userId, member.user.id))),
    );
    const later = await writeEntry(owner.scope, {
      level: 'error',
      category: 'sync',
      description: 'Team failure after',
    });
    await Promise.all([
      t.modules.notifications.dispatcher.scanAll(),
      second.modules.notifications.dispatcher.scanWorkspace(owner.workspaceId),
    ]);
    await t.modules.notifications.dispatcher.deliverEmail(
      { workspaceId: owner.workspaceId, userId: member.user.id },
      later,
    );
    await waitFor(() => (mailsTo(owner.user.email).length >= 2 ? true : undefined));
    await settled(t.ctx);
    expect(mailsTo(owner.user.email)).toHaveLength(2);
    expect(mailsTo(owner.user.email)[1]).toContain('Error: Team failure after');
    expect(mailsTo(member.user.email)).toHaveLength(1);
  }, 60_000);

  it("keeps another user's settings out of reach", async () => {
    const owner = await registerUser(t.app);
    await markEmailVerified(t, owner.user.id);
    const other = await registerUser(t.app);
    await settings(owner, { webhookUrl: `${base}${hookPath()}`, emailErrors: true });
    const seen = (await t.app.inject({ method: 'GET', url: '/api/notifications', headers: other.auth })).json().data;
    expect(seen).toMatchObject({ email: other.user.email, webhook: null, emailErrors: false });
    // Even asked for by id, inside the other user's unit of work, the row is not there (forced row-level security).
    const rows = await t.database.user(other.user.id, (tx) =>
      tx.db.select().from(notificationSettings).where(eq(notificationSettings.userId, owner.user.id)),
    );
    expect(rows).toHaveLength(0);
    // The other user's test has no webhook to call: it never reaches the owner's.
    const test = await t.app.inject({
      method: 'POST',
      url: '/api/notifications/test',
      headers: other.auth,
      payload: { channel: 'webhook' },
    });
    expect(test.statusCode).toBe(400);
    const [{ forced } = { forced: false }] = await t.inspect(async (db) => {
      const result = (await db.execute(
        sql`select relforcerowsecurity as forced from pg_class where relname = 'notification_settings'`,
      )) as unknown as { rows: { forced: boolean }[] };
      return result.rows;
    });
    expect(forced).toBe(true);
  });

  it('needs a signed-in user', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/notifications' });
    expect(response.statusCode).toBe(401);
    expect(NOTIFY_JOBS.webhook).toBe('notify-webhook');
  });
});
