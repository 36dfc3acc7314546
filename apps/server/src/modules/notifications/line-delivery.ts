import {
  describeActivity,
  NOTIFICATION_ACTIVITY_CODES,
  type CodeParams,
  type LineFailureCode,
} from '@adpilot/contracts';
import type { ActivityLogRow, TenantScope, TenantTx, Transactions } from '@adpilot/db';
import type { SecretBox } from '../../lib/crypto.ts';
import type { ActivityRepository } from '../activity/index.ts';
import type { RulesService } from '../rules/index.ts';
import { onceId } from './notification-dispatcher.ts';
import { lineText, type Language } from './notification-texts.ts';
import type { NotificationsRepository } from './notifications.repository.ts';
import type { LineSender } from './line-sender.ts';

/**
 * Lines a caller adds under an entry's LINE message (links such as a proposal's approve link), read in the member's
 * unit of work; none by default.
 */
export type LineExtraLines = (tx: TenantTx, entry: ActivityLogRow, language: Language) => Promise<readonly string[]>;

export interface LineDeliveryDeps {
  transactions: Transactions;
  repository: NotificationsRepository;
  activity: ActivityRepository;
  rules: Pick<RulesService, 'notifyMessageIn'>;
  sender: LineSender;
  secretBox: SecretBox;
  publicUrl: string;
  extraLines?: LineExtraLines;
}

/**
 * The retry key of one entry's push to one member: the same for every attempt of the job (pg-boss retries the job
 * with its data), so LINE sends it once and answers 409 to a retry of a push it already accepted (ADR 0075).
 */
export function lineRetryKey(activityId: string, userId: string): string {
  return onceId(`line:${activityId}:${userId}`);
}

/** The codes of the entries a refused push writes at once; any other failure is written after the retries. */
const REFUSALS: Partial<Record<LineFailureCode, string>> = {
  unauthorized: NOTIFICATION_ACTIVITY_CODES.lineUnauthorized,
  forbidden: NOTIFICATION_ACTIVITY_CODES.lineForbidden,
  quota: NOTIFICATION_ACTIVITY_CODES.lineQuota,
};

/** One entry's LINE push to one member (the `notify-line` job), in the language of the member's settings. */
export class LineDelivery {
  constructor(private readonly deps: LineDeliveryDeps) {}

  /**
   * A failure that may pass (5xx, timeout, network) throws while retries remain, so pg-boss tries again with the
   * same retry key; a refusal (401, 403, 429, another 4xx) or the last failure is written to the activity log as a
   * code. A member who left the workspace, or turned LINE off since the scan, finds nothing and is sent nothing.
   */
  async deliver(member: TenantScope, activityId: string, attempt: { retryCount: number; retryLimit: number }) {
    const { repository } = this.deps;
    const found = await this.deps.transactions.tenant(member, async (tx) => {
      const settings = await repository.get(tx);
      const entry = await this.deps.activity.find(tx, activityId);
      if (!settings?.lineSince || !settings.lineTokenEnc || !settings.lineTarget || !entry) return null;
      const ruleId = typeof entry.metadata.ruleId === 'string' ? entry.metadata.ruleId : null;
      const message =
        ruleId && entry.metadata.action === 'notify' ? await this.deps.rules.notifyMessageIn(tx, ruleId) : null;
      const extraLines = this.deps.extraLines ? await this.deps.extraLines(tx, entry, settings.language) : [];
      return { settings, entry, message, extraLines, target: settings.lineTarget, token: settings.lineTokenEnc };
    });
    if (!found) return;
    const text = lineText(
      { kind: 'entry', entry: found.entry, message: found.message },
      {
        language: found.settings.language,
        timeZone: found.settings.timeZone,
        publicUrl: this.deps.publicUrl,
        extraLines: found.extraLines,
      },
    );
    const outcome = await this.deps.sender.push(this.deps.secretBox.decrypt(found.token), {
      to: found.target,
      text,
      retryKey: lineRetryKey(activityId, member.userId ?? ''),
    });
    if (outcome.ok) return;
    if (outcome.retryable && attempt.retryCount < attempt.retryLimit)
      throw new Error(`LINE push failed (${outcome.code}${outcome.status ? ` ${outcome.status}` : ''})`);
    await this.logFailure(member, activityId, found.target, outcome, attempt.retryCount + 1);
  }

  private async logFailure(
    member: TenantScope,
    activityId: string,
    target: string,
    outcome: { code: LineFailureCode; status: number | null },
    attempts: number,
  ): Promise<void> {
    const refusal = REFUSALS[outcome.code];
    const code = refusal ?? NOTIFICATION_ACTIVITY_CODES.lineFailed;
    const params: CodeParams = refusal
      ? { target }
      : { target, attempts, reason: outcome.code, status: outcome.status };
    await this.deps.transactions.tenant(member, (tx) =>
      this.deps.activity.insert(tx, {
        level: 'error',
        category: 'notification',
        description: describeActivity(code, params),
        metadata: { code, params, activityId },
      }),
    );
  }
}
