import { describe, expect, it } from 'vitest';
import { ACTIVITY_CODES, describeActivity, SYNC_ERROR_CODES } from './activity.ts';
import {
  ACTIVITY_LANGUAGES,
  ACTIVITY_MESSAGES,
  COUNTED_NOUNS,
  interpolate,
  placeholdersOf,
  renderActivity,
} from './activity-messages.ts';
import { PLAN_IDS } from './constants.ts';
import { LINE_FAILURE_CODES, WEBHOOK_FAILURE_CODES } from './notifications.ts';
import { ACTION_FAILURE_CODES } from './rule-codes.ts';
import { RULE_ACTION_TYPES } from './rule-constants.ts';
import { RULE_RUN_ERROR_CODES } from './rule-results.ts';

const placeholders = (text: string) => placeholdersOf(text).sort();
/** An entry's words with Intl's no-break, thin and narrow spaces (around a range's dash, after a currency) as plain ones, to compare as read. */
const spaced = (...args: Parameters<typeof renderActivity>) =>
  renderActivity(...args).replace(/[\u00a0\u2009\u202f]/g, ' ');

const groups = {
  actions: RULE_ACTION_TYPES,
  syncErrors: SYNC_ERROR_CODES,
  actionFailures: ACTION_FAILURE_CODES,
  runErrors: RULE_RUN_ERROR_CODES,
  webhookFailures: WEBHOOK_FAILURE_CODES,
  lineFailures: LINE_FAILURE_CODES,
  plans: PLAN_IDS,
} as const;

describe('the activity message catalogue', () => {
  it('words every activity code but the note in English and Thai, with the same placeholders', () => {
    const codes = ACTIVITY_CODES.filter((code) => code !== 'note');
    for (const language of ACTIVITY_LANGUAGES)
      expect(Object.keys(ACTIVITY_MESSAGES[language].codes).sort()).toEqual([...codes].sort());
    for (const code of codes) {
      const en = ACTIVITY_MESSAGES.en.codes[code];
      const th = ACTIVITY_MESSAGES.th.codes[code];
      expect(en.trim(), code).not.toBe('');
      expect(th.trim(), code).not.toBe('');
      expect(th, code).not.toBe(en);
      expect(placeholders(th), code).toEqual(placeholders(en));
    }
  });

  it('words every action, sync error, action failure, run error and webhook failure in both languages', () => {
    for (const [group, codes] of Object.entries(groups)) {
      for (const language of ACTIVITY_LANGUAGES) {
        const texts = ACTIVITY_MESSAGES[language][group as keyof typeof groups] as Record<string, string>;
        expect(Object.keys(texts).sort(), `${language} ${group}`).toEqual([...codes].sort());
        for (const code of codes) expect(texts[code]?.trim(), `${language} ${group}.${code}`).toBeTruthy();
      }
      for (const code of codes) {
        const en = (ACTIVITY_MESSAGES.en[group as keyof typeof groups] as Record<string, string>)[code] as string;
        const th = (ACTIVITY_MESSAGES.th[group as keyof typeof groups] as Record<string, string>)[code] as string;
        expect(placeholders(th), `${group}.${code}`).toEqual(placeholders(en));
      }
    }
  });

  it('words every sentence variant in both languages, with the same placeholders', () => {
    for (const [variant, en] of Object.entries(ACTIVITY_MESSAGES.en.variants)) {
      const th = (ACTIVITY_MESSAGES.th.variants as Record<string, string>)[variant] as string;
      expect(th.trim(), variant).not.toBe('');
      expect(th, variant).not.toBe(en);
      expect(placeholders(th), variant).toEqual(placeholders(en));
    }
    expect(Object.keys(ACTIVITY_MESSAGES.th.variants).sort()).toEqual(
      Object.keys(ACTIVITY_MESSAGES.en.variants).sort(),
    );
  });

  it('holds only strings, as an i18next resource does', () => {
    for (const language of ACTIVITY_LANGUAGES) {
      for (const group of Object.values(ACTIVITY_MESSAGES[language]))
        for (const text of Object.values(group)) expect(typeof text).toBe('string');
    }
  });
});

const entry = (code: string | null, params: Record<string, string | number | null>, description = 'stored') => ({
  code,
  params,
  description,
});

describe('renderActivity', () => {
  const failed = entry('rule_action_failed', {
    ruleName: 'Stop loss',
    action: 'pause',
    target: 'Summer sale',
    error: 'reauth_required',
  });

  it('renders a rule action with its action and failure worded, in English and Thai', () => {
    expect(renderActivity(failed, 'en')).toBe(
      'Rule “Stop loss” could not pause on “Summer sale” (Facebook access has expired: reconnect the account)',
    );
    expect(renderActivity(failed, 'th')).toBe(
      'กฎ “Stop loss” หยุดชั่วคราว “Summer sale” ไม่สำเร็จ (สิทธิ์เข้าถึง Facebook หมดอายุ กรุณาเชื่อมต่อบัญชีใหม่)',
    );
    const raised = entry('rule_action_applied', { ruleName: 'Scale', action: 'increase_budget', target: 'Ad set 1' });
    expect(renderActivity(raised, 'en')).toBe('Rule “Scale”: raise the budget on “Ad set 1”');
    expect(renderActivity(raised, 'th')).toBe('กฎ “Scale”: เพิ่มงบประมาณ “Ad set 1”');
  });

  it('words the reason of a failed sync, run and webhook delivery by its own group', () => {
    const sync = entry('sync_failed', { accountName: 'Shop', reason: 'meta_unavailable', detail: 'x' });
    expect(renderActivity(sync, 'en')).toBe('Sync of Shop failed: Facebook is temporarily unavailable');
    expect(renderActivity(sync, 'th')).toBe('ซิงค์ Shop ไม่สำเร็จ: Facebook ไม่พร้อมให้บริการชั่วคราว');
    // reauth_required is a run error, not a sync error: it is worded as the rule's history words it.
    const run = entry('rule_run_failed', { ruleName: 'Stop loss', reason: 'reauth_required' });
    expect(renderActivity(run, 'en')).toBe(
      'Rule “Stop loss” run failed (Facebook access has expired: reconnect the account)',
    );
    expect(renderActivity(run, 'th')).toBe('กฎ “Stop loss” ทำงานไม่สำเร็จ (สิทธิ์เข้าถึง Facebook หมดอายุ กรุณาเชื่อมต่อบัญชีใหม่)');
    const hook = entry('notification_webhook_failed', {
      host: 'hooks.example',
      attempts: 6,
      reason: 'http_status',
      status: 503,
    });
    expect(renderActivity(hook, 'en')).toBe(
      'Webhook delivery to hooks.example failed after 6 attempts: the receiver answered 503',
    );
    expect(renderActivity(hook, 'th')).toBe('ส่งเว็บฮุกไปยัง hooks.example ไม่สำเร็จหลังจากพยายาม 6 ครั้ง: ผู้รับตอบกลับ 503');
    const line = entry('notification_line_failed', { target: 'Uabc', attempts: 3, reason: 'server', status: 502 });
    expect(renderActivity(line, 'en')).toBe('LINE delivery to Uabc failed after 3 attempts: LINE answered 502');
    expect(renderActivity(line, 'th')).toBe('ส่งข้อความ LINE ถึง Uabc ไม่สำเร็จหลังจากพยายาม 3 ครั้ง: LINE ตอบกลับ 502');
  });

  it('says which rules a disconnection switched off, when it switched any off', () => {
    const params = { accountName: 'Shop', accountId: 'act_1' };
    const plain = entry('account_disconnected', params);
    expect(renderActivity(plain, 'en')).toBe('Disconnected ad account Shop (act_1)');
    expect(renderActivity({ ...plain, params: { ...params, rules: '' } }, 'en')).toBe(
      'Disconnected ad account Shop (act_1)',
    );
    const off = entry('account_disconnected', { ...params, rules: 'Stop loss, Scale' });
    expect(renderActivity(off, 'en')).toBe(
      'Disconnected ad account Shop (act_1); switched off the rules that named only this account: Stop loss, Scale',
    );
    expect(renderActivity(off, 'th')).toBe(
      'ยกเลิกการเชื่อมต่อบัญชีโฆษณา Shop (act_1) แล้ว และปิดการใช้งานกฎที่ใช้เฉพาะบัญชีนี้: Stop loss, Scale',
    );
    expect(describeActivity('account_disconnected', off.params)).toBe(renderActivity(off, 'en'));
    expect(describeActivity('account_disconnected', params)).toBe('Disconnected ad account Shop (act_1)');
  });

  it("words plan ids with the plans' names, in both languages", () => {
    const changed = entry('plan_changed', { from: 'free', to: 'pro' });
    expect(renderActivity(changed, 'en')).toBe('Plan changed from Free to Pro');
    expect(renderActivity(changed, 'th')).toBe('เปลี่ยนแผนจาก Free เป็น Pro');
    const off = entry('plan_rules_deactivated', { plan: 'business', limit: 25, count: 1, rules: 'A' });
    expect(renderActivity(off, 'en')).toBe('The Business plan allows 25 active rules: switched off A');
    expect(renderActivity(off, 'th')).toBe('แผน Business เปิดใช้กฎได้ 25 กฎ: ปิดการใช้งาน A');
    const slowed = entry('plan_rules_slowed', { plan: 'free', minutes: 60, count: 1, rules: 'A' });
    expect(renderActivity(slowed, 'en')).toBe(
      'The Free plan checks rules at most every 60 minutes; now checked every 60 minutes: A',
    );
    const unpaid = entry('payment_failed', { plan: 'enterprise', until: '2026-12-01' });
    expect(renderActivity(unpaid, 'en')).toMatch(
      /^Payment for the Enterprise plan failed; it stays active until Dec 1, 2026\./,
    );
    expect(renderActivity(unpaid, 'th')).toMatch(/^ชำระเงินสำหรับแผน Enterprise ไม่สำเร็จ แผนยังใช้งานได้ถึง 1 ธ\.ค\. 2569 /);
    // A plan the catalogue does not know (a newer one) stays as it is.
    expect(renderActivity(entry('plan_changed', { from: 'pro', to: 'galaxy' }), 'en')).toBe(
      'Plan changed from Pro to galaxy',
    );
    expect(describeActivity('plan_changed', { from: 'free', to: 'pro' })).toBe('Plan changed from Free to Pro');
  });

  it('counts attempts, recipients and rules in each language’s plural forms', () => {
    const hook = (attempts: number) =>
      entry('notification_webhook_failed', { host: 'h.example', attempts, reason: 'timeout', status: null });
    expect(renderActivity(hook(1), 'en')).toBe(
      'Webhook delivery to h.example failed after 1 attempt: the receiver did not answer in time',
    );
    expect(renderActivity(hook(3), 'en')).toBe(
      'Webhook delivery to h.example failed after 3 attempts: the receiver did not answer in time',
    );
    // Thai has one form for every count.
    expect(renderActivity(hook(1), 'th')).toBe(
      'ส่งเว็บฮุกไปยัง h.example ไม่สำเร็จหลังจากพยายาม 1 ครั้ง: ผู้รับไม่ตอบกลับภายในเวลาที่กำหนด',
    );
    expect(renderActivity(hook(3), 'th')).toBe(
      'ส่งเว็บฮุกไปยัง h.example ไม่สำเร็จหลังจากพยายาม 3 ครั้ง: ผู้รับไม่ตอบกลับภายในเวลาที่กำหนด',
    );
    const line = entry('notification_line_failed', { target: 'U1', attempts: 1, reason: 'network', status: null });
    expect(renderActivity(line, 'en')).toBe('LINE delivery to U1 failed after 1 attempt: LINE could not be reached');
    expect(renderActivity(line, 'th')).toBe('ส่งข้อความ LINE ถึง U1 ไม่สำเร็จหลังจากพยายาม 1 ครั้ง: ติดต่อ LINE ไม่ได้');
    const sent = (recipients: number) => entry('report_sent', { from: '2026-11-16', to: '2026-11-22', recipients });
    expect(spaced(sent(1), 'en')).toBe('Sent the report for Nov 16 – 22, 2026 to 1 recipient');
    expect(spaced(sent(2), 'en')).toBe('Sent the report for Nov 16 – 22, 2026 to 2 recipients');
    expect(spaced(sent(1), 'th')).toBe('ส่งรายงานช่วง 16–22 พ.ย. 2569 ถึงผู้รับ 1 คนแล้ว');
    expect(spaced(sent(2), 'th')).toBe('ส่งรายงานช่วง 16–22 พ.ย. 2569 ถึงผู้รับ 2 คนแล้ว');
    const one = entry('plan_rules_deactivated', { plan: 'free', limit: 1, count: 2, rules: 'A, B' });
    expect(renderActivity(one, 'en')).toBe('The Free plan allows 1 active rule: switched off A, B');
    expect(renderActivity(one, 'th')).toBe('แผน Free เปิดใช้กฎได้ 1 กฎ: ปิดการใช้งาน A, B');
    const minute = entry('plan_rules_slowed', { plan: 'pro', minutes: 1, count: 1, rules: 'A' });
    expect(renderActivity(minute, 'en')).toBe(
      'The Pro plan checks rules at most every 1 minute; now checked every 1 minute: A',
    );
    expect(renderActivity(minute, 'th')).toBe('แผน Pro ตรวจสอบกฎได้ถี่สุดทุก 1 นาที: A จะตรวจสอบทุก 1 นาที');
    // The English stored description counts the same way.
    expect(describeActivity('report_sent', sent(1).params)).toBe(renderActivity(sent(1), 'en'));
    expect(describeActivity('notification_webhook_failed', hook(1).params)).toBe(
      'Webhook delivery to h.example failed after 1 attempt: timeout',
    );
    expect(describeActivity('plan_rules_deactivated', one.params)).toBe(renderActivity(one, 'en'));
  });

  it('writes days, ranges of days, counts and amounts with Intl in the reader’s language', () => {
    // A range across months and years reads as one range, in the Buddhist era in Thai.
    const failed = entry('report_failed', { from: '2026-12-28', to: '2027-01-03', attempts: 4 });
    expect(spaced(failed, 'en')).toBe('The report for Dec 28, 2026 – Jan 3, 2027 could not be sent after 4 attempts');
    expect(spaced(failed, 'th')).toBe('ส่งรายงานช่วง 28 ธ.ค. 2569 – 3 ม.ค. 2570 ไม่สำเร็จหลังจากพยายาม 4 ครั้ง');
    expect(describeActivity('report_failed', failed.params)).toBe(renderActivity(failed, 'en'));
    const ran = entry('rule_run_completed', {
      ruleName: 'R',
      evaluated: 12_345,
      matched: 1_200,
      applied: 3,
      failed: 0,
      postponed: 0,
    });
    expect(spaced(ran, 'en')).toBe('Rule “R” ran: 12,345 evaluated, 1,200 matched, 3 applied, 0 failed, 0 postponed');
    expect(spaced(ran, 'th')).toBe('กฎ “R” ทำงานแล้ว: ประเมิน 12,345 ตรงเงื่อนไข 1,200 ดำเนินการ 3 ล้มเหลว 0 เลื่อน 0');
    const budget = { accountName: 'Shop', target: 'Ad set 1', level: 'adset', change: 'daily_budget' };
    const moved = entry('external_change', { ...budget, from: 1500, to: 2250.5, currency: 'THB' });
    expect(spaced(moved, 'en')).toBe('“Ad set 1”: daily budget changed outside AdPilot, THB 1,500.00 → THB 2,250.50');
    expect(spaced(moved, 'th')).toBe('“Ad set 1”: งบประมาณรายวัน ถูกเปลี่ยนจากนอก AdPilot จาก ฿1,500.00 เป็น ฿2,250.50');
    // An older entry stored the amount already written; it reads the same.
    const older = entry('external_change', { ...budget, from: 'THB 1500.00', to: 'THB 2250.50' });
    expect(spaced(older, 'th')).toBe(spaced(moved, 'th'));
    const status = entry('external_change', { ...budget, change: 'status', from: 'ACTIVE', to: 'PAUSED' });
    expect(spaced(status, 'en')).toBe('“Ad set 1”: status changed outside AdPilot, ACTIVE → PAUSED');
    const stale = entry('rule_proposal_stale', {
      ruleName: 'Scale',
      action: 'increase_budget',
      target: 'Ad set 1',
      from: 1000,
      to: 1250,
      currency: 'USD',
    });
    expect(spaced(stale, 'en')).toBe(
      'Closed the proposal of rule “Scale” to raise the budget “Ad set 1”: the live value changed from $1,000.00 to $1,250.00',
    );
    expect(spaced(stale, 'th')).toBe(
      'ปิดข้อเสนอของกฎ “Scale” ให้เพิ่มงบประมาณ “Ad set 1” แล้ว: ค่าจริงเปลี่ยนจาก US$1,000.00 เป็น US$1,250.00',
    );
    // What is not a day or a figure (an older entry's text) is written as it is.
    expect(spaced(entry('payment_failed', { plan: 'pro', until: 'soon' }), 'en')).toMatch(/until soon\./);
  });

  it('leaves no “(s)” plural and no raw ISO day in any sentence of the catalogue', () => {
    for (const language of ACTIVITY_LANGUAGES)
      for (const [group, texts] of Object.entries(ACTIVITY_MESSAGES[language]))
        for (const [key, text] of Object.entries(texts as Record<string, string>)) {
          expect(text, `${language} ${group}.${key}`).not.toMatch(/\(s\)|\d{4}-\d{2}-\d{2}/);
          if (group === 'counts') expect(placeholdersOf(text), `${language} ${key}`).toEqual(['count']);
        }
    for (const language of ACTIVITY_LANGUAGES)
      for (const noun of COUNTED_NOUNS)
        for (const form of ['one', 'other'] as const)
          expect(ACTIVITY_MESSAGES[language].counts[`${noun}_${form}`], `${language} ${noun}_${form}`).toBeTruthy();
  });

  it('leaves a parameter code it does not know as it is', () => {
    const odd = entry('rule_action_failed', { ruleName: 'R', action: 'teleport', target: 'T', error: 'error' });
    expect(renderActivity(odd, 'en')).toBe('Rule “R” could not teleport on “T” (error)');
    // A sync error code in another entry's `reason` is not worded as a sync error.
    const run = entry('rule_run_failed', { ruleName: 'R', reason: 'meta_unavailable' });
    expect(renderActivity(run, 'en')).toBe('Rule “R” run failed (meta_unavailable)');
  });

  it('falls back to the stored description for a note, an unknown code and an entry without a code', () => {
    for (const language of ACTIVITY_LANGUAGES) {
      expect(renderActivity(entry('note', {}, 'my own words'), language)).toBe('my own words');
      expect(renderActivity(entry('from_the_future', { a: 1 }, 'later'), language)).toBe('later');
      expect(renderActivity(entry(null, {}, 'old sentence'), language)).toBe('old sentence');
      expect(renderActivity(entry('toString', {}, 'inherited'), language)).toBe('inherited');
    }
  });

  it('falls back to the stored description when the parameters lack a name the sentence needs', () => {
    const partial = entry('sync_failed', { account: 'Shop' }, 'Sync failed for Shop');
    expect(renderActivity(partial, 'th')).toBe('Sync failed for Shop');
    // A null value is a value: it reads as nothing, like an absent `detail`.
    const nulls = entry('plan_changed', { from: 'free', to: null });
    expect(renderActivity(nulls, 'en')).toBe('Plan changed from Free to ');
  });

  it('keeps a parameter as text: markup and placeholders in it are never read', () => {
    const hostile = entry('rule_action_applied', {
      ruleName: '<script>alert(1)</script>',
      action: 'pause',
      target: '{{ruleName}} &amp; <b>x</b>',
    });
    expect(renderActivity(hostile, 'en')).toBe(
      'Rule “<script>alert(1)</script>”: pause on “{{ruleName}} &amp; <b>x</b>”',
    );
    expect(renderActivity(hostile, 'th')).toBe(
      'กฎ “<script>alert(1)</script>”: หยุดชั่วคราว “{{ruleName}} &amp; <b>x</b>”',
    );
  });

  it('puts nothing for a missing parameter', () => {
    expect(interpolate('a {{x}} b {{ y }} c', { y: 0 })).toBe('a  b 0 c');
    expect(interpolate('{{constructor}}', {})).toBe('');
  });
});
