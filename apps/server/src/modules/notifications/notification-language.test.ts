import type { ActivityLanguage } from '@adpilot/contracts';
import { activityLogs } from '@adpilot/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmtpMailer } from '../../providers/mail/mailer.ts';
import { startHttpFake, type RunningFake } from '../../test/fakes/http-fake.ts';
import { readMail, startSmtpFake, type RunningSmtpFake } from '../../test/fakes/smtp-fake.ts';
import { createTestApp, markEmailVerified, registerUser, type TestApp } from '../../test/test-app.ts';

const SMTP = { user: 'notify@example.com', pass: 'smtp-pass-5150' };

/** A failed rule action as the rule executor writes it: the code and its parameters, and the English description. */
const failedAction = {
  level: 'error' as const,
  category: 'rule_action',
  description:
    'Rule "Stop loss" could not apply decrease budget on adset "Summer <b>1</b>" (daily budget 100 → 80 THB): reauth_required',
  metadata: {
    code: 'rule_action_failed',
    params: { ruleName: 'Stop loss', action: 'decrease_budget', target: 'Summer <b>1</b>', error: 'reauth_required' },
    action: 'decrease_budget',
  },
};

const appliedAction = {
  level: 'success' as const,
  category: 'rule_action',
  description: 'Rule "Stop loss" applied pause on ad "A1" (status ACTIVE → PAUSED)',
  metadata: {
    code: 'rule_action_applied',
    params: { ruleName: 'Stop loss', action: 'pause', target: 'A1' },
    action: 'pause',
  },
};

const EXPECTED = {
  en: {
    failed:
      'Rule “Stop loss” could not lower the budget on “Summer <b>1</b>” (Facebook access has expired: reconnect the account)',
    applied: 'Rule “Stop loss”: pause on “A1”',
    error: 'Error',
  },
  th: {
    failed: 'กฎ “Stop loss” ลดงบประมาณ “Summer <b>1</b>” ไม่สำเร็จ (สิทธิ์เข้าถึง Facebook หมดอายุ กรุณาเชื่อมต่อบัญชีใหม่)',
    applied: 'กฎ “Stop loss”: หยุดชั่วคราว “A1”',
    error: 'ข้อผิดพลาด',
  },
} as const;

describe('notifications in the reader’s language', () => {
  let t: TestApp;
  let smtp: RunningSmtpFake;
  let receiver: RunningFake;
  const bodies = new Map<string, string>();

  beforeAll(async () => {
    smtp = await startSmtpFake(SMTP);
    receiver = await startHttpFake((request, body) => {
      bodies.set(request.url ?? '', body);
      return { status: 200, body: { ok: true } };
    });
    t = await createTestApp(
      { WEBHOOK_ALLOWED_PRIVATE_HOSTS: '127.0.0.1' },
      {
        mailer: new SmtpMailer(
          { host: '127.0.0.1', port: smtp.port, user: SMTP.user, pass: SMTP.pass, secure: false },
          'AdPilot <n@adpilot.local>',
        ),
      },
    );
  }, 60_000);

  afterAll(async () => {
    await t.close();
    await receiver.close();
    await smtp.close();
  });

  /** A user with every channel on, in `language`, with a failed and an applied rule action on 2026-03-10 (Bangkok). */
  async function subscriber(language: ActivityLanguage) {
    const session = await registerUser(t.app);
    await markEmailVerified(t, session.user.id);
    const path = `/hook/${session.user.id}`;
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/notifications',
      headers: session.auth,
      payload: {
        emailErrors: true,
        emailDigest: true,
        language,
        timeZone: 'Asia/Bangkok',
        webhookUrl: `${receiver.url}${path}`,
      },
    });
    expect(saved.statusCode).toBe(200);
    const [failedId, appliedId] = await t.database.tenant(session.scope, async (tx) => {
      const ids: string[] = [];
      for (const [entry, at] of [
        [failedAction, '2026-03-10T02:00:00Z'],
        [appliedAction, '2026-03-10T03:00:00Z'],
      ] as const) {
        const [row] = await tx.db
          .insert(activityLogs)
          .values({ workspaceId: session.workspaceId, ...entry, createdAt: new Date(at) })
          .returning({ id: activityLogs.id });
        ids.push(row!.id);
      }
      return ids;
    });
    return { session, path, failedId: failedId!, appliedId: appliedId! };
  }

  const mailsTo = (email: string) => smtp.received.filter((m) => m.to.includes(email)).map((m) => readMail(m.data));

  it.each(['th', 'en'] as const)(
    'e-mails a %s user the entry and the digest line in their language',
    async (language) => {
      const { session, failedId } = await subscriber(language);
      const expected = EXPECTED[language];
      await t.modules.notifications.dispatcher.deliverEmail(session.scope, failedId);
      expect(await t.modules.notifications.dispatcher.sendDigest(session.scope, '2026-03-10')).toBe(true);

      const [entryMail, digestMail] = mailsTo(session.user.email);
      expect(entryMail!.subject).toBe(`AdPilot: ${expected.error}: ${expected.failed}`);
      expect(entryMail!.text.split('\n')).toContain(`${expected.error}: ${expected.failed}`);
      // The stored English description is not what the reader gets, in either language.
      expect(entryMail!.text).not.toContain(failedAction.description);

      const lines = digestMail!.text.split('\n').filter((line) => line.startsWith('- '));
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(new RegExp(` · ${expected.error} · ${escape(expected.failed)}$`));
      expect(lines[1]!.endsWith(` · ${expected.applied}`)).toBe(true);
      expect(digestMail!.text).not.toContain('reauth_required');
    },
  );

  it.each(['th', 'en'] as const)('words the webhook text in %s and keeps the entry as data', async (language) => {
    const { session, path, failedId } = await subscriber(language);
    await t.modules.notifications.dispatcher.deliverWebhook(session.scope, failedId, {
      retryCount: 0,
      retryLimit: 0,
    });
    const body = JSON.parse(bodies.get(path)!);
    // The same words, with Slack's control characters in the ad's name sent as its entities.
    expect(body.text.split('\n')[0]).toBe(
      `${EXPECTED[language].error}: ${EXPECTED[language].failed}`.replace('<b>1</b>', '&lt;b&gt;1&lt;/b&gt;'),
    );
    expect(body.adpilot.entry).toMatchObject({
      id: failedId,
      code: 'rule_action_failed',
      params: failedAction.metadata.params,
      description: failedAction.description,
    });
  });

  it('sends an uncoded entry as its own text, markup and all kept as text, and never mails a note', async () => {
    const { session } = await subscriber('th');
    const [entry, note] = await t.database.tenant(session.scope, (tx) =>
      tx.db
        .insert(activityLogs)
        .values([
          {
            workspaceId: session.workspaceId,
            level: 'error',
            category: 'sync',
            description: 'ดูแคมเปญ <script>x</script>',
          },
          {
            workspaceId: session.workspaceId,
            level: 'error',
            category: 'note',
            description: 'Visit http://evil.example now',
          },
        ])
        .returning({ id: activityLogs.id }),
    );
    await t.modules.notifications.dispatcher.deliverEmail(session.scope, note!.id);
    expect(mailsTo(session.user.email)).toHaveLength(0);
    await t.modules.notifications.dispatcher.deliverEmail(session.scope, entry!.id);
    const [mail] = mailsTo(session.user.email);
    expect(mail!.subject).toBe('AdPilot: ข้อผิดพลาด: ดูแคมเปญ <script>x</script>');
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
