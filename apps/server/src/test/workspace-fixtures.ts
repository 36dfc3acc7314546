import type { PlanId, WorkspaceRole } from '@adpilot/contracts';
import { sql } from 'drizzle-orm';
import { registerUser, type TestApp } from './test-app.ts';

type Session = Awaited<ReturnType<typeof registerUser>>;

/** A shared workspace made through the API by `owner`; its id. */
export async function createWorkspace(t: TestApp, owner: Session, name = 'Shared Space'): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/workspaces',
    headers: owner.auth,
    payload: { name },
  });
  if (response.statusCode !== 201) throw new Error(`workspace create failed: ${response.body}`);
  return (response.json() as { data: { id: string } }).data.id;
}

/**
 * Puts the plan covering a workspace on `plan` behind the API's back (the subscription row billing would write):
 * the row of its payer's personal workspace, which holds the plan of every workspace they pay for (ADR 0110).
 */
export async function putOnPlan(t: TestApp, workspaceId: string, plan: PlanId): Promise<void> {
  await t.inspect((db) =>
    db.execute(sql`insert into subscriptions (workspace_id, plan_id, current_period_start)
      select coalesce(h.id, w.id), ${plan}, now() from workspaces w
        left join workspaces h on h.personal_owner_id = w.payer_id where w.id = ${workspaceId}
      on conflict (workspace_id) do update set plan_id = excluded.plan_id`),
  );
}

/** The token of the last invitation mail sent to `email`. */
export function invitationTokenFor(t: TestApp, email: string): string {
  const mail = t.mailer.sent.filter((m) => m.to === email).at(-1);
  const match = mail ? /\/invitations\/accept\?token=(\S+)/.exec(mail.text) : null;
  if (!match?.[1]) throw new Error(`no invitation mail to ${email}`);
  return decodeURIComponent(match[1]);
}

export function inviteTo(t: TestApp, by: Session, workspaceId: string, email: string, role: WorkspaceRole) {
  return t.app.inject({
    method: 'POST',
    url: `/api/workspaces/${workspaceId}/invitations`,
    headers: by.auth,
    payload: { email, role },
  });
}

export function acceptWith(t: TestApp, session: Session, token: string) {
  return t.app.inject({ method: 'POST', url: '/api/invitations/accept', headers: session.auth, payload: { token } });
}

/** A new user who joined `workspaceId` as `role` through an invitation of `owner` (the plan must have a seat). */
export async function joinAs(t: TestApp, owner: Session, workspaceId: string, role: WorkspaceRole): Promise<Session> {
  const member = await registerUser(t.app);
  const invited = await inviteTo(t, owner, workspaceId, member.user.email, role);
  if (invited.statusCode !== 201) throw new Error(`invite failed: ${invited.body}`);
  const accepted = await acceptWith(t, member, invitationTokenFor(t, member.user.email));
  if (accepted.statusCode !== 200) throw new Error(`accept failed: ${accepted.body}`);
  return member;
}

/** The workspace's activity entries as stored: code, actor and parameters, oldest first. */
export async function workspaceEntries(t: TestApp, workspaceId: string) {
  const result = (await t.inspect((db) =>
    db.execute(sql`select metadata->>'code' as code, actor_user_id as "actorUserId", metadata->'params' as params
      from activity_logs where workspace_id = ${workspaceId} and category = 'workspace' order by seq`),
  )) as unknown as { rows: { code: string; actorUserId: string | null; params: Record<string, string> }[] };
  return result.rows;
}

/** A fresh sign-in of `session`'s user: after the clock moved past the access token's quarter hour. */
export async function signInAgain(t: TestApp, session: Session): Promise<Session> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: session.user.email, password: session.password },
  });
  if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.body}`);
  const { data } = response.json() as { data: { token: string; refreshToken: string } };
  return { ...session, ...data, auth: { authorization: `Bearer ${data.token}` } };
}
