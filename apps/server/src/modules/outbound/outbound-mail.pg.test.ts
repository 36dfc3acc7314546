import { MAIL_NAME_MAX, WORKSPACES_PER_PERSON, WORKSPACE_HEADER } from '@adpilot/contracts';
import { mailRecipients } from '@adpilot/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mail } from '../../providers/mail/mailer.ts';
import { createTestApp, registerUser, type TestApp } from '../../test/test-app.ts';
import { putOnPlan } from '../../test/workspace-fixtures.ts';

type Session = Awaited<ReturnType<typeof registerUser>>;

/**
 * Outbound mail (ADR 0092): the doors of a mail relay closed. An outside address gets one mail asking it to confirm
 * and nothing more until it does, however many sends run at once; every mail is counted against the sender's, the
 * workspace's and the recipient's day, exactly under parallel sends; every mail carries List-Unsubscribe; chosen
 * names never start a subject and carry no link.
 */
let t: TestApp;
const LIMITS = { perSender: 6, perWorkspace: 9, perRecipient: 3, confirmationsPerRecipient: 2 };

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_MAX: '0' }, { mailLimits: LIMITS });
  t.clock.now = new Date('2026-11-26T03:00:00Z');
});
afterAll(() => t.close());

let counter = 0;
const address = (label: string) => `${label}-${++counter}-${Math.random().toString(36).slice(2, 8)}@client.example`;
const mailsTo = (to: string) => t.mailer.sent.filter((mail) => mail.to === to);

async function workspaceOf(session: Session, name: string): Promise<string> {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/workspaces',
    headers: session.auth,
    payload: { name },
  });
  expect(created.statusCode).toBe(201);
  return created.json().data.id as string;
}

async function scheduleTo(session: Session, workspaceId: string, recipients: string[]): Promise<string> {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/reports/schedules',
    headers: { ...session.auth, [WORKSPACE_HEADER]: workspaceId },
    payload: { frequency: 'weekly', language: 'en', recipients },
  });
  expect(created.statusCode).toBe(201);
  return created.json().data.id as string;
}

const sendNow = (session: Session, workspaceId: string, id: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/reports/schedules/${id}/send`,
    headers: { ...session.auth, [WORKSPACE_HEADER]: workspaceId },
  });

/** The addresses said yes behind the API's back (the confirm link is tested on its own below). */
async function confirmed(workspaceId: string, emails: string[]): Promise<void> {
  await t.inspect((db) =>
    db.insert(mailRecipients).values(emails.map((email) => ({ workspaceId, email, state: 'confirmed' as const }))),
  );
}

const linkIn = (mail: Mail, purpose: 'confirm' | 'unsubscribe') => {
  const match = mail.text.match(new RegExp(`/mail/${purpose}\\?token=([^\\s]+)`));
  if (!match?.[1]) throw new Error(`no ${purpose} link in: ${mail.text}`);
  return decodeURIComponent(match[1]);
};

describe('an outside address', () => {
  it('gets one mail asking to confirm, however many sends run at once, and nothing more until it confirms', async () => {
    const owner = await registerUser(t.app);
    const workspaceId = await workspaceOf(owner, 'Acme Agency');
    const outside = [address('a'), address('b'), address('c')];
    const id = await scheduleTo(owner, workspaceId, outside);

    const answers = await Promise.all(Array.from({ length: 4 }, () => sendNow(owner, workspaceId, id)));
    for (const answer of answers) expect(answer.statusCode).toBe(200);
    for (const to of outside) {
      const mails = mailsTo(to);
      expect(mails).toHaveLength(1);
      expect(mails[0]?.subject).toMatch(/^AdPilot: confirm the ad reports of “Acme Agency”/);
      expect(mails[0]?.attachments ?? []).toHaveLength(0);
      expect(mails[0]?.text).toContain('/mail/confirm?token=');
      expect(mails[0]?.headers?.['List-Unsubscribe']).toMatch(/^<http.*\/api\/mail\/unsubscribe\?token=.+>$/);
    }
    const outcomes = answers.map((answer) => answer.json().data.outcomes as Record<string, string>);
    for (const to of outside) {
      expect(outcomes.filter((o) => o[to] === 'confirmation_sent')).toHaveLength(1);
      expect(outcomes.filter((o) => o[to] === 'awaiting_confirmation')).toHaveLength(3);
    }

    // The first address confirms through its link: the next send mails it the report, the others still nothing.
    const [first] = outside as [string];
    const token = linkIn(mailsTo(first)[0]!, 'confirm');
    const preview = await t.app.inject({ method: 'GET', url: `/api/mail/link?token=${encodeURIComponent(token)}` });
    expect(preview.json().data).toEqual({
      purpose: 'confirm',
      workspaceName: 'Acme Agency',
      email: first,
      state: 'pending',
    });
    const yes = await t.app.inject({ method: 'POST', url: '/api/mail/confirm', payload: { token } });
    expect(yes.json().data).toEqual({ state: 'confirmed' });

    const next = await sendNow(owner, workspaceId, id);
    expect(next.json().data.outcomes).toMatchObject({
      [first]: 'sent',
      [outside[1]!]: 'awaiting_confirmation',
    });
    const report = mailsTo(first)[1]!;
    expect(report.attachments?.[0]?.contentType).toBe('application/pdf');
    expect(report.headers).toMatchObject({ 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
    expect(report.text).toContain('/mail/unsubscribe?token=');
    expect(mailsTo(outside[1]!)).toHaveLength(1);
  }, 90_000);

  it('unsubscribes in one click (RFC 8058) and then gets nothing from the workspace', async () => {
    const owner = await registerUser(t.app);
    const workspaceId = await workspaceOf(owner, 'Beta');
    const to = address('click');
    await confirmed(workspaceId, [to]);
    const id = await scheduleTo(owner, workspaceId, [to]);
    expect((await sendNow(owner, workspaceId, id)).json().data.outcomes).toEqual({ [to]: 'sent' });

    const header = mailsTo(to)[0]!.headers!['List-Unsubscribe']!;
    const url = new URL(header.slice(1, -1));
    const click = await t.app.inject({
      method: 'POST',
      url: `${url.pathname}${url.search}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(click.statusCode).toBe(200);
    expect(click.json().data).toEqual({ state: 'unsubscribed' });

    expect((await sendNow(owner, workspaceId, id)).json().data.outcomes).toEqual({ [to]: 'unsubscribed' });
    expect(mailsTo(to)).toHaveLength(1);
  });

  it('refuses links that are not ours, or used for the other purpose', async () => {
    const owner = await registerUser(t.app);
    const workspaceId = await workspaceOf(owner, 'Gamma');
    const to = address('links');
    const id = await scheduleTo(owner, workspaceId, [to]);
    await sendNow(owner, workspaceId, id);
    const unsubscribe = linkIn(mailsTo(to)[0]!, 'unsubscribe');
    const forged = `${unsubscribe.slice(0, -2)}xx`;
    for (const [url, token] of [
      ['/api/mail/confirm', unsubscribe],
      ['/api/mail/unsubscribe', forged],
      ['/api/mail/confirm', 'v1.e30.AAAA'],
    ] as const) {
      const refused = await t.app.inject({ method: 'POST', url, payload: { token } });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ success: false, code: 'MAIL_LINK_INVALID' });
    }
  });

  it('is asked to confirm at most the day’s number of times, whatever workspaces ask', async () => {
    const to = address('many');
    const owner = await registerUser(t.app);
    const asked: string[] = [];
    for (const name of ['One', 'Two', 'Three']) {
      const workspaceId = await workspaceOf(owner, name);
      const id = await scheduleTo(owner, workspaceId, [to]);
      const answer = await sendNow(owner, workspaceId, id);
      asked.push(answer.statusCode === 200 ? answer.json().data.outcomes[to] : answer.json().code);
    }
    expect(asked).toEqual(['confirmation_sent', 'confirmation_sent', 'MAIL_LIMIT_REACHED']);
    expect(mailsTo(to)).toHaveLength(LIMITS.confirmationsPerRecipient);
  });
});

describe('daily budgets', () => {
  it('hold per recipient exactly under parallel sends', async () => {
    const owner = await registerUser(t.app);
    const workspaceId = await workspaceOf(owner, 'Delta');
    const to = address('recipient');
    await confirmed(workspaceId, [to]);
    const id = await scheduleTo(owner, workspaceId, [to]);
    const answers = await Promise.all(Array.from({ length: 5 }, () => sendNow(owner, workspaceId, id)));
    expect(mailsTo(to)).toHaveLength(LIMITS.perRecipient);
    const refused = answers.filter((answer) => answer.statusCode === 429);
    expect(refused).toHaveLength(5 - LIMITS.perRecipient);
    expect(refused[0]?.json()).toMatchObject({
      code: 'MAIL_LIMIT_REACHED',
      params: { scope: 'recipient', limit: LIMITS.perRecipient },
    });
    expect(Number(refused[0]?.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('hold per sender exactly under parallel sends, and name the budget spent', async () => {
    const owner = await registerUser(t.app);
    const workspaceId = await workspaceOf(owner, 'Epsilon');
    const recipients = [address('s1'), address('s2'), address('s3')];
    await confirmed(workspaceId, recipients);
    const ids = await Promise.all([1, 2, 3].map(() => scheduleTo(owner, workspaceId, recipients)));
    const answers = await Promise.all(ids.map((id) => sendNow(owner, workspaceId, id)));
    const sent = recipients.flatMap(mailsTo);
    expect(sent).toHaveLength(LIMITS.perSender);
    const outcomes = answers
      .filter((answer) => answer.statusCode === 200)
      .flatMap((answer) => Object.values(answer.json().data.outcomes as Record<string, string>));
    expect(outcomes.filter((outcome) => outcome === 'sent')).toHaveLength(LIMITS.perSender);

    const again = await sendNow(owner, workspaceId, ids[0]!);
    expect(again.statusCode).toBe(429);
    expect(again.json()).toMatchObject({ code: 'MAIL_LIMIT_REACHED', params: { scope: 'sender' } });
  });

  it('hold per workspace across its members', async () => {
    const owner = await registerUser(t.app);
    const editor = await registerUser(t.app);
    const workspaceId = await workspaceOf(owner, 'Zeta');
    await putOnPlan(t, workspaceId, 'pro');
    const invited = await t.app.inject({
      method: 'POST',
      url: `/api/workspaces/${workspaceId}/invitations`,
      headers: owner.auth,
      payload: { email: editor.user.email, role: 'editor' },
    });
    expect(invited.statusCode).toBe(201);
    const invitation = mailsTo(editor.user.email.toLowerCase()).at(-1)!;
    const token = decodeURIComponent(invitation.text.match(/accept\?token=([^\s]+)/)![1]!);
    const accepted = await t.app.inject({
      method: 'POST',
      url: '/api/invitations/accept',
      headers: editor.auth,
      payload: { token },
    });
    expect(accepted.statusCode).toBe(200);

    const recipients = Array.from({ length: 5 }, (_, i) => address(`w${i}`));
    await confirmed(workspaceId, recipients);
    const id = await scheduleTo(owner, workspaceId, recipients);
    expect(Object.values((await sendNow(owner, workspaceId, id)).json().data.outcomes)).toEqual(Array(5).fill('sent'));
    // The editor's own budget is whole, the workspace's has four mails left (nine a day, the invitation one).
    const second = await sendNow(editor, workspaceId, id);
    const outcomes = Object.values(second.json().data.outcomes as Record<string, string>);
    expect(outcomes.filter((outcome) => outcome === 'sent')).toHaveLength(LIMITS.perWorkspace - 5 - 1);
    expect(outcomes.filter((outcome) => outcome === 'limited')).toHaveLength(5 - (LIMITS.perWorkspace - 5 - 1));
    expect(second.json().data).toMatchObject({ status: 'failed', errorCode: 'mail_limited' });
  });
});

describe('names a sender chooses', () => {
  it('never start a subject, and carry no link', async () => {
    const owner = await registerUser(t.app);
    const name = 'URGENT: your ad account is suspended, verify at https://evil.example/login';
    const workspaceId = await workspaceOf(owner, name);
    const to = address('phish');
    const id = await scheduleTo(owner, workspaceId, [to]);
    await sendNow(owner, workspaceId, id);
    const [mail] = mailsTo(to);
    expect(mail?.subject.startsWith('AdPilot')).toBe(true);
    for (const text of [mail!.subject, mail!.text.replace(/https?:\/\/[^\s]*\/(api\/)?mail\/[^\s]+/g, '')]) {
      expect(text).not.toMatch(/https?:|evil\.example/);
    }
    const shown = mail!.subject.match(/“([^”]*)”/)?.[1] ?? '';
    expect([...shown].length).toBeLessThanOrEqual(MAIL_NAME_MAX);
  });
});

describe('invitations', () => {
  it('mail an outside address once; invite and revoke cycles withhold the rest until it answers', async () => {
    const owner = await registerUser(t.app);
    const workspaceId = await workspaceOf(owner, 'Eta');
    await putOnPlan(t, workspaceId, 'pro');
    const to = address('invitee');
    const invite = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/workspaces/${workspaceId}/invitations`,
        headers: owner.auth,
        payload: { email: to, role: 'viewer' },
      });
    const states: string[] = [];
    for (let round = 0; round < 4; round += 1) {
      const made = await invite();
      expect(made.statusCode).toBe(201);
      states.push(made.json().data.mail);
      const revoked = await t.app.inject({
        method: 'DELETE',
        url: `/api/workspaces/${workspaceId}/invitations/${made.json().data.id}`,
        headers: owner.auth,
      });
      expect(revoked.statusCode).toBe(200);
    }
    expect(states).toEqual(['sent', 'withheld_unconfirmed', 'withheld_unconfirmed', 'withheld_unconfirmed']);
    // Re-sending is more mail too: refused, named, while the address has not answered.
    const pending = await invite();
    const resent = await t.app.inject({
      method: 'POST',
      url: `/api/workspaces/${workspaceId}/invitations/${pending.json().data.id}/resend`,
      headers: owner.auth,
    });
    expect(resent.statusCode).toBe(409);
    expect(resent.json()).toMatchObject({ code: 'MAIL_AWAITING_CONFIRMATION' });
    await t.app.inject({
      method: 'DELETE',
      url: `/api/workspaces/${workspaceId}/invitations/${pending.json().data.id}`,
      headers: owner.auth,
    });
    const mails = mailsTo(to);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toMatch(/^AdPilot: invitation to join “Eta”/);
    expect(mails[0]?.text).toContain('/mail/confirm?token=');
    expect(mails[0]?.headers?.['List-Unsubscribe']).toBeDefined();

    // Once the address confirms, the next invitation reaches it.
    const token = linkIn(mails[0]!, 'confirm');
    await t.app.inject({ method: 'POST', url: '/api/mail/confirm', payload: { token } });
    const made = await invite();
    expect(made.json().data.mail).toBe('sent');
    expect(mailsTo(to)).toHaveLength(2);
  });
});

describe('workspaces per person', () => {
  it(`are at most ${WORKSPACES_PER_PERSON}, the personal one included, under parallel creation`, async () => {
    const owner = await registerUser(t.app);
    const answers = await Promise.all(
      Array.from({ length: WORKSPACES_PER_PERSON + 2 }, (_, i) =>
        t.app.inject({ method: 'POST', url: '/api/workspaces', headers: owner.auth, payload: { name: `W${i}` } }),
      ),
    );
    expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(WORKSPACES_PER_PERSON - 1);
    const refused = answers.filter((answer) => answer.statusCode === 409);
    expect(refused).toHaveLength(3);
    expect(refused[0]?.json()).toMatchObject({
      code: 'WORKSPACE_LIMIT_REACHED',
      params: { limit: WORKSPACES_PER_PERSON },
    });
  });
});
