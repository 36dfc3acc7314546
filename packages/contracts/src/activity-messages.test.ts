import { describe, expect, it } from 'vitest';
import { ACTIVITY_CODES, describeActivity, SYNC_ERROR_CODES } from './activity.ts';
import {
  ACTIVITY_LANGUAGES,
  ACTIVITY_MESSAGES,
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
      'Webhook delivery to hooks.example failed after 6 attempt(s): the receiver answered 503',
    );
    expect(renderActivity(hook, 'th')).toBe('ส่งเว็บฮุกไปยัง hooks.example ไม่สำเร็จหลังจากพยายาม 6 ครั้ง: ผู้รับตอบกลับ 503');
    const line = entry('notification_line_failed', { target: 'Uabc', attempts: 3, reason: 'server', status: 502 });
    expect(renderActivity(line, 'en')).toBe('LINE delivery to Uabc failed after 3 attempt(s): LINE answered 502');
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
      'The Free plan checks rules at most every 60 minutes: A now run every 60 minutes',
    );
    const unpaid = entry('payment_failed', { plan: 'enterprise', until: '2026-12-01' });
    expect(renderActivity(unpaid, 'en')).toMatch(
      /^Payment for the Enterprise plan failed; it stays active until 2026-12-01/,
    );
    expect(renderActivity(unpaid, 'th')).toMatch(/^ชำระเงินสำหรับแผน Enterprise ไม่สำเร็จ/);
    // A plan the catalogue does not know (a newer one) stays as it is.
    expect(renderActivity(entry('plan_changed', { from: 'pro', to: 'galaxy' }), 'en')).toBe(
      'Plan changed from Pro to galaxy',
    );
    expect(describeActivity('plan_changed', { from: 'free', to: 'pro' })).toBe('Plan changed from Free to Pro');
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
