import { ACTIVITY_CODES, ACTIVITY_MESSAGES, renderActivity, type ActivityLog } from '@adpilot/contracts';
import { describe, expect, it } from 'vitest';
import { activityText } from './activity-text.ts';
import { i18n } from './i18n.ts';

const entry = (code: string | null, params: ActivityLog['params'], description = 'stored'): ActivityLog => ({
  _id: '00000000-0000-4000-8000-000000000000',
  seq: 1,
  level: 'info',
  type: 'sync',
  code,
  params,
  description,
  adAccountId: null,
  ruleId: null,
  metadata: {},
  actor: null,
  createdAt: new Date().toISOString(),
});

/** An entry in words as a page in `language` reads it, through that language's translator. */
const read = (language: 'en' | 'th', log: ActivityLog) => activityText(i18n.getFixedT(language), log, language);
/** Intl's no-break, thin and narrow spaces (around a range's dash, after a currency) as plain ones. */
const spaced = (text: string) => text.replace(/[\u00a0\u2009\u202f]/g, ' ');

describe('activityText', () => {
  it('has English and Thai words for every code but the note, from the catalogue shared with the server', () => {
    for (const code of ACTIVITY_CODES.filter((c) => c !== 'note')) {
      for (const language of ['en', 'th'] as const)
        expect(i18n.getFixedT(language)(`activity:codes.${code}`), code).toBe(ACTIVITY_MESSAGES[language].codes[code]);
    }
  });

  it('reads the same as the server’s renderer, nested codes included', () => {
    const entries = [
      entry('rule_action_failed', { ruleName: 'R', action: 'decrease_budget', target: 'T', error: 'reauth_required' }),
      entry('rule_run_failed', { ruleName: 'R', reason: 'refresh_failed' }),
      entry('notification_webhook_failed', { host: 'hooks.example', attempts: 6, reason: 'http_status', status: 503 }),
      entry('plan_rules_deactivated', { plan: 'free', limit: 3, count: 2, rules: 'A, B' }),
      entry('account_disconnected', { accountName: 'Shop', accountId: 'act_1', rules: 'Stop loss' }),
      entry('plan_changed', { from: 'free', to: 'business' }),
      entry('report_sent', { from: '2026-11-16', to: '2026-11-22', recipients: 1 }),
      entry('report_failed', { from: '2026-11-16', to: '2026-11-22', attempts: 1 }),
      entry('rule_run_completed', { ruleName: 'R', evaluated: 1234, matched: 2, applied: 1, failed: 0, postponed: 1 }),
      entry('external_change', {
        accountName: 'Shop',
        target: 'T',
        level: 'adset',
        change: 'daily_budget',
        from: 1500,
        to: 2000,
        currency: 'THB',
      }),
    ];
    for (const language of ['en', 'th'] as const) {
      for (const log of entries) expect(read(language, log)).toBe(renderActivity(log, language));
    }
    expect(read('en', entries[0]!)).toBe(
      'Rule “R” could not lower the budget on “T” (Facebook access has expired: reconnect the account)',
    );
    expect(read('th', entries[4]!)).toBe(
      'ยกเลิกการเชื่อมต่อบัญชีโฆษณา Shop (act_1) แล้ว และปิดการใช้งานกฎที่ใช้เฉพาะบัญชีนี้: Stop loss',
    );
    expect(read('th', entries[5]!)).toBe('เปลี่ยนแผนจาก Free เป็น Business');
    expect(read('th', entries[2]!)).toBe('ส่งเว็บฮุกไปยัง hooks.example ไม่สำเร็จหลังจากพยายาม 6 ครั้ง: ผู้รับตอบกลับ 503');
  });

  it('counts in the reader’s plural forms and writes days and amounts with Intl, through i18next', () => {
    const sent = (recipients: number) => entry('report_sent', { from: '2026-11-16', to: '2026-11-22', recipients });
    expect(spaced(read('en', sent(1)))).toBe('Sent the report for Nov 16 – 22, 2026 to 1 recipient');
    expect(spaced(read('en', sent(2)))).toBe('Sent the report for Nov 16 – 22, 2026 to 2 recipients');
    expect(spaced(read('th', sent(1)))).toBe('ส่งรายงานช่วง 16–22 พ.ย. 2569 ถึงผู้รับ 1 คนแล้ว');
    expect(spaced(read('th', sent(2)))).toBe('ส่งรายงานช่วง 16–22 พ.ย. 2569 ถึงผู้รับ 2 คนแล้ว');
    const failed = (attempts: number) => entry('report_failed', { from: '2026-11-30', to: '2026-12-06', attempts });
    expect(spaced(read('en', failed(1)))).toBe('The report for Nov 30 – Dec 6, 2026 could not be sent after 1 attempt');
    expect(spaced(read('en', failed(3)))).toBe(
      'The report for Nov 30 – Dec 6, 2026 could not be sent after 3 attempts',
    );
    expect(spaced(read('th', failed(3)))).toBe('ส่งรายงานช่วง 30 พ.ย. – 6 ธ.ค. 2569 ไม่สำเร็จหลังจากพยายาม 3 ครั้ง');
    const line = entry('notification_line_failed', { target: 'U1', attempts: 1, reason: 'server', status: 502 });
    expect(read('en', line)).toBe('LINE delivery to U1 failed after 1 attempt: LINE answered 502');
    expect(read('th', line)).toBe('ส่งข้อความ LINE ถึง U1 ไม่สำเร็จหลังจากพยายาม 1 ครั้ง: LINE ตอบกลับ 502');
    const ran = entry('rule_run_completed', {
      ruleName: 'R',
      evaluated: 12_345,
      matched: 2,
      applied: 1,
      failed: 0,
      postponed: 1,
    });
    expect(read('en', ran)).toBe('Rule “R” ran: 12,345 evaluated, 2 matched, 1 applied, 0 failed, 1 postponed');
  });

  it('renders a stored code in the reader’s language, with its parameters and nested codes', () => {
    const failed = entry('sync_failed', { accountName: 'Shop', reason: 'meta_unavailable', detail: 'x' });
    expect(read('en', failed)).toBe('Sync of Shop failed: Facebook is temporarily unavailable');
    expect(read('th', failed)).toBe('ซิงค์ Shop ไม่สำเร็จ: Facebook ไม่พร้อมให้บริการชั่วคราว');
    const applied = entry('rule_action_applied', { ruleName: 'Stop loss', action: 'pause', target: 'Ad <b>1</b>' });
    expect(read('en', applied)).toBe('Rule “Stop loss”: pause on “Ad <b>1</b>”');
    expect(read('th', applied)).toBe('กฎ “Stop loss”: หยุดชั่วคราว “Ad <b>1</b>”');
  });

  it('reads a note, an unknown code and an uncoded entry as their stored description', () => {
    const t = i18n.getFixedT('th');
    expect(activityText(t, entry('note', {}, '<script>x</script>'), 'th')).toBe('<script>x</script>');
    expect(activityText(t, entry('from_the_future', {}, 'later'), 'th')).toBe('later');
    expect(activityText(t, entry(null, {}, 'old sentence'), 'th')).toBe('old sentence');
  });
});

describe('activity codes of billing', () => {
  it('words a plan change and the rules it switched off, the names listed', async () => {
    const { activityCodeOf } = await import('@adpilot/contracts');
    const { params } = activityCodeOf({
      code: 'plan_rules_deactivated',
      params: { plan: 'free', limit: 3, count: 2, rules: ['A', 'B'], nested: { x: 1 } },
    });
    expect(params).toEqual({ plan: 'free', limit: 3, count: 2, rules: 'A, B' });
    expect(read('th', entry('plan_rules_deactivated', params))).toBe('แผน Free เปิดใช้กฎได้ 3 กฎ: ปิดการใช้งาน A, B');
  });
});

describe('rules slowed by a plan change', () => {
  it('names the plan, the interval and the rules, in Thai and English', async () => {
    const { activityCodeOf, describeActivity } = await import('@adpilot/contracts');
    const { params } = activityCodeOf({
      code: 'plan_rules_slowed',
      params: { plan: 'free', minutes: 60, count: 2, rules: ['A', 'B'] },
    });
    expect(read('th', entry('plan_rules_slowed', params))).toBe(
      'แผน Free ตรวจสอบกฎได้ถี่สุดทุก 60 นาที: A, B จะตรวจสอบทุก 60 นาที',
    );
    const english = 'The Free plan checks rules at most every 60 minutes; now checked every 60 minutes: A, B';
    expect(read('en', entry('plan_rules_slowed', params))).toBe(english);
    expect(describeActivity('plan_rules_slowed', params)).toBe(english);
  });
});

describe('a failed payment', () => {
  it('is worded with the plan and the day it stays active to, in Thai and English', () => {
    const params = { plan: 'pro', until: '2026-12-22' };
    expect(read('th', entry('payment_failed', params))).toBe(
      'ชำระเงินสำหรับแผน Pro ไม่สำเร็จ แผนยังใช้งานได้ถึง 22 ธ.ค. 2569 กรุณาอัพเดทวิธีชำระเงินที่หน้าแผนการใช้งาน',
    );
    expect(read('en', entry('payment_failed', params))).toContain(
      'Payment for the Pro plan failed; it stays active until Dec 22, 2026',
    );
  });
});

describe('an AI agent’s entries', () => {
  it('name the tool and the access in Thai and English, and sign the entry with the token “via MCP”', () => {
    expect(read('en', entry('agent_tool_called', { tool: 'list_rules' }))).toBe('Called the tool list_rules');
    expect(read('th', entry('agent_tool_refused', { tool: 'create_rule', scope: 'write' }))).toBe(
      'ปฏิเสธเครื่องมือ create_rule: ต้องใช้สิทธิ์ “อ่าน เสนอ และเขียน”',
    );
    expect(read('en', entry('agent_token_created', { name: 'Cursor', scope: 'propose' }))).toBe(
      'Created the API token “Cursor” (read and propose)',
    );
    const t = i18n.getFixedT('th', 'common');
    expect(t('activityActorAgent', { name: 'Claude Desktop' })).toBe('โดย Claude Desktop ผ่าน MCP');
  });
});
