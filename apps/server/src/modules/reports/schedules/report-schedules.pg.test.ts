import {
  activityCodeOf,
  renderActivity,
  REPORT_SCHEDULES_MAX,
  REPORT_SENDS_PER_HOUR,
  WORKSPACE_HEADER,
} from '@adpilot/contracts';
import { activityLogs, reportDeliveries, reportSchedules, users, workspaceMembers } from '@adpilot/db';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mail, Mailer } from '../../../providers/mail/mailer.ts';
import { OutboxMailer } from '../../../providers/mail/mailer.ts';
import { confirmRecipients, seedReportAccount, seedRuleRun } from '../../../test/report-fixtures.ts';
import { buildRule } from '../../../test/rule-factories.ts';
import { createTestApp, registerUser, type TestApp } from '../../../test/test-app.ts';
import { renderReportPdf } from '../pdf/report-pdf.ts';
import type { ReportDocument } from '../report-document.ts';

type Session = Awaited<ReturnType<typeof registerUser>>;

let t: TestApp;
/** Every document the renderer was handed, newest last. */
const documents: ReportDocument[] = [];

beforeAll(async () => {
  // The outbox keeps what is sent, as on an instance without SMTP: the admin's outbox API then lists it.
  const outbox: Mailer = {
    kind: 'outbox',
    send: (mail: Mail) => new OutboxMailer(t.mailOutbox, pino({ level: 'silent' })).send(mail),
  };
  t = await createTestApp(
    { RATE_LIMIT_MAX: '0' },
    {
      mailer: outbox,
      reports: {
        render: async (doc) => {
          documents.push(doc);
          return renderReportPdf(doc);
        },
      },
    },
  );
  // Thursday 26 November 2026, 10:00 in Bangkok.
  t.clock.now = new Date('2026-11-26T03:00:00Z');
});
afterAll(() => t.close());

const url = '/api/reports/schedules';

async function create(session: Session, payload: object) {
  return t.app.inject({ method: 'POST', url, headers: session.auth, payload });
}

let clients = 0;
/** Each schedule its own client: an address's day of mail is counted across workspaces (ADR 0092). */
const valid = (overrides: object = {}) => ({
  frequency: 'weekly',
  language: 'en',
  recipients: [`client-${++clients}@example.com`],
  ...overrides,
});

describe('report schedules', () => {
  it('creates, lists, changes and deletes a schedule, read in its first account’s time zone', async () => {
    const session = await registerUser(t.app);
    const account = await seedReportAccount(t, session.workspaceId, { timezone: 'Asia/Bangkok' });
    const created = await create(session, valid({ recipients: ['Client@Example.com', 'boss@example.com'] }));
    expect(created.statusCode).toBe(201);
    const schedule = created.json().data;
    expect(schedule).toMatchObject({
      frequency: 'weekly',
      language: 'en',
      recipients: ['client@example.com', 'boss@example.com'],
      adAccountIds: null,
      timeZone: 'Asia/Bangkok',
      // Made on Thursday: the first report is the week in progress, due Monday 30 November at 08:00 in Bangkok.
      nextDueAt: '2026-11-30T01:00:00.000Z',
      lastDelivery: null,
    });

    const listed = await t.app.inject({ method: 'GET', url, headers: session.auth });
    expect(listed.json().data.map((row: { id: string }) => row.id)).toEqual([schedule.id]);

    const changed = await t.app.inject({
      method: 'PATCH',
      url: `${url}/${schedule.id}`,
      headers: session.auth,
      payload: { frequency: 'monthly', language: 'th', adAccountIds: [account] },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().data).toMatchObject({
      frequency: 'monthly',
      language: 'th',
      adAccountIds: [account],
      recipients: ['client@example.com', 'boss@example.com'],
      nextDueAt: '2026-12-01T01:00:00.000Z',
    });

    const removed = await t.app.inject({ method: 'DELETE', url: `${url}/${schedule.id}`, headers: session.auth });
    expect(removed.statusCode).toBe(200);
    const again = await t.app.inject({ method: 'DELETE', url: `${url}/${schedule.id}`, headers: session.auth });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ code: 'NOT_FOUND', message: 'Report schedule not found' });
  });

  it('refuses bad input field by field, and another workspace’s ad account as unknown', async () => {
    const session = await registerUser(t.app);
    const stranger = await registerUser(t.app);
    const theirs = await seedReportAccount(t, stranger.workspaceId);
    const cases: [object, string, string][] = [
      [valid({ recipients: [] }), 'recipients', 'Add at least one recipient'],
      [valid({ recipients: ['not-an-address'] }), 'recipients.0', 'Each recipient must be a valid e-mail address'],
      [valid({ recipients: ['a@example.com', 'A@example.com'] }), 'recipients', 'Each recipient may appear only once'],
      [
        valid({ recipients: Array.from({ length: 21 }, (_, i) => `r${i}@example.com`) }),
        'recipients',
        'A report goes to at most 20 addresses',
      ],
      [valid({ frequency: 'daily' }), 'frequency', 'Frequency must be one of weekly, monthly'],
      [valid({ adAccountIds: [] }), 'adAccountIds', 'Choose at least one ad account'],
      [valid({ adAccountIds: [theirs] }), 'adAccountIds', 'Unknown ad account'],
      [valid({ extra: true }), '', ''],
    ];
    for (const [payload, field, message] of cases) {
      const response = await create(session, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      const body = response.json();
      expect(body.code).toBe('VALIDATION_ERROR');
      if (field) {
        const error = body.errors.find((candidate: { field: string }) => candidate.field === field);
        expect(error?.message, `${field}: ${response.body}`).toContain(message);
      }
    }
    const created = (await create(session, valid())).json().data;
    const empty = await t.app.inject({
      method: 'PATCH',
      url: `${url}/${created.id}`,
      headers: session.auth,
      payload: {},
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('Nothing to change');
    const foreign = await t.app.inject({
      method: 'PATCH',
      url: `${url}/${created.id}`,
      headers: session.auth,
      payload: { adAccountIds: [theirs] },
    });
    expect(foreign.json()).toMatchObject({ code: 'VALIDATION_ERROR', errors: [{ field: 'adAccountIds' }] });
  });

  it('lets a viewer read and only an editor change or send', async () => {
    const owner = await registerUser(t.app);
    const viewer = await registerUser(t.app);
    const editor = await registerUser(t.app);
    await t.inspect((db) =>
      db.insert(workspaceMembers).values([
        { workspaceId: owner.workspaceId, userId: viewer.user.id, role: 'viewer' },
        { workspaceId: owner.workspaceId, userId: editor.user.id, role: 'editor' },
      ]),
    );
    const as = (session: Session) => ({ ...session.auth, [WORKSPACE_HEADER]: owner.workspaceId });
    const schedule = (await create(owner, valid())).json().data;
    expect((await t.app.inject({ method: 'GET', url, headers: as(viewer) })).json().data).toHaveLength(1);
    const refused = await t.app.inject({ method: 'POST', url, headers: as(viewer), payload: valid() });
    expect(refused.statusCode).toBe(403);
    const send = await t.app.inject({ method: 'POST', url: `${url}/${schedule.id}/send`, headers: as(viewer) });
    expect(send.statusCode).toBe(403);
    const preview = await t.app.inject({ method: 'GET', url: `${url}/${schedule.id}/preview`, headers: as(viewer) });
    expect(preview.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url, headers: as(editor), payload: valid() })).statusCode).toBe(201);
  });

  it('answers 404 for another workspace’s schedule on every route and leaves it alone', async () => {
    const owner = await registerUser(t.app);
    const intruder = await registerUser(t.app);
    const schedule = (await create(owner, valid())).json().data;
    const routes: [string, string, object?][] = [
      ['PATCH', `${url}/${schedule.id}`, { language: 'th' }],
      ['DELETE', `${url}/${schedule.id}`],
      ['POST', `${url}/${schedule.id}/send`],
      ['GET', `${url}/${schedule.id}/preview`],
    ];
    for (const [method, path, payload] of routes) {
      const response = await t.app.inject({ method: method as 'GET', url: path, headers: intruder.auth, payload });
      expect(response.statusCode, `${method} ${path}`).toBe(404);
    }
    expect((await t.app.inject({ method: 'GET', url, headers: intruder.auth })).json().data).toEqual([]);
    const [row] = await t.inspect((db) => db.select().from(reportSchedules).where(eq(reportSchedules.id, schedule.id)));
    expect(row?.language).toBe('en');
    expect(
      await t.inspect((db) => db.select().from(reportDeliveries).where(eq(reportDeliveries.scheduleId, schedule.id))),
    ).toEqual([]);
  });

  it(`keeps at most ${REPORT_SCHEDULES_MAX} schedules a workspace, counted under a lock against parallel creates`, async () => {
    const session = await registerUser(t.app);
    const answers = await Promise.all(Array.from({ length: REPORT_SCHEDULES_MAX + 5 }, () => create(session, valid())));
    const codes = answers.map((response) => response.statusCode);
    expect(codes.filter((code) => code === 201)).toHaveLength(REPORT_SCHEDULES_MAX);
    expect(codes.filter((code) => code === 409)).toHaveLength(5);
    expect(answers.find((response) => response.statusCode === 409)?.json()).toMatchObject({
      code: 'REPORT_SCHEDULE_LIMIT_REACHED',
      message: `A workspace keeps at most ${REPORT_SCHEDULES_MAX} report schedules`,
      params: { limit: REPORT_SCHEDULES_MAX },
    });
    const rows = await t.inspect((db) =>
      db.select().from(reportSchedules).where(eq(reportSchedules.workspaceId, session.workspaceId)),
    );
    expect(rows).toHaveLength(REPORT_SCHEDULES_MAX);
  });
});

/** A rule's actions on the account: a pause and a raise in the week, a cut the week before, a proposal waiting. */
async function seedRuleActions(session: Session, adAccountId: string) {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/rules',
    headers: session.auth,
    payload: buildRule(),
  });
  const ruleId: string = created.json().data.id;
  await seedRuleRun(t, { workspaceId: session.workspaceId, ruleId, adAccountId }, [
    {
      type: 'pause',
      field: 'status',
      at: '2026-11-18T05:00:00Z',
      beforeStatus: 'ACTIVE',
      afterStatus: 'PAUSED',
      state: 'applied',
    },
    {
      type: 'increase_budget',
      field: 'daily_budget',
      at: '2026-11-18T06:00:00Z',
      beforeMinor: 10000,
      afterMinor: 12000,
      state: 'applied',
    },
    {
      type: 'decrease_budget',
      field: 'daily_budget',
      at: '2026-11-12T06:00:00Z',
      beforeMinor: 9000,
      afterMinor: 8000,
      state: 'applied',
    },
    {
      type: 'pause',
      field: 'status',
      at: null,
      proposal: 'pending',
      expiresAt: new Date('2026-11-27T00:00:00Z'),
    },
  ]);
}

describe('send now and the preview', () => {
  it('mails the last full week to each recipient with the PDF attached, listed by the admin outbox', async () => {
    const session = await registerUser(t.app);
    await t.inspect((db) => db.update(users).set({ role: 'admin' }).where(eq(users.id, session.user.id)));
    const account = await seedReportAccount(t, session.workspaceId, {
      name: 'Shop TH',
      days: [
        // The week of 16–22 November and the week before it.
        ['c1', '2026-11-16', 300, 3, 900],
        ['c1', '2026-11-22', 100, 1, 300],
        ['c2', '2026-11-18', 600, 2, 600],
        ['c1', '2026-11-10', 200, 4, 400],
        // Outside both weeks: not counted.
        ['c1', '2026-11-24', 5000, 50, 5000],
      ],
    });
    await seedRuleActions(session, account);
    const recipients = ['a-client@example.com', 'b-boss@example.com'];
    await confirmRecipients(t, session.workspaceId, recipients);
    const schedule = (await create(session, valid({ recipients }))).json().data;

    const sent = await t.app.inject({ method: 'POST', url: `${url}/${schedule.id}/send`, headers: session.auth });
    expect(sent.statusCode).toBe(200);
    expect(sent.json().data).toMatchObject({
      periodStart: '2026-11-16',
      periodEnd: '2026-11-22',
      status: 'sent',
      trigger: 'manual',
      recipients,
      attempts: 1,
      errorCode: null,
    });

    const doc = documents.at(-1)!;
    expect(doc.period).toEqual({ start: '2026-11-16', end: '2026-11-22' });
    expect(doc.previous).toEqual({ start: '2026-11-09', end: '2026-11-15' });
    expect(doc.accounts[0]?.totals).toEqual({
      name: 'Shop TH',
      current: { spend: 1000, results: 6, cpa: 166.6667, roas: 1.8 },
      previous: { spend: 200, results: 4, cpa: 50, roas: 2 },
    });
    expect(doc.accounts[0]?.campaigns.map((row) => [row.name, row.current.spend, row.previous.spend])).toEqual([
      ['Campaign c2', 600, 0],
      ['Campaign c1', 400, 200],
    ]);
    expect(doc.chart[0]?.days).toHaveLength(7);
    expect(doc.chart[0]?.days[0]).toEqual({ date: '2026-11-16', spend: 300, results: 3, actions: 0 });
    // Both actions applied on 18 November in Bangkok; the one of the week before is not this report's.
    expect(doc.chart[0]?.days[2]).toMatchObject({ date: '2026-11-18', actions: 2 });
    expect(doc.rules).toEqual({
      actionsApplied: 2,
      paused: 1,
      budgetChanges: 1,
      proposalsWaiting: 1,
      perCurrency: [{ currency: 'THB', spendAvoided: expect.any(Number), budgetRaised: 20, budgetLowered: 0 }],
    });

    const outbox = await t.app.inject({ method: 'GET', url: '/api/admin/outbox', headers: session.auth });
    const mails = outbox.json().data.filter((mail: { to: string }) => recipients.includes(mail.to));
    expect(mails.map((mail: { to: string }) => mail.to).sort()).toEqual(recipients);
    for (const mail of mails) {
      expect(mail.subject).toMatch(/^AdPilot weekly ad report, /);
      expect(mail.text).toContain('Shop TH (THB)');
      expect(mail.attachments).toEqual([
        { fileName: 'adpilot-report-2026-11-22.pdf', contentType: 'application/pdf', size: expect.any(Number) },
      ]);
      expect(mail.attachments[0].size).toBeGreaterThan(100);
    }

    const listed = (await t.app.inject({ method: 'GET', url, headers: session.auth })).json().data[0];
    expect(listed.lastDelivery).toMatchObject({ status: 'sent', trigger: 'manual', periodStart: '2026-11-16' });
    const entries = await t.inspect((db) =>
      db.select().from(activityLogs).where(eq(activityLogs.workspaceId, session.workspaceId)),
    );
    const entry = entries.find((row) => (row.metadata as { code?: string }).code === 'report_sent');
    expect(entry).toMatchObject({ level: 'success', category: 'notification' });
    // The stored English and the Thai read from the stored code: the week as one range of days, the recipients counted.
    const spaced = (text: string) => text.replace(/[\u2009\u202f]/g, ' ');
    expect(spaced(entry!.description)).toBe('Sent the report for Nov 16 – 22, 2026 to 2 recipients');
    const coded = { ...activityCodeOf(entry!.metadata as Record<string, unknown>), description: entry!.description };
    expect(coded.params).toEqual({ from: '2026-11-16', to: '2026-11-22', recipients: 2 });
    expect(spaced(renderActivity(coded, 'th'))).toBe('ส่งรายงานช่วง 16–22 พ.ย. 2569 ถึงผู้รับ 2 คนแล้ว');
    expect(spaced(renderActivity({ ...coded, params: { ...coded.params, recipients: 1 } }, 'en'))).toBe(
      'Sent the report for Nov 16 – 22, 2026 to 1 recipient',
    );
  });

  it(`sends one schedule at most ${REPORT_SENDS_PER_HOUR} times an hour, then 429 with Retry-After`, async () => {
    const session = await registerUser(t.app);
    const schedule = (await create(session, valid())).json().data;
    let auth = session.auth;
    const send = () => t.app.inject({ method: 'POST', url: `${url}/${schedule.id}/send`, headers: auth });
    for (let i = 0; i < REPORT_SENDS_PER_HOUR; i += 1) expect((await send()).statusCode).toBe(200);
    const refused = await send();
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringContaining('an hour') });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another schedule of the same workspace has its own count.
    const other = (await create(session, valid())).json().data;
    expect((await t.app.inject({ method: 'POST', url: `${url}/${other.id}/send`, headers: auth })).statusCode).toBe(
      200,
    );
    t.clock.advance(3_600_000);
    try {
      // An hour on, the access token has expired too: sign in again.
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: session.user.email, password: session.password },
      });
      auth = { authorization: `Bearer ${login.json().data.token}` };
      expect((await send()).statusCode).toBe(200);
    } finally {
      t.clock.now = new Date('2026-11-26T03:00:00Z');
    }
  });

  it('answers the last full period’s PDF inline, named by its last day', async () => {
    const session = await registerUser(t.app);
    await seedReportAccount(t, session.workspaceId);
    const schedule = (await create(session, valid({ frequency: 'monthly', language: 'th' }))).json().data;
    const response = await t.app.inject({ method: 'GET', url: `${url}/${schedule.id}/preview`, headers: session.auth });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe('inline; filename="adpilot-report-2026-10-31.pdf"');
    expect(response.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(documents.at(-1)).toMatchObject({
      language: 'th',
      frequency: 'monthly',
      period: { start: '2026-10-01', end: '2026-10-31' },
      previous: { start: '2026-09-01', end: '2026-09-30' },
    });
    // Nothing was sent.
    const rows = await t.inspect((db) =>
      db.select().from(reportDeliveries).where(eq(reportDeliveries.scheduleId, schedule.id)),
    );
    expect(rows).toEqual([]);
  });
});
