import {
  addDays,
  formatDayRange,
  formatMoney,
  formatNumber,
  type Citation,
  type EntityLevel,
} from '@adpilot/contracts';
import type { TenantScope } from '@adpilot/db';
import { findAnswer } from '../../../providers/ai/advisor/knowledge-base.ts';
import type { EntityFigures, EntityReads, ReadAccount } from './entity-reads.ts';
import { compareRows, entityHref, previousPeriod } from './explorer-tools.ts';
import type { AssistantTools } from './assistant-tools.ts';
import type { ChangeCandidate } from './suggestions.ts';

export type Language = 'en' | 'th';

/** What the built-in analyst understood a question to ask. */
export type Intent = 'wasted' | 'best' | 'worst' | 'changes' | 'pacing' | 'rules' | 'overview';

export interface AnalystAnswer {
  text: string;
  citations: Citation[];
  /** False: the analyst could not answer, said what it can, and the question is not counted (ADR 0142). */
  answered: boolean;
  intent: Intent | null;
  /** Changes the answer suggests (checked and shown with a confirm button by the assistant; none is made here). */
  candidates: ChangeCandidate[];
}

/** The words that name each question, in English and Thai; the first that matches wins, in this order. */
const INTENTS: [Intent, RegExp][] = [
  ['wasted', /wast|burn|no (results|conversions|sales)|throw(ing)? money|สูญเปล่า|เปลือง|เสียเงิน|ไม่มียอด|ไม่มีผลลัพธ์|ไม่คุ้ม/],
  [
    'changes',
    /why|changed?|rise|rose|drop|fell|went (up|down)|increase|decrease|compared?|vs\.?|previous|ทำไม|เปลี่ยน|เพิ่มขึ้น|ลดลง|สูงขึ้น|แย่ลง|เทียบ|ก่อนหน้า/,
  ],
  [
    'pacing',
    /pac(e|ing)|on track|month.to.date|budget (left|remaining)|end of (the )?month|projected|ทันงบ|งบเดือนนี้|ใช้งบไป|คาดการณ์|ความเร็วการใช้งบ/,
  ],
  ['rules', /rules?\b|automation|กฎ|อัตโนมัติ/],
  ['worst', /worst|bottom|weakest|poorest|lowest roas|highest cpa|แย่ที่สุด|แย่สุด|ต่ำที่สุด/],
  ['best', /best|top|strongest|winn(er|ing)|highest roas|lowest cpa|perform|ดีที่สุด|ดีสุด|เด่น|ผลงาน/],
  ['overview', /summar|overview|how (is|are) (my|our)|how.s my|total|สรุป|ภาพรวม|เป็นอย่างไร|เป็นยังไง|ยอดรวม/],
];

export function intentOf(message: string): Intent | null {
  const text = message.toLowerCase();
  return INTENTS.find(([, pattern]) => pattern.test(text))?.[0] ?? null;
}

/** The level a question asks about: campaigns unless it names ad sets or ads. */
export function levelOf(message: string): EntityLevel {
  const text = message.toLowerCase();
  if (/ad ?sets?\b|ชุดโฆษณา/.test(text)) return 'adset';
  if (/\bads\b|\bad\b(?! account)|ชิ้นโฆษณา|ตัวโฆษณา/.test(text) && !/campaign|แคมเปญ/.test(text)) return 'ad';
  return 'campaign';
}

/** The days a question asks about, ending on the account's last day with figures: 7 unless it names others. */
export function daysOf(message: string): { days: number; label: 'yesterday' | 'days' | 'month' } {
  const text = message.toLowerCase();
  if (/yesterday|เมื่อวาน/.test(text)) return { days: 1, label: 'yesterday' };
  if (/this month|month.to.date|เดือนนี้/.test(text)) return { days: 0, label: 'month' };
  const named = /(\d{1,2})\s*(days?|d\b|วัน)/.exec(text);
  if (named) return { days: Math.min(90, Math.max(1, Number(named[1]))), label: 'days' };
  if (/two weeks|14|สองสัปดาห์|2 สัปดาห์/.test(text)) return { days: 14, label: 'days' };
  if (/(last|past) month|30|เดือนที่แล้ว|เดือนก่อน/.test(text)) return { days: 30, label: 'days' };
  return { days: 7, label: 'days' };
}

/** A name as it may appear in a link's text: one line, no markdown of its own, at most 80 characters. */
export function safeName(name: string): string {
  const flat = name
    .replace(/[\p{Cc}[\]()<>`*_|\\]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return [...flat].length > 80 ? `${[...flat].slice(0, 79).join('')}…` : flat || '—';
}

const link = (entity: { id: string; name: string }) => `[${safeName(entity.name)}](${entityHref(entity.id)})`;

const W = {
  en: {
    noAccounts: 'You have no ad account connected yet. Connect one on the Ad Accounts page and ask again.',
    noData: (account: string) => `${account} has no figures synced yet; once it has, ask again.`,
    period: (range: string, days: number) => (days === 1 ? `${range}` : `${range}, ${days} days`),
    wastedHead: (account: string, range: string) => `Spend with no results in ${account} (${range}):`,
    wastedLine: (name: string, spend: string) => `${name}: ${spend} spent, no results`,
    wastedTotal: (sum: string, share: string, total: string) =>
      `Together ${sum} brought nothing — ${share} of the ${total} the account spent.`,
    wastedNext:
      'Check their tracking and creative, pause them, or ask me to draft a rule such as "pause campaigns that spend 500 with no results in 3 days".',
    pauseWasted: (spend: string, range: string) => `${spend} spent with no results (${range})`,
    cutCostly: (cpa: string, accountCpa: string, range: string) =>
      `CPA ${cpa}, more than twice the account's ${accountCpa} (${range}): 20% less budget`,
    costlyHead: (account: string, range: string, cpa: string) =>
      `Every campaign with spend in ${account} had results (${range}). These cost more than twice the account's CPA of ${cpa}:`,
    costlyLine: (name: string, spend: string, cpa: string) => `${name}: ${spend} spent, CPA ${cpa}`,
    noneWasted: (account: string, range: string, cpa: string) =>
      `Nothing in ${account} looks wasted (${range}): everything with spend had results, none above twice the account's CPA of ${cpa}.`,
    bestHead: (account: string, range: string) => `Best performers in ${account} (${range}):`,
    worstHead: (account: string, range: string) => `Weakest performers in ${account} (${range}):`,
    byCpa: 'By CPA (cost per result):',
    byRoas: 'By ROAS (revenue per unit of spend):',
    perf: (name: string, value: string, spend: string, results: string) =>
      `${name}: ${value} (${spend} spent, ${results} results)`,
    noResults: 'No entity had results in this period, so CPA and ROAS cannot rank them.',
    changesHead: (account: string, range: string, before: string) =>
      `What changed in ${account}: ${range} against ${before}:`,
    change: (name: string, metric: string, from: string, to: string, pct: string) =>
      `${name}: ${metric} ${from} → ${to} (${pct})`,
    cause: {
      cpm: 'CPM moved most: the auction got more (or less) expensive — competition, a narrow audience or lower ad quality.',
      ctr: 'CTR moved most: people click less (or more) — the creative or the offer needs a refresh.',
      frequency: 'Frequency moved most: the same people see the ads again and again — creative fatigue.',
      cpa: 'CPA moved with fewer results for the spend: check the landing page and tracking.',
      roas: 'ROAS moved most: revenue per order or the number of orders changed.',
    },
    likely: 'Likely cause:',
    noChanges: (account: string, range: string) => `No figures to compare in ${account} for ${range}.`,
    pacingHead: (account: string, range: string) => `Pacing of ${account}, month to date (${range}):`,
    pacingLine: (spent: string, daily: string, projected: string) =>
      `Spent ${spent}, ${daily} a day; at this pace the month ends near ${projected}.`,
    pacingTop: 'Largest spenders this month:',
    rulesHead: (range: string) => `What your rules did (${range}):`,
    ruleLine: (name: string, actions: number) => `${name}: ${actions} change${actions === 1 ? '' : 's'} applied`,
    raised: (amount: string) => `budgets raised by ${amount}`,
    lowered: (amount: string) => `budgets lowered by ${amount}`,
    avoided: (amount: string) => `about ${amount} of spend avoided by pauses (an estimate)`,
    cpaMove: (from: string, to: string) => `CPA of the changed budgets ${from} → ${to}`,
    noRules: 'You have no rules yet. Ask me to draft one, e.g. "pause ads with CPA over 500 in the last 7 days".',
    noActions: 'None of your rules applied a change in this period.',
    overviewHead: (account: string, range: string) => `${account} (${range}):`,
    overviewLine: (spend: string, results: string, cpa: string, roas: string, ctr: string) =>
      `${spend} spent, ${results} results, CPA ${cpa}, ROAS ${roas}, CTR ${ctr}`,
    unknown:
      'I can only answer from your account’s figures without a connected model. Ask me, for example: "Which campaigns are wasting money?", "What are my best and worst campaigns?", "Why did CPA rise yesterday?", "How is my budget pacing this month?" or "What did my rules do?". This question was not counted against your monthly AI requests.',
  },
  th: {
    noAccounts: 'ยังไม่มีบัญชีโฆษณาที่เชื่อมต่อ เชื่อมต่อบัญชีในหน้าบัญชีโฆษณาแล้วถามอีกครั้ง',
    noData: (account: string) => `บัญชี ${account} ยังไม่มีข้อมูลที่ซิงค์ เมื่อซิงค์แล้วให้ถามอีกครั้ง`,
    period: (range: string, days: number) => (days === 1 ? `${range}` : `${range} รวม ${days} วัน`),
    wastedHead: (account: string, range: string) => `ค่าใช้จ่ายที่ไม่มีผลลัพธ์ในบัญชี ${account} (${range}):`,
    wastedLine: (name: string, spend: string) => `${name}: ใช้จ่าย ${spend} ไม่มีผลลัพธ์`,
    wastedTotal: (sum: string, share: string, total: string) =>
      `รวม ${sum} ที่ไม่ได้ผลลัพธ์เลย คิดเป็น ${share} ของค่าใช้จ่ายทั้งบัญชี ${total}`,
    wastedNext:
      'ตรวจสอบการติดตามผลและครีเอทีฟ หยุดรายการเหล่านี้ หรือให้ฉันร่างกฎ เช่น "หยุดแคมเปญที่ใช้จ่าย 500 บาทโดยไม่มีผลลัพธ์ใน 3 วัน"',
    pauseWasted: (spend: string, range: string) => `ใช้จ่าย ${spend} โดยไม่มีผลลัพธ์ (${range})`,
    cutCostly: (cpa: string, accountCpa: string, range: string) =>
      `ต้นทุนต่อผลลัพธ์ ${cpa} สูงกว่าสองเท่าของบัญชี (${accountCpa}) (${range}): ลดงบลง 20%`,
    costlyHead: (account: string, range: string, cpa: string) =>
      `ทุกแคมเปญที่มีค่าใช้จ่ายในบัญชี ${account} มีผลลัพธ์ (${range}) แต่รายการต่อไปนี้มีต้นทุนต่อผลลัพธ์สูงกว่าสองเท่าของบัญชี (${cpa}):`,
    costlyLine: (name: string, spend: string, cpa: string) => `${name}: ใช้จ่าย ${spend} ต้นทุนต่อผลลัพธ์ ${cpa}`,
    noneWasted: (account: string, range: string, cpa: string) =>
      `ไม่พบค่าใช้จ่ายที่สูญเปล่าในบัญชี ${account} (${range}) ทุกรายการที่มีค่าใช้จ่ายมีผลลัพธ์ และไม่มีรายการใดที่ต้นทุนต่อผลลัพธ์สูงกว่าสองเท่าของบัญชี (${cpa})`,
    bestHead: (account: string, range: string) => `รายการที่ทำผลงานดีที่สุดในบัญชี ${account} (${range}):`,
    worstHead: (account: string, range: string) => `รายการที่ทำผลงานแย่ที่สุดในบัญชี ${account} (${range}):`,
    byCpa: 'ตามต้นทุนต่อผลลัพธ์ (CPA):',
    byRoas: 'ตามผลตอบแทนจากค่าโฆษณา (ROAS):',
    perf: (name: string, value: string, spend: string, results: string) =>
      `${name}: ${value} (ใช้จ่าย ${spend} ได้ผลลัพธ์ ${results})`,
    noResults: 'ไม่มีรายการใดมีผลลัพธ์ในช่วงนี้ จึงจัดอันดับตามต้นทุนต่อผลลัพธ์และผลตอบแทนไม่ได้',
    changesHead: (account: string, range: string, before: string) =>
      `สิ่งที่เปลี่ยนไปในบัญชี ${account}: ${range} เทียบกับ ${before}:`,
    change: (name: string, metric: string, from: string, to: string, pct: string) =>
      `${name}: ${metric} ${from} → ${to} (${pct})`,
    cause: {
      cpm: 'CPM เปลี่ยนมากที่สุด: การประมูลแพงขึ้น (หรือถูกลง) จากการแข่งขัน กลุ่มเป้าหมายแคบ หรือคุณภาพโฆษณาต่ำ',
      ctr: 'CTR เปลี่ยนมากที่สุด: คนคลิกน้อยลง (หรือมากขึ้น) ควรปรับครีเอทีฟหรือข้อเสนอ',
      frequency: 'ความถี่เปลี่ยนมากที่สุด: คนกลุ่มเดิมเห็นโฆษณาซ้ำ ๆ เป็นสัญญาณว่าครีเอทีฟเริ่มล้า',
      cpa: 'ต้นทุนต่อผลลัพธ์เปลี่ยนเพราะได้ผลลัพธ์น้อยลงเมื่อเทียบกับค่าใช้จ่าย ควรตรวจหน้าแลนดิ้งและการติดตามผล',
      roas: 'ROAS เปลี่ยนมากที่สุด: มูลค่าต่อคำสั่งซื้อหรือจำนวนคำสั่งซื้อเปลี่ยนไป',
    },
    likely: 'สาเหตุที่เป็นไปได้:',
    noChanges: (account: string, range: string) => `ไม่มีข้อมูลให้เปรียบเทียบในบัญชี ${account} ช่วง ${range}`,
    pacingHead: (account: string, range: string) => `การใช้งบของบัญชี ${account} ตั้งแต่ต้นเดือน (${range}):`,
    pacingLine: (spent: string, daily: string, projected: string) =>
      `ใช้ไปแล้ว ${spent} เฉลี่ยวันละ ${daily} ถ้าใช้ในอัตรานี้ สิ้นเดือนจะใช้ประมาณ ${projected}`,
    pacingTop: 'รายการที่ใช้จ่ายมากที่สุดในเดือนนี้:',
    rulesHead: (range: string) => `สิ่งที่กฎของคุณทำ (${range}):`,
    ruleLine: (name: string, actions: number) => `${name}: ปรับเปลี่ยนไปแล้ว ${actions} ครั้ง`,
    raised: (amount: string) => `เพิ่มงบรวม ${amount}`,
    lowered: (amount: string) => `ลดงบรวม ${amount}`,
    avoided: (amount: string) => `การหยุดโฆษณาช่วยประหยัดค่าใช้จ่ายได้ประมาณ ${amount} (ประมาณการ)`,
    cpaMove: (from: string, to: string) => `ต้นทุนต่อผลลัพธ์ของรายการที่ปรับงบ ${from} → ${to}`,
    noRules: 'คุณยังไม่มีกฎ ให้ฉันร่างกฎได้ เช่น "หยุดโฆษณาที่มีต้นทุนต่อผลลัพธ์เกิน 500 บาทใน 7 วันที่ผ่านมา"',
    noActions: 'ยังไม่มีกฎใดปรับเปลี่ยนอะไรในช่วงนี้',
    overviewHead: (account: string, range: string) => `บัญชี ${account} (${range}):`,
    overviewLine: (spend: string, results: string, cpa: string, roas: string, ctr: string) =>
      `ใช้จ่าย ${spend} ได้ผลลัพธ์ ${results} ต้นทุนต่อผลลัพธ์ ${cpa} ROAS ${roas} CTR ${ctr}`,
    unknown:
      'เมื่อยังไม่ได้เชื่อมต่อโมเดล ฉันตอบได้จากตัวเลขในบัญชีของคุณเท่านั้น ลองถาม เช่น "แคมเปญไหนเสียเงินเปล่ามากที่สุด" "แคมเปญไหนดีที่สุดและแย่ที่สุด" "ทำไมต้นทุนต่อผลลัพธ์เมื่อวานสูงขึ้น" "เดือนนี้ใช้งบไปเท่าไหร่แล้ว" หรือ "กฎของฉันทำอะไรไปบ้าง" คำถามนี้ไม่ถูกนับในโควตาคำขอ AI ประจำเดือน',
  },
} as const;

const ACCOUNTS_ANSWERED = 3;
const LISTED = 5;
/** The most pauses one wasted-spend answer suggests. */
const SUGGESTED_PAUSES = 3;
/** How much smaller a suggested budget is for what costs more than twice the account's CPA. */
const COSTLY_BUDGET_CUT_PERCENT = 20;

interface Window {
  from: string;
  to: string;
  days: number;
}

function windowOf(account: ReadAccount, message: string): Window | null {
  if (!account.lastDay) return null;
  const asked = daysOf(message);
  if (asked.label === 'month') {
    const from = `${account.lastDay.slice(0, 8)}01`;
    return {
      from,
      to: account.lastDay,
      days: Math.round((Date.parse(account.lastDay) - Date.parse(from)) / 86_400_000) + 1,
    };
  }
  return { from: addDays(account.lastDay, -(asked.days - 1)), to: account.lastDay, days: asked.days };
}

const sumSpend = (rows: EntityFigures[]) => rows.reduce((total, e) => total + e.totals.spend, 0);

/**
 * The built-in analyst (issue 29, ADR 0141): the common questions answered by computing over the workspace's own
 * figures, each figure cited with its entity and a link to its page, in the question's language. A question it does
 * not recognise gets what it can answer instead, and `answered: false`.
 */
export class Analyst {
  constructor(
    private readonly reads: EntityReads,
    private readonly tools: () => AssistantTools,
  ) {}

  async answer(
    scope: TenantScope,
    message: string,
    language: Language,
    previous: string | null,
  ): Promise<AnalystAnswer> {
    // A follow-up ("and over 30 days?") asks the previous question again, over what it names now.
    const intent = intentOf(message) ?? (previous ? intentOf(previous) : null);
    if (!intent) {
      const entry = findAnswer(message);
      if (entry) return { text: entry[language], citations: [], answered: true, intent: null, candidates: [] };
      return { text: W[language].unknown, citations: [], answered: false, intent: null, candidates: [] };
    }
    const asked = intentOf(message) ? message : `${previous ?? ''} ${message}`;
    const accounts = await this.reads.accounts(scope);
    if (accounts.length === 0)
      return { text: W[language].noAccounts, citations: [], answered: true, intent, candidates: [] };
    const citations: Citation[] = [];
    const candidates: ChangeCandidate[] = [];
    const blocks: string[] = [];
    if (intent === 'rules') {
      blocks.push(await this.rules(scope, accounts, asked, language, citations));
    } else {
      for (const account of accounts.slice(0, ACCOUNTS_ANSWERED)) {
        const window = windowOf(account, asked);
        if (!window) {
          blocks.push(W[language].noData(safeName(account.name)));
          continue;
        }
        blocks.push(await this.forAccount(scope, intent, account, window, asked, language, { citations, candidates }));
      }
    }
    return { text: blocks.join('\n\n'), citations, answered: true, intent, candidates };
  }

  private async forAccount(
    scope: TenantScope,
    intent: Exclude<Intent, 'rules'>,
    account: ReadAccount,
    window: Window,
    message: string,
    language: Language,
    { citations, candidates }: { citations: Citation[]; candidates: ChangeCandidate[] },
  ): Promise<string> {
    const w = W[language];
    const money = (value: number) => formatMoney(value, account.currency, language);
    const num = (value: number, digits = 2) => formatNumber(value, language, digits);
    const range = w.period(formatDayRange(window.from, window.to, language), window.days);
    const name = safeName(account.name);
    const level = levelOf(message);
    const rows = await this.reads.entities(scope, { level, adAccountId: account.id, from: window.from, to: window.to });
    const cite = (entity: EntityFigures, figure: string) => {
      citations.push({ entityId: entity.id, name: entity.name.slice(0, 200), figure, href: entityHref(entity.id) });
      return figure;
    };
    const spent = rows.filter((e) => e.totals.spend > 0);
    const total = sumSpend(spent);

    if (intent === 'wasted') {
      const wasted = spent.filter((e) => e.totals.conversions === 0).sort((a, b) => b.totals.spend - a.totals.spend);
      if (wasted.length > 0) {
        const sum = sumSpend(wasted);
        // The biggest spenders with nothing to show that still run: pausing them is the change to suggest.
        for (const e of wasted.filter((row) => row.status === 'ACTIVE').slice(0, SUGGESTED_PAUSES))
          candidates.push({
            change: { entityId: e.id, type: 'pause' },
            name: e.name,
            reason: w.pauseWasted(money(e.totals.spend), range),
          });
        return [
          w.wastedHead(name, range),
          ...wasted
            .slice(0, LISTED)
            .map((e, i) => `${i + 1}. ${w.wastedLine(link(e), cite(e, money(e.totals.spend)))}`),
          w.wastedTotal(money(sum), `${num((sum / total) * 100, 1)}%`, money(total)),
          w.wastedNext,
        ].join('\n');
      }
      const results = spent.reduce((n, e) => n + e.totals.conversions, 0);
      const accountCpa = results > 0 ? total / results : null;
      const costly =
        accountCpa === null
          ? []
          : spent
              .filter((e) => e.cpa !== null && e.cpa > 2 * accountCpa)
              .sort((a, b) => b.totals.spend - a.totals.spend);
      if (costly.length === 0 || accountCpa === null)
        return w.noneWasted(name, range, accountCpa === null ? '–' : money(accountCpa));
      // Those cost too much per result but bring some: a smaller budget, not a pause, is the change to suggest.
      for (const e of costly.filter((row) => row.status === 'ACTIVE').slice(0, SUGGESTED_PAUSES)) {
        const reason = w.cutCostly(money(e.cpa!), money(accountCpa), range);
        const cut = (row: EntityFigures) => ({
          change: { entityId: row.id, type: 'decrease_budget' as const, percent: COSTLY_BUDGET_CUT_PERCENT },
          name: row.name,
          reason,
        });
        // A campaign whose ad sets hold the budgets: its biggest running ad set's budget instead.
        const children =
          e.level === 'campaign'
            ? await this.reads.entities(scope, { level: 'adset', parentId: e.id, from: window.from, to: window.to })
            : [];
        const biggest = children
          .filter((row) => row.status === 'ACTIVE')
          .sort((a, b) => b.totals.spend - a.totals.spend)[0];
        candidates.push({ ...cut(e), instead: biggest ? cut(biggest) : undefined });
      }
      return [
        w.costlyHead(name, range, money(accountCpa)),
        ...costly
          .slice(0, LISTED)
          .map((e, i) => `${i + 1}. ${w.costlyLine(link(e), cite(e, money(e.totals.spend)), money(e.cpa!))}`),
      ].join('\n');
    }

    if (intent === 'best' || intent === 'worst') {
      const withResults = spent.filter((e) => e.totals.conversions > 0);
      if (withResults.length === 0)
        return [intent === 'best' ? w.bestHead(name, range) : w.worstHead(name, range), w.noResults].join('\n');
      const byCpa = [...withResults].sort((a, b) => (intent === 'best' ? a.cpa! - b.cpa! : b.cpa! - a.cpa!));
      const withValue = spent.filter((e) => e.roas !== null && e.totals.conversionValue > 0);
      const byRoas = [...(intent === 'best' ? withValue : spent.filter((e) => e.roas !== null))].sort((a, b) =>
        intent === 'best' ? b.roas! - a.roas! : a.roas! - b.roas!,
      );
      const lines = [intent === 'best' ? w.bestHead(name, range) : w.worstHead(name, range), w.byCpa];
      lines.push(
        ...byCpa
          .slice(0, 3)
          .map(
            (e, i) =>
              `${i + 1}. ${w.perf(link(e), cite(e, `CPA ${money(e.cpa!)}`), money(e.totals.spend), num(e.totals.conversions, 0))}`,
          ),
      );
      if (byRoas.length > 0) {
        lines.push(w.byRoas);
        lines.push(
          ...byRoas
            .slice(0, 3)
            .map(
              (e, i) =>
                `${i + 1}. ${w.perf(link(e), cite(e, `ROAS ${num(e.roas!)}`), money(e.totals.spend), num(e.totals.conversions, 0))}`,
            ),
        );
      }
      return lines.join('\n');
    }

    if (intent === 'changes') {
      const before = previousPeriod(window.from, window.to);
      const earlier = await this.reads.entities(scope, { level, adAccountId: account.id, ...before });
      const rowsCompared = compareRows(rows, new Map(earlier.map((e) => [e.id, e])));
      const beforeRange = formatDayRange(before.from, before.to, language);
      if (rowsCompared.length === 0) return w.noChanges(name, range);
      const lines = [w.changesHead(name, range, beforeRange)];
      const causes = new Set<string>();
      const byId = new Map(rows.map((e) => [e.id, e]));
      for (const row of rowsCompared.slice(0, 3)) {
        const e = byId.get(row.id)!;
        const metric = row.moved ?? 'cpa';
        const fmt = (v: number | null) =>
          v === null ? '–' : metric === 'cpa' || metric === 'cpm' ? money(v) : metric === 'ctr' ? `${num(v)}%` : num(v);
        const from = row.before ? fmt(row.before[metric]) : '–';
        const pct = row.changes[metric];
        const figure = `${metric.toUpperCase()} ${from} → ${fmt(row[metric])}`;
        cite(e, figure);
        lines.push(
          `- ${w.change(link(e), metric.toUpperCase(), from, fmt(row[metric]), pct === null ? '–' : `${pct > 0 ? '+' : ''}${num(pct, 1)}%`)}`,
        );
        if (row.moved) causes.add(w.cause[row.moved]);
      }
      if (causes.size > 0) lines.push(w.likely, ...[...causes].map((c) => `- ${c}`));
      return lines.join('\n');
    }

    if (intent === 'pacing') {
      const from = `${window.to.slice(0, 8)}01`;
      const month = await this.reads.entities(scope, {
        level: 'campaign',
        adAccountId: account.id,
        from,
        to: window.to,
      });
      const spentMonth = sumSpend(month);
      const elapsed = Math.round((Date.parse(window.to) - Date.parse(from)) / 86_400_000) + 1;
      const [y, m] = window.to.split('-').map(Number);
      const daysInMonth = new Date(Date.UTC(y!, m!, 0)).getUTCDate();
      const daily = spentMonth / elapsed;
      const top = month.filter((e) => e.totals.spend > 0).sort((a, b) => b.totals.spend - a.totals.spend);
      return [
        w.pacingHead(name, formatDayRange(from, window.to, language)),
        w.pacingLine(money(spentMonth), money(daily), money(daily * daysInMonth)),
        ...(top.length > 0
          ? [w.pacingTop, ...top.slice(0, 3).map((e, i) => `${i + 1}. ${link(e)}: ${cite(e, money(e.totals.spend))}`)]
          : []),
      ].join('\n');
    }

    // overview
    const sum = rows.reduce(
      (t, e) => ({
        spend: t.spend + e.totals.spend,
        results: t.results + e.totals.conversions,
        value: t.value + e.totals.conversionValue,
        clicks: t.clicks + e.totals.clicks,
        impressions: t.impressions + e.totals.impressions,
      }),
      { spend: 0, results: 0, value: 0, clicks: 0, impressions: 0 },
    );
    const figure = w.overviewLine(
      money(sum.spend),
      num(sum.results, 0),
      sum.results > 0 ? money(sum.spend / sum.results) : '–',
      sum.spend > 0 ? num(sum.value / sum.spend) : '–',
      sum.impressions > 0 ? `${num((sum.clicks / sum.impressions) * 100)}%` : '–',
    );
    citations.push({ name: account.name.slice(0, 200), figure });
    const top = spent.sort((a, b) => b.totals.spend - a.totals.spend).slice(0, 3);
    return [
      w.overviewHead(name, range),
      figure,
      ...top.map((e, i) => `${i + 1}. ${link(e)}: ${cite(e, money(e.totals.spend))}`),
    ].join('\n');
  }

  /** What the rules did: each rule's applied changes and their totals, read with the registry's own tools. */
  private async rules(
    scope: TenantScope,
    accounts: ReadAccount[],
    message: string,
    language: Language,
    citations: Citation[],
  ): Promise<string> {
    const w = W[language];
    const tools = this.tools();
    const listed = await tools.call(scope, 'list_rules', { limit: 20 });
    const rules = (listed.value?.rules ?? []) as { id: string; name: string }[];
    if (rules.length === 0) return w.noRules;
    const last = accounts
      .map((a) => a.lastDay)
      .filter((d): d is string => d !== null)
      .sort()
      .at(-1);
    const to = last ?? new Date().toISOString().slice(0, 10);
    const days = Math.max(daysOf(message).days, 30);
    const from = addDays(to, -(days - 1));
    const lines = [w.rulesHead(w.period(formatDayRange(from, to, language), days))];
    let any = false;
    for (const rule of rules.slice(0, 10)) {
      const impact = await tools.call(scope, 'rule_impact', { ruleId: rule.id, from, to });
      const totals = impact.value?.totals as
        | {
            actionsApplied: number;
            currency: string | null;
            budgetRaised: number | null;
            budgetLowered: number | null;
            spendAvoided: number | null;
            compared: number;
            before: { cpa: number | null };
            after: { cpa: number | null };
          }
        | undefined;
      if (!totals || totals.actionsApplied === 0) continue;
      any = true;
      const currency = totals.currency ?? accounts[0]!.currency;
      const money = (v: number) => formatMoney(v, currency, language);
      const parts = [w.ruleLine(safeName(rule.name), totals.actionsApplied)];
      if (totals.budgetRaised) parts.push(w.raised(money(totals.budgetRaised)));
      if (totals.budgetLowered) parts.push(w.lowered(money(totals.budgetLowered)));
      if (totals.spendAvoided) parts.push(w.avoided(money(totals.spendAvoided)));
      if (totals.compared > 0 && totals.before.cpa !== null && totals.after.cpa !== null)
        parts.push(w.cpaMove(money(totals.before.cpa), money(totals.after.cpa)));
      const figure = parts.join(', ');
      citations.push({ name: rule.name.slice(0, 200), figure, href: `/rules/${rule.id}` });
      lines.push(`- ${figure}`);
    }
    if (!any) lines.push(w.noActions);
    return lines.join('\n');
  }
}
