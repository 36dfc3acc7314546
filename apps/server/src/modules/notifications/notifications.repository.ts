import { IMMEDIATE_SIGNAL_CODES } from '@adpilot/contracts';
import { personOf } from '../../lib/scope.ts';
import {
  emailVerifications,
  notificationSettings,
  selectRows,
  type NotificationSettingsRow,
  type SystemTx,
  type PersonTx,
} from '@adpilot/db';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';

export type SettingsPatch = Partial<
  Pick<
    NotificationSettingsRow,
    | 'digestHour'
    | 'language'
    | 'timeZone'
    | 'webhookUrl'
    | 'webhookSecretEnc'
    | 'webhookSecretHint'
    | 'lineTokenEnc'
    | 'lineTokenHint'
    | 'lineTarget'
  >
> & {
  /** true turns a channel on from the database's `now()` (kept if already on), false turns it off. */
  emailErrors?: boolean;
  emailDigest?: boolean;
  webhook?: boolean;
  line?: boolean;
};

/** An entry the notifier must send at once, and where. */
export interface DueEntry {
  id: string;
  userId: string;
  workspaceId: string;
  toEmail: boolean;
  toWebhook: boolean;
  toLine: boolean;
}

export interface DigestSubscriber {
  userId: string;
  workspaceId: string;
  timeZone: string;
  digestHour: number;
}

/**
 * What counts as "tell me at once": an error entry, a rule's notify action (ADR 0038), a change waiting for a
 * person's approval (ADR 0073), or a pacing alert or an anomaly (ADR 0124, 0125: each written once per month or
 * episode).
 */
const IMMEDIATE = sql`(a.level = 'error' or (a.category = 'rule_action' and (a.metadata->>'action' = 'notify'
  or a.metadata->>'code' = 'rule_action_proposed')) or (a.category = 'system' and a.metadata->>'code' in
  (${sql.join(
    IMMEDIATE_SIGNAL_CODES.map((code) => sql`${code}`),
    sql`, `,
  )})))`;

/** Where a channel's "since" goes: kept when already on, set now when turned on, cleared when turned off. */
function since(column: string, on: boolean | undefined) {
  if (on === undefined) return undefined;
  return on ? sql.raw(`coalesce(notification_settings.${column}, now())`) : null;
}

export class NotificationsRepository {
  async get(tx: PersonTx): Promise<NotificationSettingsRow | undefined> {
    const [row] = await tx.db
      .select()
      .from(notificationSettings)
      .where(eq(notificationSettings.userId, personOf(tx)));
    return row;
  }

  /** When the newest confirmation link of `email` that can still be used was made, if any. */
  async pendingVerification(tx: PersonTx, email: string, at: Date): Promise<Date | null> {
    const [row] = await tx.db
      .select({ createdAt: emailVerifications.createdAt })
      .from(emailVerifications)
      .where(
        and(
          eq(emailVerifications.userId, personOf(tx)),
          eq(emailVerifications.email, email),
          isNull(emailVerifications.usedAt),
          gt(emailVerifications.expiresAt, at),
        ),
      )
      .orderBy(desc(emailVerifications.createdAt))
      .limit(1);
    return row?.createdAt ?? null;
  }

  async insertVerification(
    tx: PersonTx,
    input: { email: string; tokenHash: string; expiresAt: Date; createdAt: Date },
  ): Promise<void> {
    await tx.db.insert(emailVerifications).values({ userId: personOf(tx), ...input });
  }

  /**
   * Takes a confirmation link, once, by one conditional update (of concurrent uses, one finds it unused; the others
   * wait for its row and then find it used). Runs on the system path: the link works signed out. Returns whose
   * address it proves, or undefined for a link unknown, used or expired.
   */
  async takeVerification(
    tx: SystemTx,
    tokenHash: string,
    at: Date,
  ): Promise<{ userId: string; email: string } | undefined> {
    const [taken] = await tx.db
      .update(emailVerifications)
      .set({ usedAt: at })
      .where(
        and(
          eq(emailVerifications.tokenHash, tokenHash),
          isNull(emailVerifications.usedAt),
          gt(emailVerifications.expiresAt, at),
        ),
      )
      .returning({ userId: emailVerifications.userId, email: emailVerifications.email });
    return taken;
  }

  /** Marks the user's other unused links used: the address is proved, they have nothing left to do. */
  async retireVerifications(tx: SystemTx, userId: string, at: Date): Promise<void> {
    await tx.db
      .update(emailVerifications)
      .set({ usedAt: at })
      .where(and(eq(emailVerifications.userId, userId), isNull(emailVerifications.usedAt)));
  }

  async save(tx: PersonTx, patch: SettingsPatch): Promise<NotificationSettingsRow> {
    const { emailErrors, emailDigest, webhook, line, ...plain } = patch;
    const channels = {
      emailErrorsSince: since('email_errors_since', emailErrors),
      emailDigestSince: since('email_digest_since', emailDigest),
      webhookSince: since('webhook_since', webhook),
      lineSince: since('line_since', line),
    };
    const set = Object.fromEntries(
      Object.entries({ ...plain, ...channels }).filter(([, value]) => value !== undefined),
    ) as Record<string, unknown>;
    const initial = {
      userId: personOf(tx),
      ...plain,
      emailErrorsSince: emailErrors ? sql`now()` : null,
      emailDigestSince: emailDigest ? sql`now()` : null,
      webhookSince: webhook ? sql`now()` : null,
      lineSince: line ? sql`now()` : null,
    };
    const [row] = await tx.db
      .insert(notificationSettings)
      .values(initial)
      .onConflictDoUpdate({ target: notificationSettings.userId, set: { ...set, updatedAt: sql`now()` } })
      .returning();
    if (!row) throw new Error('upsert returned no row');
    return row;
  }

  /**
   * The entries to send at once since each user's last scan (minus `overlapSeconds`, for entries whose
   * transaction committed after a scan that began later than their `created_at`), never older than
   * `lookbackSeconds`, and moves each scanned user's cursor. E-mail goes only to a verified address, for entries
   * from when the channel was on and the address verified both, and never for the user's own notes (ADR 0054);
   * the webhook is the user's own endpoint and is unchanged; LINE goes to the user's own channel while it has a token
   * and a target. Neither the webhook nor LINE is sent the notifier's own failure entries (no loop). Runs on the system path (the minute tick) or in one
   * user's unit of work (a nudge): the same statement, row-level security narrowing the second to one user.
   */
  async scanDue(
    tx: SystemTx,
    options: { overlapSeconds: number; lookbackSeconds: number; limit: number },
    workspaceId?: string,
  ): Promise<DueEntry[]> {
    // A nudge scans the members of one workspace (every workspace of theirs, so each cursor stays true).
    const only = workspaceId
      ? sql`and s.user_id in (select m2.user_id from workspace_members m2 where m2.workspace_id = ${workspaceId})`
      : sql``;
    const [{ scan_start: scanStart } = { scan_start: new Date() }] = await selectRows<{ scan_start: Date }>(
      tx.db,
      sql`select now() as scan_start`,
    );
    const rows = await selectRows<{
      id: string;
      user_id: string;
      workspace_id: string;
      to_email: boolean;
      to_webhook: boolean;
      to_line: boolean;
      created_at: Date;
    }>(
      tx.db,
      sql`
        select a.id, s.user_id, a.workspace_id, a.created_at,
          (s.email_errors_since is not null and u.verified_email = u.email
            and a.created_at >= greatest(s.email_errors_since, u.email_verified_at)
            and a.category <> 'note') as to_email,
          (s.webhook_url is not null and s.webhook_since is not null and a.created_at >= s.webhook_since
            and a.category <> 'notification') as to_webhook,
          (s.line_since is not null and s.line_token_enc is not null and s.line_target is not null
            and a.created_at >= s.line_since and a.category <> 'notification') as to_line
        from notification_settings s
        join workspace_members m on m.user_id = s.user_id
        join activity_logs a on a.workspace_id = m.workspace_id
        join users u on u.id = s.user_id
        where (s.email_errors_since is not null or (s.webhook_url is not null and s.webhook_since is not null)
            or s.line_since is not null)
          ${only}
          and a.created_at > greatest(
            coalesce(s.scanned_until, '-infinity'::timestamptz) - make_interval(secs => ${options.overlapSeconds}),
            now() - make_interval(secs => ${options.lookbackSeconds}),
            least(coalesce(s.email_errors_since, 'infinity'::timestamptz), coalesce(s.webhook_since, 'infinity'::timestamptz),
              coalesce(s.line_since, 'infinity'::timestamptz)) - interval '1 microsecond'
          )
          and ${IMMEDIATE}
        order by a.created_at, a.id, s.user_id
        limit ${options.limit}`,
    );
    const truncated = rows.length >= options.limit;
    // A full page moves the cursor only as far as what was read; otherwise to the moment the scan began.
    const last = rows.at(-1);
    await tx.db.execute(sql`
      update notification_settings s set scanned_until = ${truncated && last ? new Date(last.created_at) : scanStart}
      where (s.email_errors_since is not null or s.webhook_since is not null or s.line_since is not null) ${only}`);
    return rows
      .filter((row) => row.to_email || row.to_webhook || row.to_line)
      .map((row) => ({
        id: row.id,
        userId: row.user_id,
        workspaceId: row.workspace_id,
        toEmail: row.to_email,
        toWebhook: row.to_webhook,
        toLine: row.to_line,
      }));
  }

  /** Each subscriber once per workspace they are a member of: a digest is one workspace's day. */
  async digestSubscribers(tx: SystemTx): Promise<DigestSubscriber[]> {
    return selectRows<DigestSubscriber>(
      tx.db,
      sql`select s.user_id as "userId", m.workspace_id as "workspaceId", s.time_zone as "timeZone",
            s.digest_hour as "digestHour"
          from notification_settings s join workspace_members m on m.user_id = s.user_id
          where s.email_digest_since is not null`,
    );
  }
}
