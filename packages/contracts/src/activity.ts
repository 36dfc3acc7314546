import { z } from 'zod';
import { formattedParams } from './activity-messages.ts';
import { PLAN_NAMES, type PlanId } from './constants.ts';
import { codeParamsSchema, type CodeParams } from './rule-codes.ts';
import { DATE_MAX, DATE_MIN, INPUT_MESSAGES, calendarDate, text } from './text.ts';

/**
 * The activity log's one home: the levels, types and message codes of every entry, the plain English of each
 * code (the stored description, exports), and the shapes of the Logs API (spec §3 Log entry, §7 Logs). An entry
 * stores its code and parameters in `metadata.code` / `metadata.params`; the web and the server's e-mails and
 * webhooks render them in English or Thai from one catalogue (`activity-messages.ts`, ADR 0051), and fall back to
 * the stored description for an entry without a code.
 */

export const ACTIVITY_LEVELS = ['error', 'warning', 'info', 'success'] as const;
export type ActivityLevel = (typeof ACTIVITY_LEVELS)[number];

export const ACTIVITY_TYPES = [
  'rule_action',
  'rule_run',
  'sync',
  'connection',
  'billing',
  'ai',
  'notification',
  'system',
  'workspace',
  'rule_change',
  'note',
  'agent',
  /** Who cleared what from the log (ADR 0094): never cleared itself. */
  'audit',
] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

/**
 * Why a sync failed, stored in `ad_accounts.last_sync_error` and in a sync entry's `reason` parameter:
 * - access_expired: Meta's token expired or was revoked; the account must be reconnected
 * - meta_rate_limited: Meta asked to slow down · meta_unavailable: Meta answered with a transient error
 * - meta_permission: the token lacks a permission · meta_error: any other refusal (Meta's own text in `detail`)
 * - unexpected: an error of ours · sync_stalled: the sync stopped reporting (hourly maintenance, ADR 0036)
 */
export const SYNC_ERROR_CODES = [
  'access_expired',
  'meta_rate_limited',
  'meta_unavailable',
  'meta_permission',
  'meta_error',
  'unexpected',
  'sync_stalled',
] as const;
export type SyncErrorCode = (typeof SYNC_ERROR_CODES)[number];

export function isSyncErrorCode(value: string | null | undefined): value is SyncErrorCode {
  return (SYNC_ERROR_CODES as readonly string[]).includes(value ?? '');
}

/**
 * Every message code of an entry, with its parameters:
 * - account_connected / account_disconnected: { accountName, accountId } (connection); a disconnection that switched
 *   rules off adds `rules`, the names of the rules that named only that account
 * - sync_failed: { accountName, reason: SyncErrorCode, detail: Meta's message or null } (sync)
 * - sync_access_expired: { accountName } (sync)
 * - rule_action_applied / _failed / _postponed / _reverted / _skipped: { ruleName, action, target, error? }
 *   (rule_action; _skipped: a timed hold's resume not written, `error` its reason)
 * - rule_action_proposed: { ruleName, action, target } (rule_action; approve mode: a change waiting for a person)
 * - rule_action_notified: { ruleName, action, target } (rule_action; notify mode: a change only told, never written;
 *   its metadata's `action` is `notify`, so the notifier sends it as it sends a rule's notify action)
 * - manual_action_applied / _failed / _reverted / _skipped / _proposed: { action, target, error? } (rule_action; a
 *   change by hand through the ledger, signed by the person or agent who made it: ADR 0160)
 * - manual_proposal_approved / _rejected / _expired / _stale: { name, action, target } (rule_action; a proposal made
 *   by hand, `name` the person or agent who proposed it, decided by a person, expired or closed as stale)
 * - rule_proposal_approved / _rejected: { ruleName, action, target } (rule_action; signed by the person)
 * - rule_proposal_expired: { ruleName, action, target } (rule_action; nobody decided within the approval hours)
 * - rule_proposal_stale: { ruleName, action, target, from, to, currency? } (rule_action; the live value changed since:
 *   a status, or a budget in major units of `currency`)
 * - rule_run_completed: { ruleName, evaluated, matched, applied, failed, postponed } (rule_run)
 * - rule_run_failed: { ruleName, reason } (rule_run)
 * - plan_changed: { from, to } (billing; plan ids)
 * - plan_assigned: { from, to, admin } (billing; plan ids; the instance administrator's change, `admin` their name)
 * - plan_rules_deactivated: { plan, limit, count, rules } (billing; `rules` the names switched off)
 * - plan_rules_slowed: { plan, minutes, count, rules } (billing; `rules` the names now run every `minutes`)
 * - payment_failed: { plan, until } (billing; `until` the day, YYYY-MM-DD, the plan stays active to)
 * - notification_webhook_failed: { host, attempts, reason, status } (notification; `reason` a webhook failure code)
 * - notification_line_unauthorized / notification_line_forbidden / notification_line_quota: { target } (notification;
 *   LINE answered 401, 403 or 429 to a push to `target`, the LINE id)
 * - notification_line_failed: { target, attempts, reason, status } (notification; `reason` a LINE failure code)
 * - workspace_created / workspace_deleted: { workspace } (workspace; the name; a deletion is written in the actor's
 *   personal workspace, since the workspace's own log goes with it)
 * - workspace_renamed: { from, to } (workspace)
 * - workspace_member_invited: { email, role } (workspace; `role` a workspace role)
 * - workspace_invitation_accepted: { member, role } (workspace; the member's name, the role they joined as)
 * - workspace_member_role_changed: { member, from, to } (workspace; roles)
 * - workspace_member_removed / workspace_member_left: { member } (workspace; the member's name)
 * - workspace_transfer_offered: { member } (workspace; the owner offered it to this member, issue 31)
 * - workspace_transferred: { member } (workspace; this member took it over, with its plan)
 * - rule_created / rule_updated / rule_deleted / rule_switched_on / rule_switched_off / rule_run_requested:
 *   { ruleName } (rule_change; a person's change to a rule, signed by them)
 * - external_change: { accountName, target, level, change, from, to, currency?, actor?, app? } (sync; a status or budget
 *   changed on Meta by someone other than AdPilot, found by a sync: `change` one of EXTERNAL_CHANGE_FIELDS, `from`
 *   and `to` Meta's status, or a budget in major units of `currency` (an older entry: the amount written with its
 *   currency code, "THB 500.00"); `actor` and `app` who and through which app, from the
 *   account's activity history, absent when Meta does not say or the change came through our own app's API access)
 * - report_sent: { from, to, recipients } (notification; a scheduled report of the local days from…to mailed to
 *   `recipients` addresses, ADR 0080)
 * - report_failed: { from, to, attempts } (notification; the report could not be sent after `attempts` tries)
 * - note: {} — the user's own text is the description (note)
 * - agent_token_created: { name, scope } (workspace; an API token made, `scope` its highest scope, an AgentScope)
 * - agent_connected: { name, scope } (workspace; a member granted an OAuth client this workspace, `name` the
 *   client's registered name)
 * - agent_access_revoked: { name } (workspace; an API token or an OAuth grant revoked)
 * - agent_policy_changed: { percent, perDay, protected } (workspace; the agent policy saved: the largest budget
 *   change in percent, the changes a day, how many campaigns are protected)
 * - agent_tool_called: { tool } (agent; an MCP tool an agent called, signed by its credential: ADR 0152)
 * - agent_tool_refused: { tool, scope } (agent; the credential lacks `scope` (an AgentScope), which the tool needs)
 * - agent_tool_failed: { tool } (agent; the tool call did not complete: bad input, a missing id, a refusal)
 * - budget_pacing_over: { accountName, target, budget, projected, percent, currency } (system; ADR 0124: the projected
 *   month-end spend of the account or campaign `target` passed 110 % of its monthly budget; money in major units)
 * - budget_pacing_under: { accountName, target, budget, spent, percent, currency } (system; half the month is over and
 *   `target` spent under 45 % of its monthly budget)
 * - anomaly_jump / anomaly_drop: { accountName, metric, current, baseline, currency? } (system; ADR 0125: today's
 *   `metric`, an AnomalyMetric, against the same weekday of the last 3 weeks at this time; `currency` for money)
 * - delivery_stopped: { accountName, target } (system; an active campaign with a budget delivered nothing today
 *   while it did on the same weekdays before)
 * - activity_cleared: { count } (audit; the owner cleared `count` entries of the clearable kinds, ADR 0094; this
 *   entry is itself never cleared)
 */
export const ACTIVITY_CODES = [
  'account_connected',
  'account_disconnected',
  'sync_failed',
  'sync_access_expired',
  'rule_action_applied',
  'rule_action_failed',
  'rule_action_postponed',
  'rule_action_reverted',
  'rule_action_skipped',
  'rule_action_proposed',
  'rule_action_notified',
  'manual_action_applied',
  'manual_action_failed',
  'manual_action_reverted',
  'manual_action_skipped',
  'manual_action_proposed',
  'manual_proposal_approved',
  'manual_proposal_rejected',
  'manual_proposal_expired',
  'manual_proposal_stale',
  'rule_proposal_approved',
  'rule_proposal_rejected',
  'rule_proposal_expired',
  'rule_proposal_stale',
  'rule_run_completed',
  'rule_run_failed',
  'plan_changed',
  'plan_assigned',
  'plan_rules_deactivated',
  'plan_rules_slowed',
  'payment_failed',
  'notification_webhook_failed',
  'notification_line_unauthorized',
  'notification_line_forbidden',
  'notification_line_quota',
  'notification_line_failed',
  'workspace_created',
  'workspace_renamed',
  'workspace_deleted',
  'workspace_member_invited',
  'workspace_invitation_accepted',
  'workspace_member_role_changed',
  'workspace_member_removed',
  'workspace_member_left',
  'workspace_transfer_offered',
  'workspace_transferred',
  'rule_created',
  'rule_updated',
  'rule_deleted',
  'rule_switched_on',
  'rule_switched_off',
  'rule_run_requested',
  'external_change',
  'report_sent',
  'report_failed',
  'note',
  'agent_token_created',
  'agent_connected',
  'agent_access_revoked',
  'agent_policy_changed',
  'agent_tool_called',
  'agent_tool_refused',
  'agent_tool_failed',
  'activity_cleared',
  'budget_pacing_over',
  'budget_pacing_under',
  'anomaly_jump',
  'anomaly_drop',
  'delivery_stopped',
] as const;
export type ActivityCode = (typeof ACTIVITY_CODES)[number];

/**
 * The system entries the notifier sends at once (ADR 0124, 0125): a pacing alert (once a month per budget and
 * kind) and an anomaly (once per episode).
 */
export const IMMEDIATE_SIGNAL_CODES = [
  'budget_pacing_over',
  'budget_pacing_under',
  'anomaly_jump',
  'anomaly_drop',
  'delivery_stopped',
] as const satisfies readonly ActivityCode[];

/** What an external change changed: an entity's own status, or its daily or lifetime budget. */
export const EXTERNAL_CHANGE_FIELDS = ['status', 'daily_budget', 'lifetime_budget'] as const;
export type ExternalChangeField = (typeof EXTERNAL_CHANGE_FIELDS)[number];

const CHANGE_EN: Record<string, string> = {
  status: 'status',
  daily_budget: 'daily budget',
  lifetime_budget: 'lifetime budget',
};

export function isActivityCode(value: unknown): value is ActivityCode {
  return typeof value === 'string' && (ACTIVITY_CODES as readonly string[]).includes(value);
}

/** An anomaly entry's metric in plain words. */
const ANOMALY_METRIC_EN: Record<string, string> = { spend: 'Spend', results: 'Results', cpa: 'CPA', cpm: 'CPM' };

/** Rule action types in plain words, for the English description. */
const ACTION_EN: Record<string, string> = {
  pause: 'pause',
  resume: 'resume',
  increase_budget: 'raise budget',
  decrease_budget: 'lower budget',
  set_budget: 'set budget',
  notify: 'notify',
};

const SYNC_ERROR_EN: Record<SyncErrorCode, string> = {
  access_expired: 'Facebook access expired: reconnect this account',
  meta_rate_limited: 'Facebook asked to slow down; the sync will be retried',
  meta_unavailable: 'Facebook is temporarily unavailable',
  meta_permission: 'Facebook refused access to this account',
  meta_error: 'Facebook refused the request',
  unexpected: 'Unexpected error while syncing',
  sync_stalled: 'The sync stopped responding; sync again',
};

/** A sync error code in plain English (the stored description, exports); an older row's own text stays as it is. */
export function describeSyncError(code: string): string {
  return isSyncErrorCode(code) ? SYNC_ERROR_EN[code] : code;
}

const str = (value: CodeParams[string] | undefined) => (value === null || value === undefined ? '' : String(value));
const action = (value: CodeParams[string] | undefined) => ACTION_EN[str(value)] ?? str(value);
/** A plan id by its name; an id the catalogue does not know stays as it is. */
const plan = (value: CodeParams[string] | undefined) =>
  Object.hasOwn(PLAN_NAMES, str(value)) ? PLAN_NAMES[str(value) as PlanId] : str(value);

const SCOPE_EN: Record<string, string> = {
  read: 'read only',
  propose: 'read and propose',
  write: 'read, propose and write',
};
/** An agent credential's access in plain words; a value not known stays as it is. */
const scopeWords = (value: CodeParams[string] | undefined) => SCOPE_EN[str(value)] ?? str(value);

const ACTIVITY_EN: Record<Exclude<ActivityCode, 'note'>, (p: CodeParams) => string> = {
  account_connected: (p) => `Connected ad account ${str(p.accountName)} (${str(p.accountId)})`,
  account_disconnected: (p) =>
    `Disconnected ad account ${str(p.accountName)} (${str(p.accountId)})${p.rules ? `; switched off the rules that named only this account: ${str(p.rules)}` : ''}`,
  sync_failed: (p) =>
    `Sync of ${str(p.accountName)} failed: ${describeSyncError(str(p.reason))}${p.detail ? ` (${str(p.detail)})` : ''}`,
  sync_access_expired: (p) =>
    `Facebook access for ${str(p.accountName)} expired; reconnect the account to resume syncing and automation`,
  rule_action_applied: (p) => `Rule "${str(p.ruleName)}" applied ${action(p.action)} on "${str(p.target)}"`,
  rule_action_failed: (p) =>
    `Rule "${str(p.ruleName)}" could not apply ${action(p.action)} on "${str(p.target)}"${p.error ? `: ${str(p.error)}` : ''}`,
  rule_action_postponed: (p) =>
    `Rule "${str(p.ruleName)}" postponed ${action(p.action)} on "${str(p.target)}": Meta asked to wait`,
  rule_action_reverted: (p) => `Reverted rule "${str(p.ruleName)}": ${action(p.action)} on "${str(p.target)}"`,
  rule_action_skipped: (p) =>
    `Rule "${str(p.ruleName)}" did not ${action(p.action)} "${str(p.target)}"${p.error ? `: ${str(p.error)}` : ''}`,
  rule_action_proposed: (p) =>
    `Rule "${str(p.ruleName)}" proposes to ${action(p.action)} "${str(p.target)}": waiting for approval`,
  rule_action_notified: (p) =>
    `Rule "${str(p.ruleName)}" would ${action(p.action)} "${str(p.target)}" (notify only: nothing was changed)`,
  manual_action_applied: (p) => `By hand: ${action(p.action)} on "${str(p.target)}"`,
  manual_action_failed: (p) =>
    `Could not apply ${action(p.action)} on "${str(p.target)}" by hand${p.error ? `: ${str(p.error)}` : ''}`,
  manual_action_reverted: (p) => `Reverted a change by hand: ${action(p.action)} on "${str(p.target)}"`,
  manual_action_skipped: (p) =>
    `Did not ${action(p.action)} "${str(p.target)}" by hand${p.error ? `: ${str(p.error)}` : ''}`,
  manual_action_proposed: (p) => `Proposed by hand to ${action(p.action)} "${str(p.target)}": waiting for approval`,
  manual_proposal_approved: (p) => `Approved the proposal of ${str(p.name)} to ${action(p.action)} "${str(p.target)}"`,
  manual_proposal_rejected: (p) => `Rejected the proposal of ${str(p.name)} to ${action(p.action)} "${str(p.target)}"`,
  manual_proposal_expired: (p) =>
    `The proposal of ${str(p.name)} to ${action(p.action)} "${str(p.target)}" expired without a decision`,
  manual_proposal_stale: (p) =>
    `Closed the proposal of ${str(p.name)} to ${action(p.action)} "${str(p.target)}": the live value changed`,
  rule_proposal_approved: (p) =>
    `Approved the proposal of rule "${str(p.ruleName)}" to ${action(p.action)} "${str(p.target)}"`,
  rule_proposal_rejected: (p) =>
    `Rejected the proposal of rule "${str(p.ruleName)}" to ${action(p.action)} "${str(p.target)}"`,
  rule_proposal_expired: (p) =>
    `The proposal of rule "${str(p.ruleName)}" to ${action(p.action)} "${str(p.target)}" expired without a decision`,
  rule_proposal_stale: (p) =>
    `Closed the proposal of rule "${str(p.ruleName)}" to ${action(p.action)} "${str(p.target)}": the live value changed from ${str(p.from)} to ${str(p.to)}`,
  rule_run_completed: (p) =>
    `Rule "${str(p.ruleName)}" ran: ${str(p.evaluated)} evaluated, ${str(p.matched)} matched, ${str(p.applied)} applied, ${str(p.failed)} failed, ${str(p.postponed)} postponed`,
  rule_run_failed: (p) => `Rule "${str(p.ruleName)}" run failed: ${str(p.reason)}`,
  plan_changed: (p) => `Plan changed from ${plan(p.from)} to ${plan(p.to)}`,
  plan_assigned: (p) => `Plan changed from ${plan(p.from)} to ${plan(p.to)} by the administrator ${str(p.admin)}`,
  plan_rules_deactivated: (p) => `The ${plan(p.plan)} plan allows ${str(p.limit)}: switched off ${str(p.rules)}`,
  plan_rules_slowed: (p) =>
    `The ${plan(p.plan)} plan checks rules at most every ${str(p.minutes)}; now checked every ${str(p.minutes)}: ${str(p.rules)}`,
  payment_failed: (p) => `Payment for the ${plan(p.plan)} plan failed; it stays active until ${str(p.until)}`,
  notification_webhook_failed: (p) =>
    `Webhook delivery to ${str(p.host)} failed after ${str(p.attempts)}: ${str(p.reason)}${p.status ? ` ${str(p.status)}` : ''}`,
  notification_line_unauthorized: (p) =>
    `LINE refused the channel access token for a message to ${str(p.target)} (401): enter a new token in Notifications`,
  notification_line_forbidden: (p) =>
    `LINE refused a message to ${str(p.target)} (403): the channel may not message this ID`,
  notification_line_quota: (p) =>
    `LINE refused a message to ${str(p.target)} (429): the channel's monthly messages or rate limit are used up`,
  notification_line_failed: (p) =>
    `LINE delivery to ${str(p.target)} failed after ${str(p.attempts)}: ${str(p.reason)}${p.status ? ` ${str(p.status)}` : ''}`,
  workspace_created: (p) => `Created workspace "${str(p.workspace)}"`,
  workspace_renamed: (p) => `Renamed workspace "${str(p.from)}" to "${str(p.to)}"`,
  workspace_deleted: (p) => `Deleted workspace "${str(p.workspace)}"`,
  workspace_member_invited: (p) => `Invited ${str(p.email)} as ${str(p.role)}`,
  workspace_invitation_accepted: (p) => `${str(p.member)} joined the workspace as ${str(p.role)}`,
  workspace_member_role_changed: (p) => `Changed ${str(p.member)}'s role from ${str(p.from)} to ${str(p.to)}`,
  workspace_member_removed: (p) => `Removed ${str(p.member)} from the workspace`,
  workspace_member_left: (p) => `${str(p.member)} left the workspace`,
  workspace_transfer_offered: (p) => `Offered the workspace to ${str(p.member)}`,
  workspace_transferred: (p) => `${str(p.member)} took the workspace over`,
  rule_created: (p) => `Created rule "${str(p.ruleName)}"`,
  rule_updated: (p) => `Edited rule "${str(p.ruleName)}"`,
  rule_deleted: (p) => `Deleted rule "${str(p.ruleName)}"`,
  rule_switched_on: (p) => `Switched on rule "${str(p.ruleName)}"`,
  rule_switched_off: (p) => `Switched off rule "${str(p.ruleName)}"`,
  rule_run_requested: (p) => `Asked rule "${str(p.ruleName)}" to run now`,
  report_sent: (p) => `Sent the report for ${str(p.period)} to ${str(p.recipients)}`,
  report_failed: (p) => `The report for ${str(p.period)} could not be sent after ${str(p.attempts)}`,
  external_change: (p) =>
    `"${str(p.target)}": ${CHANGE_EN[str(p.change)] ?? str(p.change)} changed outside AdPilot${p.actor ? ` by ${str(p.actor)} (${str(p.app)})` : ''}, ${str(p.from)} → ${str(p.to)}`,
  activity_cleared: (p) => `Cleared ${str(p.count)} activity entries`,
  budget_pacing_over: (p) =>
    `"${str(p.target)}" is heading for ${str(p.projected)} this month, ${str(p.percent)}% of its monthly budget of ${str(p.budget)}`,
  budget_pacing_under: (p) =>
    `"${str(p.target)}" has spent ${str(p.spent)} with half the month gone, ${str(p.percent)}% of its monthly budget of ${str(p.budget)}`,
  anomaly_jump: (p) =>
    `${ANOMALY_METRIC_EN[str(p.metric)] ?? str(p.metric)} of ${str(p.accountName)} jumped to ${str(p.current)} today so far, against ${str(p.baseline)} by this time on the same weekday of the last 3 weeks`,
  anomaly_drop: (p) =>
    `${ANOMALY_METRIC_EN[str(p.metric)] ?? str(p.metric)} of ${str(p.accountName)} dropped to ${str(p.current)} today so far, against ${str(p.baseline)} by this time on the same weekday of the last 3 weeks`,
  delivery_stopped: (p) =>
    `"${str(p.target)}" in ${str(p.accountName)} is active with a budget but has delivered nothing today`,
  agent_token_created: (p) => `Created the API token "${str(p.name)}" (${scopeWords(p.scope)})`,
  agent_connected: (p) => `Connected the AI client "${str(p.name)}" (${scopeWords(p.scope)})`,
  agent_access_revoked: (p) => `Revoked the access of "${str(p.name)}"`,
  agent_policy_changed: (p) =>
    `Changed the agent policy: budget changes up to ${str(p.percent)}%, ${str(p.perDay)} changes a day, ${str(p.protected)} protected campaigns`,
  agent_tool_called: (p) => `Called the tool ${str(p.tool)}`,
  agent_tool_refused: (p) => `Refused the tool ${str(p.tool)}: it needs "${scopeWords(p.scope)}" access`,
  agent_tool_failed: (p) => `The tool ${str(p.tool)} did not complete`,
};

/**
 * The plain English of a coded entry, for the stored description and exports, its figures written as the catalogue
 * writes them in English (counts, days, amounts). `fallback` (the stored description) answers for a note, an
 * unknown code or an entry written before codes existed.
 */
export function describeActivity(code: string | null | undefined, params: CodeParams, fallback = ''): string {
  if (!isActivityCode(code) || code === 'note') return fallback;
  return ACTIVITY_EN[code](formattedParams(code, params, 'en'));
}

const isScalar = (value: unknown): value is string | number | boolean | null =>
  value === null || ['string', 'number', 'boolean'].includes(typeof value);

/** The code and parameters an entry's metadata holds, if any. */
export function activityCodeOf(metadata: Record<string, unknown>): { code: string | null; params: CodeParams } {
  const code = typeof metadata.code === 'string' ? metadata.code : null;
  const raw = metadata.params;
  const params: CodeParams = {};
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
    for (const [key, value] of Object.entries(raw)) {
      // Scalars as they are; a list of scalars (names) as one comma-separated text; anything else is left out.
      if (isScalar(value)) params[key] = value;
      else if (Array.isArray(value) && value.every(isScalar)) params[key] = value.join(', ');
    }
  }
  return { code, params };
}

// ——— The Logs API (spec §7 Logs) ———

export const LOG_PAGE_DEFAULT = 1;
export const LOG_LIMIT_DEFAULT = 50;
export const LOG_LIMIT_MAX = 200;
export const LOG_DELETE_MAX = 1000;
export const LOG_NOTE_MAX = 2000;
export const LOG_SEARCH_MAX = 200;
/** How many live streams (GET /api/logs/stream) one user may hold open at once in one API process (ADR 0086). */
export const LOG_STREAMS_PER_USER = 5;
/** The Retry-After of a stream refused for that limit: about when a tab closed meanwhile has let its slot go. */
export const LOG_STREAM_RETRY_SECONDS = 30;

export const LOG_MESSAGES = {
  notFound: 'Log entry not found',
  noteCreated: 'Note added',
  rangeOrder: '`from` must not be after `to`',
  dateTime: 'Use a date (YYYY-MM-DD) or a date-time with its offset (ISO 8601)',
  timeZone: 'Unknown time zone',
  lastEventId: 'Last-Event-ID must be a whole number',
  tooManyStreams: `Too many live activity streams are open for this account (at most ${LOG_STREAMS_PER_USER}). Close another tab showing the activity log, then try again.`,
} as const;

/** A date (a whole UTC day) or an instant with its offset, within the API's years. */
function dateOrInstant() {
  const instant = z.iso
    .datetime({ offset: true, error: LOG_MESSAGES.dateTime })
    .refine((value) => value.slice(0, 10) >= DATE_MIN && value.slice(0, 10) <= DATE_MAX, INPUT_MESSAGES.dateRange);
  return z.union([calendarDate(), instant], { error: LOG_MESSAGES.dateTime });
}

const levelFilter = z.union([z.enum(ACTIVITY_LEVELS), z.array(z.enum(ACTIVITY_LEVELS)).min(1).max(4)]);
const typeFilter = z.union([z.enum(ACTIVITY_TYPES), z.array(z.enum(ACTIVITY_TYPES)).min(1).max(ACTIVITY_TYPES.length)]);

/** The filters every Logs call shares; they combine (all must hold). A level or type may be given several times. */
export const logFilterShape = {
  level: levelFilter.optional(),
  type: typeFilter.optional(),
  ruleId: z.uuid({ error: 'Invalid rule id' }).optional(),
  adAccountId: z.uuid({ error: 'Invalid ad account id' }).optional(),
  /** From this instant (a date: its start, UTC) … */
  from: dateOrInstant().optional(),
  /** … to this instant (a date: its end, UTC), inclusive. */
  to: dateOrInstant().optional(),
  /** Words in the description, case-insensitive. */
  search: text({ trim: true }).max(LOG_SEARCH_MAX).optional(),
};

const rangeInOrder = (q: { from?: string | undefined; to?: string | undefined }) =>
  !q.from || !q.to || rangeStart(q.from) <= rangeEnd(q.to);

/** The instant a `from` value starts at. */
export function rangeStart(value: string): Date {
  return value.length === 10 ? new Date(`${value}T00:00:00.000Z`) : new Date(value);
}
/** The instant a `to` value ends at (inclusive). */
export function rangeEnd(value: string): Date {
  return value.length === 10 ? new Date(`${value}T23:59:59.999Z`) : new Date(value);
}

const inOrder = { message: LOG_MESSAGES.rangeOrder, path: ['from'] };

export const logFiltersSchema = z.strictObject(logFilterShape).refine(rangeInOrder, inOrder);
export type LogFilters = z.infer<typeof logFiltersSchema>;

const positiveInt = (max: number) => z.coerce.number().int().min(1).max(max);

/** GET /api/logs. `asOf` pins the list to the entries up to that sequence number, so pages stay put while new ones arrive. */
export const listLogsQuerySchema = z
  .strictObject({
    ...logFilterShape,
    page: positiveInt(100_000).default(LOG_PAGE_DEFAULT),
    limit: positiveInt(LOG_LIMIT_MAX).default(LOG_LIMIT_DEFAULT),
    asOf: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  })
  .refine(rangeInOrder, inOrder);
export type ListLogsQuery = z.infer<typeof listLogsQuerySchema>;

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** GET /api/logs/stats: the same filters, and the time zone whose days `actionsPerDay` counts in (UTC by default). */
export const logStatsQuerySchema = z
  .strictObject({
    ...logFilterShape,
    tz: z.string().max(64).refine(isTimeZone, LOG_MESSAGES.timeZone).optional(),
  })
  .refine(rangeInOrder, inOrder);
export type LogStatsQuery = z.infer<typeof logStatsQuerySchema>;

export const LOG_EXPORT_FORMATS = ['csv', 'json'] as const;
export const exportLogsQuerySchema = z
  .strictObject({ ...logFilterShape, format: z.enum(LOG_EXPORT_FORMATS).default('csv') })
  .refine(rangeInOrder, inOrder);
export type ExportLogsQuery = z.infer<typeof exportLogsQuerySchema>;

/**
 * GET /api/logs/stream: the filters, the token and the workspace (EventSource sends no headers; the workspace is
 * the user's own personal one when absent) and where to resume.
 */
export const streamLogsQuerySchema = z
  .strictObject({
    ...logFilterShape,
    token: z.string().max(4096).optional(),
    workspaceId: z.uuid({ error: 'Invalid workspace id' }).optional(),
    lastEventId: z
      .string()
      .regex(/^\d{1,15}$/, LOG_MESSAGES.lastEventId)
      .optional(),
  })
  .refine(rangeInOrder, inOrder);
export type StreamLogsQuery = z.infer<typeof streamLogsQuerySchema>;

export const logIdParamsSchema = z.strictObject({ id: z.uuid({ error: 'Invalid log id' }) });

/** POST /api/logs: the user's own note. */
export const createLogRequestSchema = z.strictObject({
  description: text({ trim: true, multiline: true, required: 'Description is required' })
    .min(1, 'Description is required')
    .max(LOG_NOTE_MAX, `Description must be at most ${LOG_NOTE_MAX} characters`),
  level: z.enum(ACTIVITY_LEVELS).default('info'),
});
export type CreateLogRequest = z.input<typeof createLogRequestSchema>;

/** DELETE /api/logs. */
export const deleteLogsRequestSchema = z.strictObject({
  ids: z
    .array(z.uuid({ error: 'Invalid log id' }))
    .min(1, 'Give at least one id')
    .max(LOG_DELETE_MAX),
});

/**
 * POST /api/logs/clear: the filters of the entries to delete (none: all of them).
 * @alias the same schema as the list's filters, under the route's own name
 */
export const clearLogsRequestSchema = logFiltersSchema;

export const activityLogSchema = z.object({
  _id: z.uuid(),
  /** The entry's place in its user's log: increasing, never reused; the live stream's event id. */
  seq: z.number().int(),
  level: z.enum(ACTIVITY_LEVELS),
  type: z.string(),
  code: z.string().nullable(),
  params: codeParamsSchema,
  /** Plain English; data, never markup. */
  description: z.string(),
  adAccountId: z.uuid().nullable(),
  ruleId: z.uuid().nullable(),
  metadata: z.record(z.string(), z.unknown()),
  /**
   * The member whose action wrote the entry; null for the workspace's own jobs (rule runs, syncs, retention). An
   * agent's entry names its API token or OAuth client (`id` the credential's) and `via` how it came (ADR 0152).
   */
  actor: z.object({ id: z.uuid(), name: z.string(), via: z.enum(['mcp']).optional() }).nullable(),
  createdAt: z.string(),
});
export type ActivityLog = z.infer<typeof activityLogSchema>;

export const logPaginationSchema = z.object({
  page: z.number().int(),
  limit: z.number().int(),
  /** Every entry matching the filters (up to `asOf`), not only this page's. */
  total: z.number().int(),
  totalPages: z.number().int(),
  /** Pass it back with the next pages: entries written since do not shift them. */
  asOf: z.number().int(),
});

export const logListSchema = z.object({ logs: z.array(activityLogSchema), pagination: logPaginationSchema });
export type LogList = z.infer<typeof logListSchema>;

export const logStatsSchema = z.object({
  total: z.number().int(),
  byLevel: z.record(z.enum(ACTIVITY_LEVELS), z.number().int()),
  byType: z.record(z.string(), z.number().int()),
  /** Rule actions per day in the asked time zone, oldest first; days without any are left out. */
  actionsPerDay: z.array(z.object({ date: z.string(), count: z.number().int() })),
});
export type LogStats = z.infer<typeof logStatsSchema>;

export const deletedCountSchema = z.object({ deletedCount: z.number().int() });

/**
 * The kinds of entry an owner may clear (ADR 0094): notes, notifications' delivery reports, rules' runs and syncs.
 * Everything that records a change stays: rule actions and changes, changes made outside AdPilot (written as
 * `sync` with the code `external_change`), connections, membership, billing, agents' tokens, and the `audit`
 * entries that say who cleared what. Retention (the operator's) is the only other deletion.
 */
export const CLEARABLE_ACTIVITY_CATEGORIES = ['note', 'notification', 'rule_run', 'sync'] as const;
export const UNCLEARABLE_ACTIVITY_CODES = ['external_change'] as const;
