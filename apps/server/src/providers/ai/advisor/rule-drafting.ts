import {
  createRuleRequestSchema,
  METRIC_LABELS_EN,
  OPERATOR_SYMBOLS,
  RULE_SAFEGUARD_DEFAULTS,
  WINDOW_LABELS_EN,
  type CreateRuleRequest,
  type EntityLevel,
  type RuleAction,
  type RuleDraft,
  type RuleMetric,
  type RuleOperator,
  type RuleWindow,
} from '@adpilot/contracts';
import { languageOf } from '../ai-provider.ts';
import { checkedWords, readSchedule, scheduleForPlan, type DraftPlan } from '../rule-schedule.ts';

/**
 * The built-in advisor's rule drafting: a sentence in English or Thai ("pause ads with CPA over 500 baht in the last
 * 7 days", "เพิ่มงบ 20% เมื่อ ROAS มากกว่า 4") read as metric, comparison, number, window, level and action, and
 * turned into a rule body that passes the rules contract. Anything it cannot read fully is refused, never guessed.
 */

/** Metric words, longest first so "link clicks" wins over "clicks" and "ค่าใช้จ่าย" over "ใช้จ่าย". */
const METRIC_WORDS: [RuleMetric, string[]][] = [
  [
    'cpa',
    [
      'cost per acquisition',
      'cost per conversion',
      'cost per result',
      'cost per purchase',
      'cpa',
      'ต้นทุนต่อผลลัพธ์',
      'ต้นทุนต่อการซื้อ',
      'ต้นทุนต่อคอนเวอร์ชัน',
    ],
  ],
  ['roas', ['return on ad spend', 'roas', 'ผลตอบแทนจากค่าโฆษณา']],
  ['ctr', ['click-through rate', 'click through rate', 'ctr', 'อัตราการคลิก']],
  ['cpc', ['cost per click', 'cpc', 'ต้นทุนต่อคลิก', 'ค่าคลิก']],
  ['cpm', ['cost per thousand', 'cost per mille', 'cpm', 'ต้นทุนต่อพันการแสดงผล']],
  ['frequency', ['frequency', 'ความถี่']],
  ['link_clicks', ['link clicks', 'คลิกลิงก์']],
  ['conversion_value', ['conversion value', 'revenue', 'purchase value', 'มูลค่าคอนเวอร์ชัน', 'ยอดขาย']],
  [
    'conversions',
    ['conversions', 'conversion', 'purchases', 'purchase', 'sales', 'results', 'คอนเวอร์ชัน', 'การซื้อ', 'ผลลัพธ์'],
  ],
  ['daily_budget', ['daily budget', 'งบรายวัน']],
  ['impressions', ['impressions', 'การแสดงผล', 'อิมเพรสชัน']],
  ['reach', ['reach', 'การเข้าถึง']],
  ['clicks', ['clicks', 'คลิก']],
  ['spend', ['amount spent', 'spending', 'spend', 'spent', 'cost', 'ค่าใช้จ่าย', 'ใช้จ่าย', 'ใช้เงิน']],
];

/** Comparison words; the longest match at a place wins ("ไม่เกิน" before "เกิน", "more than" before "than"). */
const OPERATOR_WORDS: [RuleOperator, string[]][] = [
  [
    'gte',
    ['at least', 'or more', 'no less than', 'not less than', '>=', '≥', 'อย่างน้อย', 'ไม่ต่ำกว่า', 'ไม่น้อยกว่า', 'ตั้งแต่'],
  ],
  ['lte', ['at most', 'or less', 'no more than', 'not more than', '<=', '≤', 'ไม่เกิน', 'ไม่มากกว่า', 'สูงสุด']],
  [
    'gt',
    [
      'more than',
      'greater than',
      'higher than',
      'bigger than',
      'larger than',
      'above',
      'over',
      'exceeds',
      'exceed',
      'exceeding',
      'tops',
      '>',
      'มากกว่า',
      'สูงกว่า',
      'เกินกว่า',
      'เกิน',
    ],
  ],
  [
    'lt',
    [
      'less than',
      'lower than',
      'fewer than',
      'smaller than',
      'below',
      'under',
      'drops below',
      '<',
      'น้อยกว่า',
      'ต่ำกว่า',
      'ไม่ถึง',
    ],
  ],
  ['eq', ['equal to', 'equals', 'exactly', '=', 'เท่ากับ']],
];

const NUMBER = String.raw`(\d[\d,]*(?:\.\d+)?)\s*(k\b|พัน)?`;

type Language = 'en' | 'th';

interface ParsedCondition {
  metric: RuleMetric;
  operator: RuleOperator;
  value: number | [number, number];
  start: number;
  end: number;
}

const escape = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const latin = (word: string) => /^[a-z -]+$/.test(word);
/** Latin words match on word boundaries; Thai has none, so Thai words match anywhere. */
const wordPattern = (word: string) => (latin(word) ? `\\b${escape(word)}\\b` : escape(word));

function numberAt(match: RegExpExecArray, group = 1): number {
  const raw = Number((match[group] ?? '').replace(/,/g, ''));
  const scale = match[group + 1] ? 1000 : 1;
  return raw * scale;
}

/** Every "metric … comparison … number" in the text, left to right, each span consumed once. */
function findConditions(text: string): ParsedCondition[] {
  const mentions: { metric: RuleMetric; start: number; end: number }[] = [];
  const taken: boolean[] = new Array(text.length).fill(false);
  const allWords = METRIC_WORDS.flatMap(([metric, words]) => words.map((word) => ({ metric, word })));
  allWords.sort((a, b) => b.word.length - a.word.length);
  for (const { metric, word } of allWords) {
    const pattern = new RegExp(wordPattern(word), 'g');
    for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
      const start = match.index;
      const end = start + match[0].length;
      if (taken.slice(start, end).some(Boolean)) continue;
      for (let i = start; i < end; i += 1) taken[i] = true;
      mentions.push({ metric, start, end });
    }
  }
  mentions.sort((a, b) => a.start - b.start);

  const operators = OPERATOR_WORDS.flatMap(([operator, words]) => words.map((word) => ({ operator, word })));
  operators.sort((a, b) => b.word.length - a.word.length);
  const found: ParsedCondition[] = [];
  mentions.forEach((mention, index) => {
    const next = mentions[index + 1]?.start ?? text.length;
    const tail = text.slice(mention.end, Math.min(next, mention.end + 60));
    // "no conversions" / "without a conversion" / "ไม่มีคอนเวอร์ชัน": none at all.
    const before = text.slice(Math.max(0, mention.start - 14), mention.start);
    if (/(\bno|\bzero|without an?|without|ไม่มี|ยังไม่มี)\s*$/.test(before) && mention.metric === 'conversions') {
      found.push({ metric: 'conversions', operator: 'eq', value: 0, start: mention.start - 1, end: mention.end });
      return;
    }
    const between = new RegExp(
      `^[^\\d]{0,25}?(?:between|ระหว่าง)\\s*${NUMBER}[^\\d]{1,12}?(?:and|to|ถึง|และ|-)\\s*${NUMBER}`,
    ).exec(tail);
    if (between) {
      const low = numberAt(between, 1);
      const high = numberAt(between, 3);
      found.push({
        metric: mention.metric,
        operator: 'between',
        value: [Math.min(low, high), Math.max(low, high)],
        start: mention.start,
        end: mention.end + between[0].length,
      });
      return;
    }
    let best: { operator: RuleOperator; at: number; length: number } | null = null;
    for (const { operator, word } of operators) {
      const match = new RegExp(wordPattern(word)).exec(tail);
      if (match && (!best || match.index < best.at || (match.index === best.at && match[0].length > best.length)))
        best = { operator, at: match.index, length: match[0].length };
    }
    if (!best || best.at > 30) return;
    const afterOperator = tail.slice(best.at + best.length);
    const number = new RegExp(`^[^\\d]{0,16}?${NUMBER}`).exec(afterOperator);
    if (!number) return;
    // "1000 or more": the comparison word follows the number.
    let operator = best.operator;
    const rest = afterOperator.slice(number[0].length);
    if (/^\s*(baht|บาท|thb|usd|dollars?|%|percent)?\s*or more\b/.test(rest)) operator = 'gte';
    if (/^\s*(baht|บาท|thb|usd|dollars?|%|percent)?\s*or less\b/.test(rest)) operator = 'lte';
    found.push({
      metric: mention.metric,
      operator,
      value: numberAt(number),
      start: mention.start,
      end: mention.end + best.at + best.length + number[0].length,
    });
  });
  // "1000 or more" written before the metric is rare; a number with "or more" after it is handled above.
  return found;
}

/** The action and where it was said. Thai "เปิด" (turn on) contains "ปิด" (turn off): resume is looked for first. */
function findAction(text: string, rest: string): { action: RuleAction; word: string } | null {
  const percent = /(\d+(?:\.\d+)?)\s*(%|percent|per cent|เปอร์เซ็นต์)/.exec(rest);
  const amount = /(?:\bby|\bto|เป็น|อีก)?\s*(\d[\d,]*(?:\.\d+)?)\s*(baht|บาท|thb|usd|dollars?|\$)?/.exec(rest);
  const change = (): { by: number; unit: 'percent' | 'amount' } | null => {
    if (percent) return { by: Number(percent[1]), unit: 'percent' };
    if (amount?.[1]) return { by: Number(amount[1].replace(/,/g, '')), unit: 'amount' };
    return null;
  };
  const tests: [RegExp, () => RuleAction | null][] = [
    [
      /\b(increase|raise|boost|bump|scale up|scale|grow|up)\b[^.]{0,20}\bbudget|\bscale (?:up )?(?:the )?(?:ad ?sets?|campaigns?)\b|\bbudget\b[^.]{0,10}\b(up|increase)|เพิ่มงบ|ขยายงบ|สเกล/,
      () => {
        const by = change();
        return by ? { type: 'increase_budget', ...by } : { type: 'increase_budget', by: 20, unit: 'percent' };
      },
    ],
    [
      /\b(decrease|reduce|lower|cut|drop|trim|scale down)\b[^.]{0,20}\bbudget|\bbudget\b[^.]{0,10}\b(down|decrease)|ลดงบ/,
      () => {
        const by = change();
        return by ? { type: 'decrease_budget', ...by } : { type: 'decrease_budget', by: 20, unit: 'percent' };
      },
    ],
    [
      /\bset\b[^.]{0,20}\bbudget\b[^.]{0,6}\bto\b|ตั้งงบ|กำหนดงบ/,
      () => (amount?.[1] ? { type: 'set_budget', amount: Number(amount[1].replace(/,/g, '')) } : null),
    ],
    [/\b(pause|stop|turn off|switch off|kill|disable)\b|หยุด|พักโฆษณา/, () => ({ type: 'pause' })],
    [
      /\b(resume|restart|reactivate|unpause|turn (?:back )?on|switch (?:back )?on)\b|เปิด|กลับมา/,
      () => ({ type: 'resume' }),
    ],
    [/(?<!เ)ปิด/, () => ({ type: 'pause' })],
    [/\b(notify|alert|tell me|email me|let me know|warn|remind)\b|แจ้งเตือน|แจ้ง|เตือน/, () => ({ type: 'notify' })],
  ];
  for (const [pattern, build] of tests) {
    const match = pattern.exec(text);
    if (!match) continue;
    const action = build();
    return action ? { action, word: match[0] } : null;
  }
  return null;
}

function findWindow(text: string): RuleWindow | null {
  if (/\btoday\b|วันนี้/.test(text)) return 'today';
  if (/\byesterday\b|เมื่อวาน/.test(text)) return 'yesterday';
  if (/\b(lifetime|all time|ever)\b|ตลอดอายุ|ทั้งหมดตั้งแต่|ตั้งแต่เริ่ม/.test(text)) return 'lifetime';
  const days = /(\d+)\s*(?:-\s*)?(?:days?|d\b|วัน)/.exec(text);
  if (days) {
    const n = Number(days[1]);
    if (n === 1) return 'yesterday';
    if (n === 3 || n === 7 || n === 14 || n === 30) return `last_${n}d` as RuleWindow;
    return null;
  }
  if (/\b(week|7d)\b|สัปดาห์|อาทิตย์/.test(text)) return 'last_7d';
  if (/\b(two weeks|fortnight)\b|2 สัปดาห์/.test(text)) return 'last_14d';
  if (/\bmonth\b|เดือน/.test(text)) return 'last_30d';
  return 'last_7d';
}

function findLevel(text: string): EntityLevel | null {
  if (/\bad ?sets?\b|\badsets?\b|ชุดโฆษณา/.test(text)) return 'adset';
  if (/\bcampaigns?\b|แคมเปญ/.test(text)) return 'campaign';
  if (/\bads?\b|โฆษณา/.test(text)) return 'ad';
  return null;
}

const LEVEL_WORDS = {
  en: { campaign: 'campaigns', adset: 'ad sets', ad: 'ads' },
  th: { campaign: 'แคมเปญ', adset: 'ชุดโฆษณา', ad: 'โฆษณา' },
} as const;
const WINDOW_TH: Record<RuleWindow, string> = {
  today: 'วันนี้',
  yesterday: 'เมื่อวาน',
  last_3d: '3 วันที่ผ่านมา',
  last_7d: '7 วันที่ผ่านมา',
  last_14d: '14 วันที่ผ่านมา',
  last_30d: '30 วันที่ผ่านมา',
  lifetime: 'ตลอดอายุ',
};

function actionWords(action: RuleAction, language: Language): string {
  const th = language === 'th';
  switch (action.type) {
    case 'pause':
      return th ? 'หยุด' : 'Pause';
    case 'resume':
      return th ? 'เปิดใช้งานอีกครั้ง' : 'Resume';
    case 'notify':
      return th ? 'แจ้งเตือนสำหรับ' : 'Notify me about';
    case 'set_budget':
      return th ? `ตั้งงบเป็น ${action.amount} สำหรับ` : `Set the budget to ${action.amount} for`;
    case 'increase_budget':
    case 'decrease_budget': {
      const size = action.unit === 'percent' ? `${action.by}%` : `${action.by}`;
      if (th) return `${action.type === 'increase_budget' ? 'เพิ่ม' : 'ลด'}งบ ${size} ของ`;
      return `${action.type === 'increase_budget' ? 'Raise' : 'Lower'} the budget by ${size} for`;
    }
    case 'boost_budget': {
      const size = action.unit === 'percent' ? `${action.by}%` : `${action.by}`;
      if (th) return `เพิ่มงบชั่วคราว ${size} เวลา ${action.from}–${action.to} ของ`;
      return `Boost the budget by ${size} from ${action.from} to ${action.to} for`;
    }
  }
}

function conditionWords(condition: ParsedCondition, window: RuleWindow, language: Language): string {
  const value = Array.isArray(condition.value) ? `${condition.value[0]}–${condition.value[1]}` : condition.value;
  const when =
    language === 'th'
      ? WINDOW_TH[window]
      : window === 'today' || window === 'yesterday'
        ? window
        : WINDOW_LABELS_EN[window];
  return `${METRIC_LABELS_EN[condition.metric]} ${OPERATOR_SYMBOLS[condition.operator]} ${value} (${when})`;
}

export class DraftRefusal extends Error {}

const AMOUNT = String.raw`(?:฿|\$)?\s*(\d[\d,]*(?:\.\d+)?)`;
const CEILING = new RegExp(
  String.raw`(?:\bup to|\bat most|\bmax(?:imum)?(?:\s+of)?|\bno more than|\bnot more than|\bcap(?:ped)?(?:\s+(?:at|of))?|\bceiling(?:\s+of)?|\bnever above|\bnot above|\buntil it reaches|ไม่เกิน|สูงสุด|เพดาน|จนถึง|ได้ถึง)\s*(?:a budget of|งบ)?\s*${AMOUNT}`,
);
const FLOOR = new RegExp(
  String.raw`(?:\bnot below|\bno lower than|\bnot lower than|\bnever below|\bno less than|\bat least|\bdown to|\bmin(?:imum)?(?:\s+of)?|\bfloor(?:\s+of)?|ไม่ต่ำกว่า|ต่ำสุด|ไม่น้อยกว่า|อย่างน้อย)\s*(?:a budget of|งบ)?\s*${AMOUNT}`,
);
const MIN_SPEND = new RegExp(
  String.raw`(?:\bmin(?:imum)?\s+spend(?:ing)?(?:\s+of)?|\bonce (?:it|they) (?:has|have) spent|\bafter spending(?:\s+at least)?|ใช้จ่ายขั้นต่ำ|ค่าใช้จ่ายขั้นต่ำ|เมื่อใช้จ่ายครบ)\s*${AMOUNT}`,
);
const NOTIFY = /\b(notify|alert|tell me|email me|let me know|warn me|remind)\b|แจ้งเตือน|แจ้งให้|บอกฉัน|แจ้งฉัน/;

const amountOf = (match: RegExpExecArray) => Number(match[1]!.replace(/,/g, ''));

/**
 * The limits said around the action (issue 29): a ceiling for a raise and a floor for a cut ("up to 3,000 baht",
 * "ไม่ต่ำกว่า 500"), the minimum spend before an entity is judged, and "tell me" as a notice besides the change. Read
 * from the text with the conditions taken out, so a condition's own "at least" is never taken for a floor.
 */
function readLimits(rest: string, action: RuleAction) {
  let text = rest;
  const minSpend = MIN_SPEND.exec(text);
  if (minSpend) text = text.replace(minSpend[0], ' ');
  const ceiling = action.type === 'increase_budget' ? CEILING.exec(text) : null;
  const floor = action.type === 'decrease_budget' ? FLOOR.exec(text) : null;
  const limited: RuleAction =
    action.type === 'increase_budget' || action.type === 'decrease_budget'
      ? {
          ...action,
          ...(ceiling ? { ceiling: amountOf(ceiling) } : {}),
          ...(floor ? { floor: amountOf(floor) } : {}),
        }
      : action;
  return {
    action: limited,
    notify: action.type !== 'notify' && NOTIFY.test(rest),
    minSpend: minSpend ? amountOf(minSpend) : null,
  };
}

function limitWords(limits: ReturnType<typeof readLimits>, language: Language): string[] {
  const th = language === 'th';
  const words: string[] = [];
  const { action } = limits;
  if ((action.type === 'increase_budget' || action.type === 'decrease_budget') && action.ceiling !== undefined)
    words.push(th ? `งบจะไม่เกิน ${action.ceiling}` : `The budget never goes above ${action.ceiling}.`);
  if ((action.type === 'increase_budget' || action.type === 'decrease_budget') && action.floor !== undefined)
    words.push(th ? `งบจะไม่ต่ำกว่า ${action.floor}` : `The budget never goes below ${action.floor}.`);
  if (limits.minSpend !== null)
    words.push(
      th
        ? `พิจารณาเฉพาะรายการที่ใช้จ่ายอย่างน้อย ${limits.minSpend}`
        : `Only what has spent at least ${limits.minSpend} is judged.`,
    );
  if (limits.notify) words.push(th ? 'แจ้งเตือนคุณทุกครั้งที่กฎทำงาน' : 'You are notified each time it acts.');
  return words;
}

/**
 * The rule body and its explanation, or a DraftRefusal saying the sentence was not understood. The schedule is one
 * the plan can switch on: the plan's fastest unless the sentence names a slower one (a faster one is noted).
 */
export function draftRule(prompt: string, plan: DraftPlan): RuleDraft {
  const language = languageOf(prompt);
  const text = prompt.toLowerCase().replace(/\s+/g, ' ').trim();
  const conditions = findConditions(text);
  if (conditions.length === 0) throw new DraftRefusal('no condition');
  // The action's own numbers ("by 20%") are read from the text with the conditions taken out.
  let rest = text;
  for (const condition of [...conditions].sort((a, b) => b.start - a.start)) {
    rest =
      rest.slice(0, Math.max(0, condition.start)) +
      ' '.repeat(condition.end - condition.start) +
      rest.slice(condition.end);
  }
  const windowText = rest;
  const found = findAction(text, rest.replace(/\b\d+\s*(days?|d)\b|\d+\s*วัน/g, ' '));
  if (!found) throw new DraftRefusal('no action');
  const limits = readLimits(rest, found.action);
  const { action } = limits;
  const window = findWindow(windowText);
  if (!window) throw new DraftRefusal('window');

  const budget = action.type === 'increase_budget' || action.type === 'decrease_budget' || action.type === 'set_budget';
  let level = findLevel(text.replace(/งบ|budget/g, ' ')) ?? (budget ? 'adset' : 'ad');
  const notes: string[] = [];
  if (budget && level === 'ad') {
    level = 'adset';
    notes.push(
      language === 'th'
        ? 'โฆษณาไม่มีงบของตัวเอง จึงใช้ระดับชุดโฆษณา'
        : 'Ads have no budget of their own, so the rule works on ad sets.',
    );
  }
  const match = /\bor\b|หรือ/.test(text) && conditions.length > 1 ? 'any' : 'all';
  const { schedule, note: scheduleNote } = scheduleForPlan(readSchedule(text), plan, language);
  if (scheduleNote) notes.push(scheduleNote);
  const levelWord = LEVEL_WORDS[language][level];
  const joiner = language === 'th' ? (match === 'any' ? ' หรือ ' : ' และ ') : match === 'any' ? ' or ' : ' and ';
  const conditionText = conditions.map((condition) => conditionWords(condition, window, language)).join(joiner);
  const gap = language === 'th' ? '' : ' ';
  const name = `${actionWords(action, language)}${gap}${levelWord}: ${conditionText}`.slice(0, 100);

  const body = {
    name,
    description: prompt.trim().slice(0, 500),
    isActive: false,
    // A draft asks before it changes anything, like a template.
    mode: 'approve',
    scope: { adAccountIds: [], level, statuses: [action.type === 'resume' ? 'PAUSED' : 'ACTIVE'] },
    conditions: {
      match,
      items: conditions.map(({ metric, operator, value }) => ({
        metric,
        operator,
        value,
        window,
        includeToday: window.startsWith('last_'),
      })),
    },
    actions: limits.notify ? [action, { type: 'notify' }] : [action],
    schedule,
    ...(limits.minSpend !== null ? { safeguards: { ...RULE_SAFEGUARD_DEFAULTS, minSpend: limits.minSpend } } : {}),
  } satisfies CreateRuleRequest;
  const parsed = createRuleRequestSchema.safeParse(body);
  if (!parsed.success) throw new DraftRefusal(parsed.error.issues[0]?.message ?? 'invalid');

  const explanation =
    language === 'th'
      ? [
          `${actionWords(action, 'th')}${levelWord}ที่ ${conditionText}`,
          ...limitWords(limits, 'th'),
          checkedWords(schedule, 'th'),
          ...notes,
          'กฎนี้ยังปิดอยู่: ตรวจสอบ แก้ไข แล้วบันทึกเองในตัวสร้างกฎ',
        ].join('\n')
      : [
          `${actionWords(action, 'en')} ${levelWord} when ${conditionText}.`,
          ...limitWords(limits, 'en'),
          checkedWords(schedule, 'en'),
          ...notes,
          'The rule is switched off: review it, change what you like, then save it in the builder.',
        ].join('\n');
  return { rule: parsed.data, explanation, language };
}
