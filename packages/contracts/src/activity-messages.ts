import type { ActivityCode, ExternalChangeField, SyncErrorCode } from './activity.ts';
import { PLAN_NAMES, type PlanId } from './constants.ts';
import { formatDay, formatDayRange, formatMinutes, formatMoney, formatNumber, pluralCategory } from './format.ts';
import type { LineFailureCode, WebhookFailureCode } from './notifications.ts';
import type { ACTION_FAILURE_CODES, CodeParams } from './rule-codes.ts';
import type { RuleActionType } from './rule-constants.ts';
import type { RULE_RUN_ERROR_CODES } from './rule-results.ts';
import type { WorkspaceRole } from './workspace-roles.ts';
import type { AgentScope } from './agents.ts';

/**
 * The words of every activity code in English and Thai: the one catalogue the web (its `activity` namespace, and
 * the rules namespace's failure and run-error texts) and the server (e-mails, webhook text) both read (ADR 0051).
 * Plain objects of strings with i18next's `{{param}}` placeholders; always plain text, never markup.
 */

export const ACTIVITY_LANGUAGES = ['en', 'th'] as const;
export type ActivityLanguage = (typeof ACTIVITY_LANGUAGES)[number];

type ActionFailureCode = (typeof ACTION_FAILURE_CODES)[number];
type RuleRunErrorCode = (typeof RULE_RUN_ERROR_CODES)[number];

export interface ActivityMessages {
  /** One sentence per code of ACTIVITY_CODES (a note is the user's own text). */
  codes: Record<Exclude<ActivityCode, 'note'>, string>;
  /** A rule action's `action` parameter. */
  actions: Record<RuleActionType, string>;
  /** A sync_failed entry's `reason` (and an ad account's last sync error). */
  syncErrors: Record<SyncErrorCode, string>;
  /** A rule_action_failed entry's `error` (and a ledger row's failure on the rule's history). */
  actionFailures: Record<ActionFailureCode, string>;
  /** A rule_run_failed entry's `reason` (and a failed run on the rule's history). */
  runErrors: Record<RuleRunErrorCode, string>;
  /** A notification_webhook_failed entry's `reason`. */
  webhookFailures: Record<WebhookFailureCode, string>;
  /** A notification_line_failed entry's `reason` (and a LINE test send's failure). */
  lineFailures: Record<LineFailureCode, string>;
  /** An external_change entry's `change`. */
  changeFields: Record<ExternalChangeField, string>;
  /** A workspace role in a workspace entry (`role`, `from`, `to`). */
  roles: Record<WorkspaceRole, string>;
  /** An agent credential's access (its highest scope, which includes the ones before it): `scope` of agent entries. */
  agentScopes: Record<AgentScope, string>;
  /** An anomaly entry's `metric` (ADR 0125). */
  anomalyMetrics: Record<'spend' | 'results' | 'cpa' | 'cpm', string>;
  /** A plan id in a plan_changed, plan_assigned, plan_rules_deactivated, plan_rules_slowed or payment_failed entry. */
  plans: Record<PlanId, string>;
  /** A code's longer sentence, for an entry that carries an optional parameter (see SENTENCE_VARIANTS). */
  variants: Record<SentenceVariant, string>;
  /**
   * A counted noun with its count (`{{count}}`, already written in the language), by plural category as i18next
   * names its keys: `attempts_one` "1 attempt", `attempts_other` "3 attempts". Every language has both keys, as
   * the web's catalogues do; Thai, with one form for every count, only ever reads `_other`.
   */
  counts: CountForms;
}

/** The nouns a sentence counts (see FORMATTED_PARAMS). */
export const COUNTED_NOUNS = ['attempts', 'recipients', 'activeRules'] as const;
export type CountedNoun = (typeof COUNTED_NOUNS)[number];
type CountForms = Record<`${CountedNoun}_${'one' | 'other'}`, string>;

/**
 * The sentences a code has beside its own: `account_disconnected` that switched rules off, `external_change` whose
 * actor Meta named.
 */
type SentenceVariant = 'account_disconnected_rules' | 'external_change_by';

export type ActivityMessageGroup = Exclude<keyof ActivityMessages, 'codes' | 'variants' | 'counts'>;

const en: ActivityMessages = {
  codes: {
    account_connected: 'Connected ad account {{accountName}} ({{accountId}})',
    account_disconnected: 'Disconnected ad account {{accountName}} ({{accountId}})',
    sync_failed: 'Sync of {{accountName}} failed: {{reason}}',
    sync_access_expired:
      'Facebook access for {{accountName}} expired; reconnect the account to resume syncing and automation',
    rule_action_applied: 'Rule “{{ruleName}}”: {{action}} on “{{target}}”',
    rule_action_failed: 'Rule “{{ruleName}}” could not {{action}} on “{{target}}” ({{error}})',
    rule_action_postponed: 'Rule “{{ruleName}}” postponed {{action}} on “{{target}}”: Meta asked to wait',
    rule_action_reverted: 'Reverted rule “{{ruleName}}”: {{action}} on “{{target}}”',
    rule_action_skipped: 'Rule “{{ruleName}}” did not {{action}} “{{target}}” ({{error}})',
    rule_action_proposed: 'Rule “{{ruleName}}” proposes to {{action}} “{{target}}”: waiting for approval',
    rule_action_notified: 'Rule “{{ruleName}}” would {{action}} “{{target}}” (notify only: nothing was changed)',
    manual_action_applied: 'By hand: {{action}} on “{{target}}”',
    manual_action_failed: 'Could not {{action}} on “{{target}}” by hand ({{error}})',
    manual_action_reverted: 'Reverted a change by hand: {{action}} on “{{target}}”',
    manual_action_skipped: 'Did not {{action}} “{{target}}” by hand ({{error}})',
    manual_action_proposed: 'Proposed by hand to {{action}} “{{target}}”: waiting for approval',
    manual_proposal_approved: 'Approved the proposal of {{name}} to {{action}} “{{target}}”',
    manual_proposal_rejected: 'Rejected the proposal of {{name}} to {{action}} “{{target}}”',
    manual_proposal_expired: 'The proposal of {{name}} to {{action}} “{{target}}” expired without a decision',
    manual_proposal_stale: 'Closed the proposal of {{name}} to {{action}} “{{target}}”: the live value changed',
    rule_proposal_approved: 'Approved the proposal of rule “{{ruleName}}” to {{action}} “{{target}}”',
    rule_proposal_rejected: 'Rejected the proposal of rule “{{ruleName}}” to {{action}} “{{target}}”',
    rule_proposal_expired: 'The proposal of rule “{{ruleName}}” to {{action}} “{{target}}” expired without a decision',
    rule_proposal_stale:
      'Closed the proposal of rule “{{ruleName}}” to {{action}} “{{target}}”: the live value changed from {{from}} to {{to}}',
    rule_run_completed:
      'Rule “{{ruleName}}” ran: {{evaluated}} evaluated, {{matched}} matched, {{applied}} applied, {{failed}} failed, {{postponed}} postponed',
    rule_run_failed: 'Rule “{{ruleName}}” run failed ({{reason}})',
    plan_changed: 'Plan changed from {{from}} to {{to}}',
    plan_assigned: 'Plan changed from {{from}} to {{to}} by the administrator {{admin}}',
    plan_rules_deactivated: 'The {{plan}} plan allows {{limit}}: switched off {{rules}}',
    plan_rules_slowed:
      'The {{plan}} plan checks rules at most every {{minutes}}; now checked every {{minutes}}: {{rules}}',
    payment_failed:
      'Payment for the {{plan}} plan failed; it stays active until {{until}}. Update your payment method on the Subscription page.',
    notification_webhook_failed: 'Webhook delivery to {{host}} failed after {{attempts}}: {{reason}}',
    notification_line_unauthorized:
      'LINE did not accept the channel access token for messages to {{target}}: enter a new token in Notifications',
    notification_line_forbidden:
      'LINE refused a message to {{target}}: the channel may not message this ID (is the bot added to the chat, or blocked?)',
    notification_line_quota:
      'LINE refused a message to {{target}}: the channel’s monthly messages or its rate limit are used up',
    notification_line_failed: 'LINE delivery to {{target}} failed after {{attempts}}: {{reason}}',
    workspace_created: 'Created workspace “{{workspace}}”',
    workspace_renamed: 'Renamed workspace “{{from}}” to “{{to}}”',
    workspace_deleted: 'Deleted workspace “{{workspace}}”',
    workspace_member_invited: 'Invited {{email}} as {{role}}',
    workspace_invitation_accepted: '{{member}} joined the workspace as {{role}}',
    workspace_member_role_changed: 'Changed the role of {{member}} from {{from}} to {{to}}',
    workspace_member_removed: 'Removed {{member}} from the workspace',
    workspace_member_left: '{{member}} left the workspace',
    workspace_transfer_offered: 'Offered the workspace to {{member}}',
    workspace_transferred: '{{member}} took the workspace over',
    rule_created: 'Created rule “{{ruleName}}”',
    rule_updated: 'Edited rule “{{ruleName}}”',
    rule_deleted: 'Deleted rule “{{ruleName}}”',
    rule_switched_on: 'Switched on rule “{{ruleName}}”',
    rule_switched_off: 'Switched off rule “{{ruleName}}”',
    rule_run_requested: 'Asked rule “{{ruleName}}” to run now',
    report_sent: 'Sent the report for {{period}} to {{recipients}}',
    activity_cleared: 'Cleared {{count}} activity entries (notes, notifications, rule runs and syncs)',
    report_failed: 'The report for {{period}} could not be sent after {{attempts}}',
    external_change: '“{{target}}”: {{change}} changed outside AdPilot, {{from}} → {{to}}',
    agent_token_created: 'Created the API token “{{name}}” ({{scope}})',
    agent_connected: 'Connected the AI client “{{name}}” ({{scope}})',
    agent_access_revoked: 'Revoked the access of “{{name}}”',
    agent_policy_changed:
      'Changed the agent policy: budget changes up to {{percent}}%, {{perDay}} changes a day, {{protected}} protected campaigns',
    agent_tool_called: 'Called the tool {{tool}}',
    agent_tool_refused: 'Refused the tool {{tool}}: it needs “{{scope}}” access',
    agent_tool_failed: 'The tool {{tool}} did not complete',
    budget_pacing_over:
      '“{{target}}” is heading for {{projected}} this month, {{percent}}% of its monthly budget of {{budget}}',
    budget_pacing_under:
      '“{{target}}” has spent {{spent}} with half the month gone, {{percent}}% of its monthly budget of {{budget}}',
    anomaly_jump:
      '{{metric}} of {{accountName}} jumped to {{current}} today so far, against {{baseline}} by this time on the same weekday of the last 3 weeks',
    anomaly_drop:
      '{{metric}} of {{accountName}} dropped to {{current}} today so far, against {{baseline}} by this time on the same weekday of the last 3 weeks',
    delivery_stopped: '“{{target}}” in {{accountName}} is active with a budget but has delivered nothing today',
  },
  actions: {
    pause: 'pause',
    resume: 'resume',
    increase_budget: 'raise the budget',
    decrease_budget: 'lower the budget',
    set_budget: 'set the budget',
    boost_budget: 'boost the budget for a window',
    notify: 'notify',
  },
  syncErrors: {
    access_expired: 'Facebook access expired: reconnect this account',
    meta_rate_limited: 'Facebook asked to slow down; the sync will be retried',
    meta_unavailable: 'Facebook is temporarily unavailable',
    meta_permission: 'Facebook refused access to this account',
    meta_error: 'Facebook refused the request',
    unexpected: 'an unexpected error occurred',
    sync_stalled: 'the sync stopped responding; sync again',
  },
  actionFailures: {
    meta_rate_limited: "Postponed: Meta's rate limit was reached; it will be tried again",
    meta_error: 'Meta refused the change',
    reauth_required: 'Facebook access has expired: reconnect the account',
    read_only:
      "Not changed: the account is connected read-only (Facebook's “manage ads” permission was not granted); reconnect it with that permission allowed",
    entity_missing: 'The entity no longer exists',
    live_value_differs: 'The live value had changed since the plan; nothing was written',
    below_account_minimum: "Not changed: the new budget is under the account's minimum daily budget on Meta",
    budget_schedule_refused: 'Meta refused the budget boost: this entity or account cannot hold a budget schedule',
    status_changed_since_pause: 'Not resumed: the status was changed since the rule paused it',
  },
  runErrors: {
    refresh_failed: "The account's figures could not be refreshed",
    reauth_required: 'Facebook access has expired: reconnect the account',
    internal_error: 'Something went wrong in this run',
  },
  webhookFailures: {
    http_status: 'the receiver answered {{status}}',
    timeout: 'the receiver did not answer in time',
    network: 'the receiver could not be reached',
    refused_address: 'the address points to a private network',
  },
  lineFailures: {
    unauthorized: 'LINE did not accept the channel access token',
    forbidden: 'the channel may not message this ID',
    quota: 'the channel’s monthly messages or rate limit are used up',
    rejected: 'LINE refused the message ({{status}})',
    server: 'LINE answered {{status}}',
    timeout: 'LINE did not answer in time',
    network: 'LINE could not be reached',
  },
  changeFields: { status: 'status', daily_budget: 'daily budget', lifetime_budget: 'lifetime budget' },
  roles: { owner: 'owner', admin: 'admin', editor: 'editor', viewer: 'viewer' },
  agentScopes: { read: 'read only', propose: 'read and propose', write: 'read, propose and write' },
  anomalyMetrics: { spend: 'Spend', results: 'Results', cpa: 'CPA', cpm: 'CPM' },
  plans: PLAN_NAMES,
  variants: {
    account_disconnected_rules:
      'Disconnected ad account {{accountName}} ({{accountId}}); switched off the rules that named only this account: {{rules}}',
    external_change_by: '“{{target}}”: {{change}} changed outside AdPilot by {{actor}} ({{app}}), {{from}} → {{to}}',
  },
  counts: {
    attempts_one: '{{count}} attempt',
    attempts_other: '{{count}} attempts',
    recipients_one: '{{count}} recipient',
    recipients_other: '{{count}} recipients',
    activeRules_one: '{{count}} active rule',
    activeRules_other: '{{count}} active rules',
  },
};

const th: ActivityMessages = {
  codes: {
    account_connected: 'เชื่อมต่อบัญชีโฆษณา {{accountName}} ({{accountId}}) แล้ว',
    account_disconnected: 'ยกเลิกการเชื่อมต่อบัญชีโฆษณา {{accountName}} ({{accountId}}) แล้ว',
    sync_failed: 'ซิงค์ {{accountName}} ไม่สำเร็จ: {{reason}}',
    sync_access_expired: 'สิทธิ์เข้าถึง Facebook ของ {{accountName}} หมดอายุ โปรดเชื่อมต่อบัญชีใหม่เพื่อให้ซิงค์และทำงานอัตโนมัติต่อ',
    rule_action_applied: 'กฎ “{{ruleName}}”: {{action}} “{{target}}”',
    rule_action_failed: 'กฎ “{{ruleName}}” {{action}} “{{target}}” ไม่สำเร็จ ({{error}})',
    rule_action_postponed: 'กฎ “{{ruleName}}” เลื่อนการ{{action}} “{{target}}” เนื่องจาก Meta ขอให้รอ',
    rule_action_reverted: 'ย้อนกลับกฎ “{{ruleName}}”: {{action}} “{{target}}”',
    rule_action_skipped: 'กฎ “{{ruleName}}” ไม่ได้{{action}} “{{target}}” ({{error}})',
    rule_action_proposed: 'กฎ “{{ruleName}}” เสนอให้{{action}} “{{target}}”: รอการอนุมัติ',
    rule_action_notified: 'กฎ “{{ruleName}}” จะ{{action}} “{{target}}” (แจ้งเตือนเท่านั้น: ไม่มีการเปลี่ยนแปลงใด ๆ)',
    manual_action_applied: 'ด้วยตนเอง: {{action}} “{{target}}”',
    manual_action_failed: '{{action}} “{{target}}” ด้วยตนเองไม่สำเร็จ ({{error}})',
    manual_action_reverted: 'ย้อนกลับการเปลี่ยนด้วยตนเอง: {{action}} “{{target}}”',
    manual_action_skipped: 'ไม่ได้{{action}} “{{target}}” ด้วยตนเอง ({{error}})',
    manual_action_proposed: 'เสนอด้วยตนเองให้{{action}} “{{target}}”: รอการอนุมัติ',
    manual_proposal_approved: 'อนุมัติข้อเสนอของ {{name}} ให้{{action}} “{{target}}”',
    manual_proposal_rejected: 'ปฏิเสธข้อเสนอของ {{name}} ให้{{action}} “{{target}}”',
    manual_proposal_expired: 'ข้อเสนอของ {{name}} ให้{{action}} “{{target}}” หมดอายุโดยไม่มีผู้ตัดสินใจ',
    manual_proposal_stale: 'ปิดข้อเสนอของ {{name}} ให้{{action}} “{{target}}”: ค่าจริงเปลี่ยนไปแล้ว',
    rule_proposal_approved: 'อนุมัติข้อเสนอของกฎ “{{ruleName}}” ให้{{action}} “{{target}}”',
    rule_proposal_rejected: 'ปฏิเสธข้อเสนอของกฎ “{{ruleName}}” ให้{{action}} “{{target}}”',
    rule_proposal_expired: 'ข้อเสนอของกฎ “{{ruleName}}” ให้{{action}} “{{target}}” หมดอายุโดยไม่มีผู้ตัดสินใจ',
    rule_proposal_stale:
      'ปิดข้อเสนอของกฎ “{{ruleName}}” ให้{{action}} “{{target}}” แล้ว: ค่าจริงเปลี่ยนจาก {{from}} เป็น {{to}}',
    rule_run_completed:
      'กฎ “{{ruleName}}” ทำงานแล้ว: ประเมิน {{evaluated}} ตรงเงื่อนไข {{matched}} ดำเนินการ {{applied}} ล้มเหลว {{failed}} เลื่อน {{postponed}}',
    rule_run_failed: 'กฎ “{{ruleName}}” ทำงานไม่สำเร็จ ({{reason}})',
    plan_changed: 'เปลี่ยนแผนจาก {{from}} เป็น {{to}}',
    plan_assigned: 'ผู้ดูแลระบบ {{admin}} เปลี่ยนแผนจาก {{from}} เป็น {{to}}',
    plan_rules_deactivated: 'แผน {{plan}} เปิดใช้กฎได้ {{limit}}: ปิดการใช้งาน {{rules}}',
    plan_rules_slowed: 'แผน {{plan}} ตรวจสอบกฎได้ถี่สุดทุก {{minutes}}: {{rules}} จะตรวจสอบทุก {{minutes}}',
    payment_failed: 'ชำระเงินสำหรับแผน {{plan}} ไม่สำเร็จ แผนยังใช้งานได้ถึง {{until}} กรุณาอัพเดทวิธีชำระเงินที่หน้าแผนการใช้งาน',
    notification_webhook_failed: 'ส่งเว็บฮุกไปยัง {{host}} ไม่สำเร็จหลังจากพยายาม {{attempts}}: {{reason}}',
    notification_line_unauthorized:
      'LINE ไม่ยอมรับ Channel access token สำหรับข้อความถึง {{target}} โปรดใส่โทเค็นใหม่ในหน้าการแจ้งเตือน',
    notification_line_forbidden:
      'LINE ปฏิเสธข้อความถึง {{target}}: แชนเนลนี้ส่งข้อความถึง ID นี้ไม่ได้ (เพิ่มบอทเข้าแชตแล้วหรือยัง หรือถูกบล็อกอยู่)',
    notification_line_quota: 'LINE ปฏิเสธข้อความถึง {{target}}: แชนเนลใช้โควตาข้อความของเดือนนี้หรือขีดจำกัดอัตราการส่งหมดแล้ว',
    notification_line_failed: 'ส่งข้อความ LINE ถึง {{target}} ไม่สำเร็จหลังจากพยายาม {{attempts}}: {{reason}}',
    workspace_created: 'สร้างเวิร์กสเปซ “{{workspace}}” แล้ว',
    workspace_renamed: 'เปลี่ยนชื่อเวิร์กสเปซ “{{from}}” เป็น “{{to}}” แล้ว',
    workspace_deleted: 'ลบเวิร์กสเปซ “{{workspace}}” แล้ว',
    workspace_member_invited: 'เชิญ {{email}} ในบทบาท{{role}}',
    workspace_invitation_accepted: '{{member}} เข้าร่วมเวิร์กสเปซในบทบาท{{role}}',
    workspace_member_role_changed: 'เปลี่ยนบทบาทของ {{member}} จาก{{from}}เป็น{{to}}',
    workspace_member_removed: 'นำ {{member}} ออกจากเวิร์กสเปซแล้ว',
    workspace_member_left: '{{member}} ออกจากเวิร์กสเปซแล้ว',
    workspace_transfer_offered: 'เสนอโอนเวิร์กสเปซให้ {{member}}',
    workspace_transferred: '{{member}} รับโอนเวิร์กสเปซแล้ว',
    rule_created: 'สร้างกฎ “{{ruleName}}” แล้ว',
    rule_updated: 'แก้ไขกฎ “{{ruleName}}” แล้ว',
    rule_deleted: 'ลบกฎ “{{ruleName}}” แล้ว',
    rule_switched_on: 'เปิดใช้กฎ “{{ruleName}}” แล้ว',
    rule_switched_off: 'ปิดใช้กฎ “{{ruleName}}” แล้ว',
    rule_run_requested: 'สั่งให้กฎ “{{ruleName}}” ทำงานทันที',
    report_sent: 'ส่งรายงานช่วง {{period}} ถึงผู้รับ {{recipients}}แล้ว',
    activity_cleared: 'ล้างบันทึกกิจกรรม {{count}} รายการแล้ว (บันทึกย่อ การแจ้งเตือน การทำงานของกฎ และการซิงก์)',
    report_failed: 'ส่งรายงานช่วง {{period}} ไม่สำเร็จหลังจากพยายาม {{attempts}}',
    external_change: '“{{target}}”: {{change}} ถูกเปลี่ยนจากนอก AdPilot จาก {{from}} เป็น {{to}}',
    agent_token_created: 'สร้างโทเค็น API “{{name}}” ({{scope}}) แล้ว',
    agent_connected: 'เชื่อมต่อไคลเอนต์ AI “{{name}}” ({{scope}}) แล้ว',
    agent_access_revoked: 'เพิกถอนสิทธิ์ของ “{{name}}” แล้ว',
    agent_policy_changed:
      'เปลี่ยนนโยบายเอเจนต์แล้ว: ปรับงบได้ไม่เกิน {{percent}}% ต่อครั้ง วันละ {{perDay}} ครั้ง แคมเปญที่ป้องกันไว้ {{protected}} แคมเปญ',
    agent_tool_called: 'เรียกใช้เครื่องมือ {{tool}}',
    agent_tool_refused: 'ปฏิเสธเครื่องมือ {{tool}}: ต้องใช้สิทธิ์ “{{scope}}”',
    agent_tool_failed: 'เครื่องมือ {{tool}} ทำงานไม่สำเร็จ',
    budget_pacing_over: '“{{target}}” มีแนวโน้มใช้จ่าย {{projected}} ในเดือนนี้ คิดเป็น {{percent}}% ของงบรายเดือน {{budget}}',
    budget_pacing_under: '“{{target}}” ใช้จ่ายไป {{spent}} เมื่อผ่านไปครึ่งเดือน คิดเป็น {{percent}}% ของงบรายเดือน {{budget}}',
    anomaly_jump:
      '{{metric}} ของ {{accountName}} วันนี้พุ่งขึ้นเป็น {{current}} เทียบกับ {{baseline}} ณ เวลาเดียวกันของวันเดียวกันในสัปดาห์ช่วง 3 สัปดาห์ที่ผ่านมา',
    anomaly_drop:
      '{{metric}} ของ {{accountName}} วันนี้ลดลงเหลือ {{current}} เทียบกับ {{baseline}} ณ เวลาเดียวกันของวันเดียวกันในสัปดาห์ช่วง 3 สัปดาห์ที่ผ่านมา',
    delivery_stopped: '“{{target}}” ใน {{accountName}} เปิดใช้งานและมีงบประมาณ แต่วันนี้ยังไม่มีการแสดงโฆษณาเลย',
  },
  actions: {
    pause: 'หยุดชั่วคราว',
    resume: 'เปิดใช้งานต่อ',
    increase_budget: 'เพิ่มงบประมาณ',
    decrease_budget: 'ลดงบประมาณ',
    set_budget: 'ตั้งงบประมาณ',
    boost_budget: 'เพิ่มงบประมาณชั่วคราวตามช่วงเวลา',
    notify: 'แจ้งเตือน',
  },
  syncErrors: {
    access_expired: 'สิทธิ์เข้าถึง Facebook หมดอายุ โปรดเชื่อมต่อบัญชีนี้ใหม่',
    meta_rate_limited: 'Facebook ขอให้ลดความถี่ ระบบจะลองซิงค์ใหม่',
    meta_unavailable: 'Facebook ไม่พร้อมให้บริการชั่วคราว',
    meta_permission: 'Facebook ปฏิเสธการเข้าถึงบัญชีนี้',
    meta_error: 'Facebook ปฏิเสธคำขอ',
    unexpected: 'เกิดข้อผิดพลาดที่ไม่คาดคิด',
    sync_stalled: 'การซิงค์หยุดตอบสนอง กรุณาซิงค์อีกครั้ง',
  },
  actionFailures: {
    meta_rate_limited: 'เลื่อนออกไป: ถึงขีดจำกัดการเรียกของ Meta จะลองใหม่ภายหลัง',
    meta_error: 'Meta ปฏิเสธการเปลี่ยนแปลง',
    reauth_required: 'สิทธิ์เข้าถึง Facebook หมดอายุ กรุณาเชื่อมต่อบัญชีใหม่',
    read_only:
      'ไม่ได้เปลี่ยน: บัญชีนี้เชื่อมต่อแบบอ่านอย่างเดียว (ไม่ได้อนุญาตสิทธิ์ “จัดการโฆษณา” ของ Facebook) กรุณาเชื่อมต่อใหม่และอนุญาตสิทธิ์นั้น',
    entity_missing: 'รายการนี้ไม่มีอยู่แล้ว',
    live_value_differs: 'ค่าจริงเปลี่ยนไปหลังวางแผน จึงไม่ได้เขียนค่าใด',
    below_account_minimum: 'ไม่ได้เปลี่ยน: งบใหม่ต่ำกว่างบรายวันขั้นต่ำของบัญชีบน Meta',
    budget_schedule_refused: 'Meta ปฏิเสธการเพิ่มงบชั่วคราว: รายการหรือบัญชีนี้ตั้งกำหนดการงบประมาณไม่ได้',
    status_changed_since_pause: 'ไม่ได้เปิดใช้งานต่อ: สถานะถูกเปลี่ยนไปหลังจากกฎหยุดไว้',
  },
  runErrors: {
    refresh_failed: 'รีเฟรชตัวเลขของบัญชีไม่สำเร็จ',
    reauth_required: 'สิทธิ์เข้าถึง Facebook หมดอายุ กรุณาเชื่อมต่อบัญชีใหม่',
    internal_error: 'เกิดข้อผิดพลาดในการทำงานรอบนี้',
  },
  webhookFailures: {
    http_status: 'ผู้รับตอบกลับ {{status}}',
    timeout: 'ผู้รับไม่ตอบกลับภายในเวลาที่กำหนด',
    network: 'ติดต่อผู้รับไม่ได้',
    refused_address: 'ที่อยู่ชี้ไปยังเครือข่ายส่วนตัว',
  },
  lineFailures: {
    unauthorized: 'LINE ไม่ยอมรับ Channel access token',
    forbidden: 'แชนเนลนี้ส่งข้อความถึง ID นี้ไม่ได้',
    quota: 'แชนเนลใช้โควตาข้อความของเดือนนี้หรือขีดจำกัดอัตราการส่งหมดแล้ว',
    rejected: 'LINE ปฏิเสธข้อความ ({{status}})',
    server: 'LINE ตอบกลับ {{status}}',
    timeout: 'LINE ไม่ตอบกลับภายในเวลาที่กำหนด',
    network: 'ติดต่อ LINE ไม่ได้',
  },
  changeFields: { status: 'สถานะ', daily_budget: 'งบประมาณรายวัน', lifetime_budget: 'งบประมาณตลอดอายุ' },
  roles: { owner: 'เจ้าของ', admin: 'ผู้ดูแล', editor: 'ผู้แก้ไข', viewer: 'ผู้ดู' },
  agentScopes: { read: 'อ่านอย่างเดียว', propose: 'อ่านและเสนอ', write: 'อ่าน เสนอ และเขียน' },
  anomalyMetrics: { spend: 'ยอดใช้จ่าย', results: 'ผลลัพธ์', cpa: 'CPA', cpm: 'CPM' },
  // The Subscription page shows the catalogue's names in Thai too.
  plans: PLAN_NAMES,
  variants: {
    account_disconnected_rules:
      'ยกเลิกการเชื่อมต่อบัญชีโฆษณา {{accountName}} ({{accountId}}) แล้ว และปิดการใช้งานกฎที่ใช้เฉพาะบัญชีนี้: {{rules}}',
    external_change_by:
      '“{{target}}”: {{change}} ถูกเปลี่ยนจากนอก AdPilot โดย {{actor}} ({{app}}) จาก {{from}} เป็น {{to}}',
  },
  // Thai counts every noun in one form: Intl.PluralRules answers `other` for every count.
  counts: {
    attempts_one: '{{count}} ครั้ง',
    attempts_other: '{{count}} ครั้ง',
    recipients_one: '{{count}} คน',
    recipients_other: '{{count}} คน',
    activeRules_one: '{{count}} กฎ',
    activeRules_other: '{{count}} กฎ',
  },
};

export const ACTIVITY_MESSAGES: Record<ActivityLanguage, ActivityMessages> = { en, th };

/**
 * The parameters of a code that are codes themselves, and the group that words them: `action` of a rule action,
 * `error` of a failed action, `reason` of a failed sync, run or webhook delivery, a plan id by the plan's name. A value the group does not know
 * (an older or newer code) stays as it is.
 */
const CODED_PARAMS: Partial<Record<ActivityCode, Record<string, ActivityMessageGroup>>> = {
  sync_failed: { reason: 'syncErrors' },
  external_change: { change: 'changeFields' },
  rule_action_applied: { action: 'actions' },
  rule_action_failed: { action: 'actions', error: 'actionFailures' },
  rule_action_postponed: { action: 'actions' },
  rule_action_reverted: { action: 'actions' },
  rule_action_skipped: { action: 'actions', error: 'actionFailures' },
  rule_action_proposed: { action: 'actions' },
  rule_action_notified: { action: 'actions' },
  manual_action_applied: { action: 'actions' },
  manual_action_failed: { action: 'actions', error: 'actionFailures' },
  manual_action_reverted: { action: 'actions' },
  manual_action_skipped: { action: 'actions', error: 'actionFailures' },
  manual_action_proposed: { action: 'actions' },
  manual_proposal_approved: { action: 'actions' },
  manual_proposal_rejected: { action: 'actions' },
  manual_proposal_expired: { action: 'actions' },
  manual_proposal_stale: { action: 'actions' },
  rule_proposal_approved: { action: 'actions' },
  rule_proposal_rejected: { action: 'actions' },
  rule_proposal_expired: { action: 'actions' },
  rule_proposal_stale: { action: 'actions' },
  rule_run_failed: { reason: 'runErrors' },
  notification_webhook_failed: { reason: 'webhookFailures' },
  notification_line_failed: { reason: 'lineFailures' },
  plan_changed: { from: 'plans', to: 'plans' },
  plan_assigned: { from: 'plans', to: 'plans' },
  plan_rules_deactivated: { plan: 'plans' },
  plan_rules_slowed: { plan: 'plans' },
  payment_failed: { plan: 'plans' },
  workspace_member_invited: { role: 'roles' },
  agent_token_created: { scope: 'agentScopes' },
  agent_connected: { scope: 'agentScopes' },
  agent_tool_refused: { scope: 'agentScopes' },
  workspace_invitation_accepted: { role: 'roles' },
  anomaly_jump: { metric: 'anomalyMetrics' },
  anomaly_drop: { metric: 'anomalyMetrics' },
  workspace_member_role_changed: { from: 'roles', to: 'roles' },
};

/**
 * How a parameter that is a figure is written in the reader's language (ADR 0091), never as stored:
 * - number: grouped ("1,234" · "1,234")
 * - minutes: with its unit ("1 minute", "15 minutes" · "15 นาที")
 * - day: a calendar day "YYYY-MM-DD" ("Dec 1, 2026" · "1 ธ.ค. 2569")
 * - amount: money in the entry's `currency` ("฿1,500.00"); a bare figure without one is grouped; a status stays
 * - count: a counted noun of `counts` ("1 attempt", "3 attempts" · "3 ครั้ง")
 * A value that is not what its format expects (an older entry's text) is written as it is.
 */
type ParamFormat = 'number' | 'minutes' | 'day' | 'amount' | { count: CountedNoun };

const FORMATTED_PARAMS: Partial<Record<ActivityCode, Record<string, ParamFormat>>> = {
  rule_proposal_stale: { from: 'amount', to: 'amount' },
  rule_run_completed: {
    evaluated: 'number',
    matched: 'number',
    applied: 'number',
    failed: 'number',
    postponed: 'number',
  },
  plan_rules_deactivated: { limit: { count: 'activeRules' } },
  plan_rules_slowed: { minutes: 'minutes' },
  payment_failed: { until: 'day' },
  notification_webhook_failed: { attempts: { count: 'attempts' } },
  notification_line_failed: { attempts: { count: 'attempts' } },
  report_sent: { recipients: { count: 'recipients' } },
  activity_cleared: { count: 'number' },
  report_failed: { attempts: { count: 'attempts' } },
  external_change: { from: 'amount', to: 'amount' },
  agent_policy_changed: { percent: 'number', perDay: 'number', protected: 'number' },
  budget_pacing_over: { budget: 'amount', projected: 'amount', percent: 'number' },
  budget_pacing_under: { budget: 'amount', spent: 'amount', percent: 'number' },
  anomaly_jump: { current: 'amount', baseline: 'amount' },
  anomaly_drop: { current: 'amount', baseline: 'amount' },
};

/** Placeholders written from two stored parameters: a report's local days `from`…`to` as one range of days. */
const DAY_RANGES: Partial<Record<ActivityCode, Record<string, readonly [string, string]>>> = {
  report_sent: { period: ['from', 'to'] },
  report_failed: { period: ['from', 'to'] },
};

/** A stored figure as a number: a number, or a text of one ("500", "12.5"); null for anything else. */
function figureOf(value: CodeParams[string] | undefined): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  return null;
}

/** An amount an older entry stored already written, "THB 1500.00". */
const WRITTEN_AMOUNT = /^([A-Z]{3}) (-?\d+(?:\.\d+)?)$/;

function catalogueOf(language: string): ActivityMessages {
  return Object.hasOwn(ACTIVITY_MESSAGES, language) ? ACTIVITY_MESSAGES[language as ActivityLanguage] : en;
}

/** The catalogue key of a counted noun's form for `count` in `language` (its `_other` form when it has no other). */
export function countKey(noun: CountedNoun, count: number, language: string): string {
  const form = `${noun}_${pluralCategory(count, language)}`;
  return `counts.${Object.hasOwn(catalogueOf(language).counts, form) ? form : `${noun}_other`}`;
}

function formatParam(
  value: CodeParams[string] | undefined,
  format: ParamFormat,
  params: CodeParams,
  language: string,
  lookup: ActivityLookup,
): CodeParams[string] | undefined {
  const figure = figureOf(value);
  if (format === 'day') return typeof value === 'string' ? formatDay(value, language) : value;
  if (format === 'amount') {
    const currency = typeof params.currency === 'string' && params.currency !== '' ? params.currency : null;
    const written = typeof value === 'string' ? WRITTEN_AMOUNT.exec(value) : null;
    if (written) return formatMoney(Number(written[2]), written[1] as string, language);
    if (figure === null) return value;
    return currency ? formatMoney(figure, currency, language) : formatNumber(figure, language);
  }
  if (figure === null) return value;
  if (format === 'number') return formatNumber(figure, language);
  if (format === 'minutes') return formatMinutes(figure, language);
  return lookup(countKey(format.count, figure, language), { count: formatNumber(figure, language) });
}

/**
 * An entry's parameters with its figures written in `language` (FORMATTED_PARAMS, DAY_RANGES) through `lookup`;
 * coded parameters are left for the caller. The stored parameters stay the source: nothing here is stored.
 */
export function formattedParams(
  code: Exclude<ActivityCode, 'note'>,
  params: CodeParams,
  language: string,
  lookup: ActivityLookup = (key, values) => interpolate(textAt(catalogueOf(language), key), values),
): CodeParams {
  const worded: CodeParams = { ...params };
  for (const [name, format] of Object.entries(FORMATTED_PARAMS[code] ?? {})) {
    if (!Object.hasOwn(params, name)) continue;
    const value = formatParam(params[name], format, params, language, lookup);
    if (value !== undefined) worded[name] = value;
  }
  for (const [name, [from, to]] of Object.entries(DAY_RANGES[code] ?? {})) {
    const start = params[from];
    const end = params[to];
    if (start !== undefined && start !== null && end !== undefined && end !== null)
      worded[name] = formatDayRange(String(start), String(end), language);
  }
  return worded;
}

/**
 * A code's longer sentence, used when the entry carries a non-empty `param`: a disconnection that switched rules
 * off names them (`rules`); one that did not reads as the code's own sentence.
 */
const SENTENCE_VARIANTS: Partial<Record<ActivityCode, { param: string; variant: SentenceVariant }>> = {
  account_disconnected: { param: 'rules', variant: 'account_disconnected_rules' },
  external_change: { param: 'actor', variant: 'external_change_by' },
};

/** The catalogue key of an entry's sentence: its code's, or a variant's when the entry carries what it names. */
function sentenceKey(code: Exclude<ActivityCode, 'note'>, params: CodeParams): string {
  const variant = SENTENCE_VARIANTS[code];
  const value = variant && Object.hasOwn(params, variant.param) ? params[variant.param] : undefined;
  if (variant && value !== undefined && value !== null && String(value) !== '') return `variants.${variant.variant}`;
  return `codes.${code}`;
}

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

/** The parameter names a template puts in, in order. */
export function placeholdersOf(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((match) => match[1] as string);
}

/** Puts `params` into a `{{name}}` template in one pass (a value's own braces are never read); a missing one is empty. */
export function interpolate(template: string, params: CodeParams): string {
  return template.replace(PLACEHOLDER, (_, name: string) => {
    const value = Object.hasOwn(params, name) ? params[name] : undefined;
    return value === null || value === undefined ? '' : String(value);
  });
}

/** A catalogue text by its key (`codes.sync_failed`, `actions.pause` …) with the parameters put in. */
export type ActivityLookup = (key: string, params: CodeParams) => string;

export interface CodedEntry {
  code: string | null;
  params: CodeParams;
  description: string;
}

/**
 * An entry in words through `lookup`, its figures written in `language`: the web passes its i18next translator and
 * the reader's language, the server `renderActivity`'s own. Coded parameters are worded first and figures written
 * (FORMATTED_PARAMS); a code with a sentence variant uses it when the entry carries its parameter
 * (SENTENCE_VARIANTS). A note, an unknown code, an entry older than codes, or one whose parameters
 * lack a name its sentence puts in (written by an older version) reads as its stored description.
 */
export function renderActivityWith(entry: CodedEntry, lookup: ActivityLookup, language: string): string {
  if (!hasSentence(entry.code)) return entry.description;
  const key = sentenceKey(entry.code, entry.params);
  const ranges = DAY_RANGES[entry.code] ?? {};
  const needed = placeholdersOf(textAt(en, key)).flatMap((name) => ranges[name] ?? [name]);
  if (needed.some((name) => !Object.hasOwn(entry.params, name) || entry.params[name] === undefined))
    return entry.description;
  const params = formattedParams(entry.code, entry.params, language, lookup);
  for (const [name, group] of Object.entries(CODED_PARAMS[entry.code] ?? {})) {
    const value = entry.params[name];
    if (typeof value === 'string' && Object.hasOwn(en[group], value))
      params[name] = lookup(`${group}.${value}`, entry.params);
  }
  return lookup(key, params);
}

/**
 * A code with a sentence of its own (every code but a note). Asked of the catalogue rather than of ACTIVITY_CODES,
 * so this file needs nothing at run time from activity.ts, whose schemas would bring zod into the web app's first
 * download with the catalogue (ADR 0056).
 */
function hasSentence(code: string | null): code is Exclude<ActivityCode, 'note'> {
  return code !== null && Object.hasOwn(en.codes, code);
}

function textAt(messages: ActivityMessages, key: string): string {
  const [group, code] = key.split('.', 2) as [keyof ActivityMessages, string];
  const texts = messages[group] as Record<string, string>;
  return Object.hasOwn(texts, code) ? (texts[code] as string) : key;
}

/** An activity entry in English or Thai from its stored code and parameters (e-mails, webhook text). Plain text. */
export function renderActivity(entry: CodedEntry, language: ActivityLanguage): string {
  const messages = ACTIVITY_MESSAGES[language];
  return renderActivityWith(entry, (key, params) => interpolate(textAt(messages, key), params), language);
}
