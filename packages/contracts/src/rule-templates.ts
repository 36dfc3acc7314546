import { z } from 'zod';
import { createRuleRequestSchema, type CreateRuleRequest, type RuleBody } from './rules.ts';

/**
 * GET /api/rules/templates: starting points for the rule builder, each a valid rule body. The body's name and
 * description are the English ones; the builder swaps in the language the page shows. The first two are the
 * spec's own examples (§3: stop ads when CPA exceeds ฿500, raise the budget when ROAS exceeds 4.0).
 */

export const RULE_TEMPLATE_IDS = [
  'stop_loss_cpa',
  'scale_winners_roas',
  'pause_low_ctr',
  'fatigue_frequency',
  'revive_late_conversions',
  'creative_fatigue',
  'month_pacing',
  'dayparting',
] as const;
export type RuleTemplateId = (typeof RULE_TEMPLATE_IDS)[number];

const localized = z.object({ en: z.string(), th: z.string() });

export const ruleTemplateSchema = z.object({
  id: z.enum(RULE_TEMPLATE_IDS),
  name: localized,
  description: localized,
  rule: createRuleRequestSchema,
});
export type RuleTemplate = { id: RuleTemplateId; name: Localized; description: Localized; rule: RuleBody };
type Localized = z.infer<typeof localized>;

interface TemplateSource {
  id: RuleTemplateId;
  name: Localized;
  description: Localized;
  rule: Omit<CreateRuleRequest, 'name' | 'description'>;
}

const SOURCES: TemplateSource[] = [
  {
    id: 'stop_loss_cpa',
    name: { en: 'Stop loss on CPA', th: 'หยุดขาดทุนเมื่อ CPA สูง' },
    description: {
      en: 'Pause ads whose cost per conversion over the last 7 days is above ฿500, or that spent ฿500 without a conversion.',
      th: 'หยุดโฆษณาที่มีต้นทุนต่อคอนเวอร์ชันใน 7 วันล่าสุดเกิน ฿500 หรือใช้จ่ายครบ ฿500 แล้วยังไม่มีคอนเวอร์ชัน',
    },
    rule: {
      scope: { adAccountIds: [], level: 'ad', statuses: ['ACTIVE'] },
      conditions: {
        match: 'any',
        items: [
          { metric: 'cpa', operator: 'gt', value: 500, window: 'last_7d', includeToday: true },
          {
            match: 'all',
            items: [
              { metric: 'conversions', operator: 'eq', value: 0, window: 'last_7d', includeToday: true },
              { metric: 'spend', operator: 'gte', value: 500, window: 'last_7d', includeToday: true },
            ],
          },
        ],
      },
      actions: [{ type: 'pause' }],
      schedule: { everyMinutes: 60 },
      safeguards: { cooldownHours: 24, maxActionsPerDay: 20, minSpend: 100, minImpressions: 0, settleHours: 0 },
    },
  },
  {
    id: 'scale_winners_roas',
    name: { en: 'Scale winners on ROAS', th: 'เพิ่มงบให้ชุดโฆษณาที่ ROAS ดี' },
    description: {
      en: 'Raise the daily budget by 20% (up to ฿5,000) of ad sets whose ROAS over the last 3 days is above 4.0.',
      th: 'เพิ่มงบรายวัน 20% (สูงสุด ฿5,000) ให้ชุดโฆษณาที่มี ROAS ใน 3 วันล่าสุดมากกว่า 4.0',
    },
    rule: {
      scope: { adAccountIds: [], level: 'adset', statuses: ['ACTIVE'] },
      conditions: {
        match: 'all',
        items: [
          { metric: 'roas', operator: 'gt', value: 4, window: 'last_3d' },
          { metric: 'spend', operator: 'gte', value: 300, window: 'last_3d' },
        ],
      },
      actions: [{ type: 'increase_budget', by: 20, unit: 'percent', ceiling: 5000 }],
      schedule: { dailyAt: '09:00' },
      safeguards: { cooldownHours: 24, maxActionsPerDay: 20, minSpend: 0, minImpressions: 0, settleHours: 0 },
    },
  },
  {
    id: 'pause_low_ctr',
    name: { en: 'Pause low CTR', th: 'หยุดโฆษณาที่ CTR ต่ำ' },
    description: {
      en: 'Pause ads whose click-through rate over the last 3 days is under 0.5% after at least 2,000 impressions.',
      th: 'หยุดโฆษณาที่มีอัตราการคลิก (CTR) ใน 3 วันล่าสุดต่ำกว่า 0.5% หลังได้รับการแสดงผลอย่างน้อย 2,000 ครั้ง',
    },
    rule: {
      scope: { adAccountIds: [], level: 'ad', statuses: ['ACTIVE'] },
      conditions: {
        match: 'all',
        items: [{ metric: 'ctr', operator: 'lt', value: 0.5, window: 'last_3d', includeToday: true }],
      },
      actions: [{ type: 'pause' }],
      schedule: { everyMinutes: 60 },
      safeguards: { cooldownHours: 24, maxActionsPerDay: 20, minSpend: 0, minImpressions: 2000, settleHours: 0 },
    },
  },
  {
    id: 'fatigue_frequency',
    name: { en: 'Ad fatigue on frequency', th: 'หยุดโฆษณาที่ผู้ชมเห็นบ่อยเกินไป' },
    description: {
      en: 'Pause ads people have seen more than 3.5 times on average over the last 7 days while their CTR fell under 1%, and notify.',
      th: 'หยุดโฆษณาที่ผู้ชมเห็นเฉลี่ยเกิน 3.5 ครั้งใน 7 วันล่าสุดและ CTR ลดลงต่ำกว่า 1% พร้อมแจ้งเตือน',
    },
    rule: {
      scope: { adAccountIds: [], level: 'ad', statuses: ['ACTIVE'] },
      conditions: {
        match: 'all',
        items: [
          { metric: 'frequency', operator: 'gt', value: 3.5, window: 'last_7d', includeToday: true },
          { metric: 'ctr', operator: 'lt', value: 1, window: 'last_7d', includeToday: true },
        ],
      },
      actions: [{ type: 'pause' }, { type: 'notify' }],
      schedule: { dailyAt: '08:00' },
      safeguards: { cooldownHours: 72, maxActionsPerDay: 20, minSpend: 0, minImpressions: 1000, settleHours: 0 },
    },
  },
  {
    id: 'revive_late_conversions',
    name: { en: 'Revive paused ads with late conversions', th: 'เปิดโฆษณาที่หยุดไว้อีกครั้งเมื่อคอนเวอร์ชันล่าช้าเข้ามา' },
    description: {
      en: 'Resume paused ads whose cost per conversion over the last 7 days came back to ฿500 or less once late conversions were counted.',
      th: 'เปิดโฆษณาที่หยุดไว้อีกครั้ง เมื่อคอนเวอร์ชันที่เข้ามาล่าช้าทำให้ต้นทุนต่อคอนเวอร์ชันใน 7 วันล่าสุดกลับมาไม่เกิน ฿500',
    },
    rule: {
      scope: { adAccountIds: [], level: 'ad', statuses: ['PAUSED'] },
      conditions: {
        match: 'all',
        items: [
          { metric: 'conversions', operator: 'gte', value: 1, window: 'last_7d' },
          { metric: 'cpa', operator: 'lte', value: 500, window: 'last_7d' },
        ],
      },
      actions: [{ type: 'resume' }],
      schedule: { dailyAt: '10:00' },
      safeguards: { cooldownHours: 72, maxActionsPerDay: 20, minSpend: 0, minImpressions: 0, settleHours: 6 },
    },
  },
  {
    id: 'creative_fatigue',
    name: { en: 'Creative fatigue', th: 'ครีเอทีฟล้า' },
    description: {
      en: 'Propose pausing ads whose fatigue score reached 70 (people see them often, CTR fell and CPM rose against their first days), and notify so the creative can be refreshed.',
      th: 'เสนอให้หยุดโฆษณาที่คะแนนความล้าถึง 70 (ผู้ชมเห็นบ่อย CTR ลดลงและ CPM สูงขึ้นเมื่อเทียบกับช่วงแรก) และแจ้งเตือนเพื่อเปลี่ยนครีเอทีฟใหม่',
    },
    rule: {
      scope: { adAccountIds: [], level: 'ad', statuses: ['ACTIVE'] },
      conditions: {
        match: 'all',
        items: [{ metric: 'fatigue', operator: 'gte', value: 70, window: 'last_7d' }],
      },
      actions: [{ type: 'pause' }, { type: 'notify', message: 'Creative fatigue: refresh this ad’s creative.' }],
      schedule: { dailyAt: '09:00' },
      safeguards: { cooldownHours: 72, maxActionsPerDay: 20, minSpend: 0, minImpressions: 0, settleHours: 0 },
    },
  },
  {
    id: 'month_pacing',
    name: { en: 'Month pacing', th: 'คุมงบรายเดือน' },
    description: {
      en: 'Notify when a campaign is on track to spend more than ฿110,000 this month (110% of a ฿100,000 monthly budget) at the pace of its last 7 days.',
      th: 'แจ้งเตือนเมื่อแคมเปญมีแนวโน้มใช้จ่ายเกิน ฿110,000 ในเดือนนี้ (110% ของงบรายเดือน ฿100,000) ตามอัตราการใช้จ่าย 7 วันล่าสุด',
    },
    rule: {
      scope: { adAccountIds: [], level: 'campaign', statuses: ['ACTIVE'] },
      conditions: {
        match: 'all',
        items: [{ metric: 'projected_month_spend', operator: 'gt', value: 110_000, window: 'last_7d' }],
      },
      actions: [{ type: 'notify', message: 'On track to overspend this month’s budget.' }],
      schedule: { dailyAt: '09:00' },
      safeguards: { cooldownHours: 72, maxActionsPerDay: 20, minSpend: 0, minImpressions: 0, settleHours: 0 },
    },
  },
  {
    id: 'dayparting',
    name: { en: 'Dayparting: weekday hours', th: 'ตั้งช่วงเวลาโฆษณา: วันธรรมดา' },
    description: {
      en: "Pause active ads at 20:00 and resume them at 08:00, Monday to Friday, in the ad account's time zone; they stay paused over the weekend.",
      th: 'หยุดโฆษณาที่กำลังทำงานเวลา 20:00 และเปิดอีกครั้งเวลา 08:00 วันจันทร์ถึงศุกร์ ตามเขตเวลาของบัญชีโฆษณา โดยหยุดไว้ตลอดวันเสาร์และอาทิตย์',
    },
    rule: {
      scope: { adAccountIds: [], level: 'ad', statuses: ['ACTIVE'] },
      // Every active ad in scope: the window decides, not the figures.
      conditions: {
        match: 'all',
        items: [{ metric: 'hours_since_creation', operator: 'gte', value: 0, window: 'today' }],
      },
      actions: [{ type: 'pause' }],
      schedule: { windows: [{ days: [1, 2, 3, 4, 5], from: '08:00', to: '20:00' }] },
      // No cooldown: the same ads are paused every evening, a resume of the morning in between.
      safeguards: { cooldownHours: 0, maxActionsPerDay: 200, minSpend: 0, minImpressions: 0, settleHours: 0 },
    },
  },
];

/**
 * The templates, each parsed through the rule schema so every default is filled in and the body is valid. Each
 * starts by asking before it changes anything (approve mode): money moves only once a person said yes.
 */
export const RULE_TEMPLATES: readonly RuleTemplate[] = SOURCES.map((source) => ({
  id: source.id,
  name: source.name,
  description: source.description,
  rule: createRuleRequestSchema.parse({
    mode: 'approve',
    ...source.rule,
    name: source.name.en,
    description: source.description.en,
  }),
}));
