import { activityCodeOf, REPORT_SEND_ATTEMPTS, renderActivity } from '@adpilot/contracts';
import { activityLogs, reportDeliveries, reportSchedules } from '@adpilot/db';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createContext, type AppContext } from '../../../context.ts';
import type { Mail, Mailer } from '../../../providers/mail/mailer.ts';
import { confirmRecipients, seedReportAccount } from '../../../test/report-fixtures.ts';
import { createTestApp, registerUser, TEST_SECRET, type TestApp } from '../../../test/test-app.ts';
import { REPORT_JOBS } from './report-scheduler.ts';

/**
 * The clock's reports on the real queue, with two processes on one database (two contexts, each with its own
 * services, queue and workers) polling the same due schedule at once: each period goes out exactly once. Their mailer
 * fails every address with "fail" in it, so a failing delivery is retried through the queue and then logged.
 */
class FlakyMailer implements Mailer {
  readonly kind = 'outbox';
  readonly sent: Mail[] = [];
  tries = 0;
  async send(mail: Mail): Promise<void> {
    if (mail.to.includes('fail')) {
      this.tries += 1;
      throw new Error('SMTP refused the recipient');
    }
    this.sent.push(mail);
  }
}

let t: TestApp;
let second: AppContext;
const mailers = [new FlakyMailer(), new FlakyMailer()];
/** Monday 16 November 2026, noon in Bangkok: the week of 16–22 November is the schedules' first. */
const MADE = new Date('2026-11-16T05:00:00Z');

beforeAll(async () => {
  const timing = { pollingIntervalSeconds: 0.5 };
  t = await createTestApp({}, { mailer: mailers[0], jobQueue: timing, reports: { retryDelaySeconds: 1 } });
  t.clock.now = MADE;
  second = createContext({
    config: t.ctx.config,
    database: t.database,
    appSecret: TEST_SECRET,
    log: pino({ level: 'silent' }),
    mailer: mailers[1],
    jobQueue: timing,
    reports: { retryDelaySeconds: 1 },
    now: () => t.clock.now,
  });
  await t.ctx.jobs.start({ work: true });
  await second.jobs.start({ work: true });
}, 60_000);

afterAll(async () => {
  await second.jobs.stop();
  await t.ctx.jobs.stop();
  await t.close();
}, 60_000);

const schedulers = () => [t.modules.reports.scheduler, second.modules.reports.scheduler];

async function makeSchedule(recipients: string[]) {
  const session = await registerUser(t.app);
  await seedReportAccount(t, session.workspaceId, {
    timezone: 'Asia/Bangkok',
    days: [['c1', '2026-11-17', 120, 3, 360]],
  });
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/reports/schedules',
    headers: session.auth,
    payload: { frequency: 'weekly', language: 'th', recipients },
  });
  expect(created.statusCode).toBe(201);
  await confirmRecipients(t, session.workspaceId, recipients);
  return { session, scheduleId: created.json().data.id as string };
}

/** Waits, up to a bound, until the queue holds no send job of the reports: every attempt has run. */
async function settled(timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  while ((await t.ctx.jobs.backlog([REPORT_JOBS.send])) > 0) {
    if (Date.now() > until) throw new Error('report sends did not settle');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The schedules as the API lists them, signed in again (the moved clock expired the first access token). */
async function listedFor(session: Awaited<ReturnType<typeof registerUser>>) {
  const login = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: session.user.email, password: session.password },
  });
  const authorization = `Bearer ${login.json().data.token}`;
  const listed = await t.app.inject({ method: 'GET', url: '/api/reports/schedules', headers: { authorization } });
  return listed.json().data;
}

const deliveriesOf = (scheduleId: string) =>
  t.inspect((db) => db.select().from(reportDeliveries).where(eq(reportDeliveries.scheduleId, scheduleId)));

/** Intl's thin and narrow spaces (around a range's dash) as plain ones. */
const spaced = (text: string) => text.replace(/[\u2009\u202f]/g, ' ');

const entriesOf = async (workspaceId: string, code: string) =>
  (await t.inspect((db) => db.select().from(activityLogs).where(eq(activityLogs.workspaceId, workspaceId)))).filter(
    (row) => (row.metadata as { code?: string }).code === code,
  );

describe('scheduled reports on the queue, two workers', () => {
  // Each test's schedules go with it, so another test's scans (in any order) never find them due.
  afterEach(async () => {
    await settled(60_000);
    await t.inspect((db) => db.delete(reportSchedules));
  }, 90_000);

  it('sends a due period exactly once however many workers find it due at once', async () => {
    t.clock.now = MADE;
    const recipients = ['one@example.com', 'two@example.com'];
    const { session, scheduleId } = await makeSchedule(recipients);
    const before = mailers.map((mailer) => mailer.sent.length);

    // Monday 23 November, 07:59 in Bangkok: the week of 16–22 November is not due yet.
    t.clock.now = new Date('2026-11-23T00:59:00Z');
    const early = await Promise.all(schedulers().map((scheduler) => scheduler.enqueueDue()));
    expect(early.flat()).toEqual([]);
    expect(await deliveriesOf(scheduleId)).toEqual([]);

    // 08:01: due. Both processes scan three times each, all at once.
    t.clock.now = new Date('2026-11-23T01:01:00Z');
    const claims = await Promise.all([0, 1, 2].flatMap(() => schedulers().map((scheduler) => scheduler.enqueueDue())));
    await settled();
    const rows = await deliveriesOf(scheduleId);
    expect(rows).toHaveLength(1);
    expect(claims.flat().filter((id) => id === rows[0]!.id)).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      periodStart: '2026-11-16',
      periodEnd: '2026-11-22',
      trigger: 'scheduled',
      status: 'sent',
      attempts: 1,
      sentTo: recipients,
    });
    const mails = mailers.flatMap((mailer, index) => mailer.sent.slice(before[index]));
    expect(mails.map((mail) => mail.to).sort()).toEqual(recipients);
    for (const mail of mails) {
      expect(mail.subject).toContain('รายงานโฆษณาประจำสัปดาห์');
      expect(mail.attachments?.[0]).toMatchObject({ fileName: 'adpilot-report-2026-11-22.pdf' });
    }
    expect(await entriesOf(session.workspaceId, 'report_sent')).toHaveLength(1);

    // Later scans the same week send nothing more; the next week is due on 30 November.
    t.clock.now = new Date('2026-11-25T01:01:00Z');
    await Promise.all(schedulers().map((scheduler) => scheduler.enqueueDue()));
    await settled();
    expect(await deliveriesOf(scheduleId)).toHaveLength(1);
    expect((await listedFor(session))[0]).toMatchObject({
      nextDueAt: '2026-11-30T01:00:00.000Z',
      lastDelivery: { status: 'sent', trigger: 'scheduled', periodStart: '2026-11-16' },
    });
  }, 60_000);

  it(`tries a failing report ${REPORT_SEND_ATTEMPTS} times, mails nobody twice, then logs it failed`, async () => {
    t.clock.now = MADE;
    const { session, scheduleId } = await makeSchedule(['fine@example.com', 'fail@example.com']);
    const before = mailers.map((mailer) => mailer.sent.length);
    const tries = mailers.reduce((sum, mailer) => sum + mailer.tries, 0);

    t.clock.now = new Date('2026-11-23T01:01:00Z');
    await Promise.all(schedulers().map((scheduler) => scheduler.enqueueDue()));
    await settled(60_000);

    const [row] = await deliveriesOf(scheduleId);
    expect(row).toMatchObject({
      status: 'failed',
      attempts: REPORT_SEND_ATTEMPTS,
      errorCode: 'mail_failed',
      sentTo: ['fine@example.com'],
    });
    expect(mailers.reduce((sum, mailer) => sum + mailer.tries, 0) - tries).toBe(REPORT_SEND_ATTEMPTS);
    const fine = mailers.flatMap((mailer, index) => mailer.sent.slice(before[index]));
    expect(fine.map((mail) => mail.to)).toEqual(['fine@example.com']);
    const [entry] = await entriesOf(session.workspaceId, 'report_failed');
    expect(REPORT_SEND_ATTEMPTS).toBe(3);
    // The stored English and the Thai read from the stored code: the period as one range of days, the tries counted.
    expect(entry).toMatchObject({ level: 'error' });
    expect(spaced(entry!.description)).toBe('The report for Nov 16 – 22, 2026 could not be sent after 3 attempts');
    const coded = { ...activityCodeOf(entry!.metadata as Record<string, unknown>), description: entry!.description };
    expect(coded.params).toMatchObject({ from: '2026-11-16', to: '2026-11-22', attempts: 3 });
    expect(spaced(renderActivity(coded, 'th'))).toBe('ส่งรายงานช่วง 16–22 พ.ย. 2569 ไม่สำเร็จหลังจากพยายาม 3 ครั้ง');
    expect(await entriesOf(session.workspaceId, 'report_sent')).toEqual([]);
    expect((await listedFor(session))[0].lastDelivery).toMatchObject({ status: 'failed', errorCode: 'mail_failed' });
  }, 90_000);

  it('answers a refused "Send now" as a failed delivery after one attempt, logged, without a retry', async () => {
    t.clock.now = MADE;
    const { session, scheduleId } = await makeSchedule(['fail-now@example.com']);
    const tries = mailers.reduce((sum, mailer) => sum + mailer.tries, 0);
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/reports/schedules/${scheduleId}/send`,
      headers: session.auth,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({
      periodStart: '2026-11-09',
      periodEnd: '2026-11-15',
      trigger: 'manual',
      status: 'failed',
      attempts: 1,
      errorCode: 'mail_failed',
    });
    expect(mailers.reduce((sum, mailer) => sum + mailer.tries, 0) - tries).toBe(1);
    expect(await t.ctx.jobs.backlog([REPORT_JOBS.send])).toBe(0);
    expect(await entriesOf(session.workspaceId, 'report_failed')).toHaveLength(1);
  });

  // A clock's claim (its first week, due on 23 November) or a "Send now" made on 20 November for the week before,
  // each as a crashed process left it: the row, pending, and no job.
  it.each([
    { trigger: 'scheduled' as const, period: ['2026-11-16', '2026-11-22'], at: '2026-11-23T01:01:00Z' },
    { trigger: 'manual' as const, period: ['2026-11-09', '2026-11-15'], at: '2026-11-20T03:00:00Z' },
  ])(
    'sends a $trigger delivery whose job was lost (a crash) once, half an hour on',
    async ({ trigger, period, at }) => {
      t.clock.now = MADE;
      const recipients = [`lost-${trigger}@example.com`];
      const { session, scheduleId } = await makeSchedule(recipients);
      const before = mailers.map((mailer) => mailer.sent.length);
      const claimedAt = new Date(at);
      await t.inspect((db) =>
        db.insert(reportDeliveries).values({
          scheduleId,
          workspaceId: session.workspaceId,
          periodStart: period[0]!,
          periodEnd: period[1]!,
          trigger,
          recipients,
          createdAt: claimedAt,
          at: claimedAt,
        }),
      );
      t.clock.now = new Date(claimedAt.getTime() + 10 * 60_000);
      await Promise.all(schedulers().map((scheduler) => scheduler.enqueueDue()));
      await settled();
      expect((await deliveriesOf(scheduleId))[0]?.status).toBe('pending');

      t.clock.now = new Date(claimedAt.getTime() + 31 * 60_000);
      await Promise.all(schedulers().map((scheduler) => scheduler.enqueueDue()));
      await settled();
      const rows = await deliveriesOf(scheduleId);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ status: 'sent', sentTo: recipients, trigger });
      const mails = mailers.flatMap((mailer, index) => mailer.sent.slice(before[index]));
      expect(mails.map((mail) => mail.to)).toEqual(recipients);
    },
  );
});
