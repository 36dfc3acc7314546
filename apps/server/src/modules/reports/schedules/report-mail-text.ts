import { neutralName, type ReportLanguage } from '@adpilot/contracts';
import type { ReportDocument, ReportFigures } from '../report-document.ts';

/**
 * A scheduled report's e-mail: its subject and plain-text summary in the report's language (ADR 0080). The PDF
 * attached carries the whole report; the body gives each account's headline figures against the period before,
 * its top campaigns, what the rules did and what waits for a decision. Numbers, money and dates through `Intl`.
 */

/** Campaigns named per account in the body (the PDF lists them all). */
const TOP_CAMPAIGNS = 3;
/** An account's or campaign's name in the body, at most this many characters. */
const NAME_IN_BODY_MAX = 80;

const LOCALES: Record<ReportLanguage, string> = { en: 'en-GB', th: 'th-TH' };

interface Words {
  subject: (frequency: ReportDocument['frequency'], workspace: string, period: string) => string;
  heading: (frequency: ReportDocument['frequency'], workspace: string) => string;
  period: (current: string, previous: string) => string;
  noAccounts: string;
  spend: string;
  results: string;
  cpa: string;
  roas: string;
  change: (percent: string) => string;
  newThisPeriod: string;
  topCampaigns: string;
  rules: string;
  actions: (applied: number, paused: number, budgets: number) => string;
  noActions: string;
  avoided: (amount: string) => string;
  raised: (amount: string) => string;
  lowered: (amount: string) => string;
  proposals: (count: number) => string;
  attached: string;
  footer: (workspace: string) => string;
}

const WORDS: Record<ReportLanguage, Words> = {
  en: {
    subject: (frequency, workspace, period) =>
      `AdPilot ${frequency === 'weekly' ? 'weekly' : 'monthly'} ad report, ${period}: “${workspace}”`,
    heading: (frequency, workspace) => `${frequency === 'weekly' ? 'Weekly' : 'Monthly'} ad report for “${workspace}”`,
    period: (current, previous) => `Period: ${current} (compared with ${previous})`,
    noAccounts: 'No ad account is connected for this report yet.',
    spend: 'Spend',
    results: 'Results',
    cpa: 'Cost per result',
    roas: 'ROAS',
    change: (percent) => `${percent} on the period before`,
    newThisPeriod: 'nothing the period before',
    topCampaigns: 'Top campaigns by spend',
    rules: 'What your rules did',
    actions: (applied, paused, budgets) =>
      `${applied} change(s) applied: ${paused} pause(s), ${budgets} budget change(s)`,
    noActions: 'No rule changed anything in this period.',
    avoided: (amount) => `Spend avoided by pauses (estimate): ${amount}`,
    raised: (amount) => `Budgets raised by ${amount}`,
    lowered: (amount) => `Budgets lowered by ${amount}`,
    proposals: (count) =>
      count === 1
        ? 'One proposed change waits for approval in AdPilot.'
        : `${count} proposed changes wait for approval in AdPilot.`,
    attached: 'The full report is attached as a PDF.',
    footer: (workspace) => `This report was sent by the workspace “${workspace}” on AdPilot.`,
  },
  th: {
    subject: (frequency, workspace, period) =>
      `AdPilot รายงานโฆษณา${frequency === 'weekly' ? 'ประจำสัปดาห์' : 'ประจำเดือน'} ${period}: “${workspace}”`,
    heading: (frequency, workspace) =>
      `รายงานโฆษณา${frequency === 'weekly' ? 'ประจำสัปดาห์' : 'ประจำเดือน'}ของ “${workspace}”`,
    period: (current, previous) => `ช่วงเวลา: ${current} (เทียบกับ ${previous})`,
    noAccounts: 'ยังไม่มีบัญชีโฆษณาที่เชื่อมต่อสำหรับรายงานนี้',
    spend: 'ค่าใช้จ่าย',
    results: 'ผลลัพธ์',
    cpa: 'ต้นทุนต่อผลลัพธ์',
    roas: 'ROAS',
    change: (percent) => `${percent} จากช่วงก่อนหน้า`,
    newThisPeriod: 'ช่วงก่อนหน้าไม่มีข้อมูล',
    topCampaigns: 'แคมเปญที่ใช้จ่ายสูงสุด',
    rules: 'สิ่งที่กฎอัตโนมัติทำในช่วงนี้',
    actions: (applied, paused, budgets) =>
      `ดำเนินการ ${applied} ครั้ง: หยุดชั่วคราว ${paused} ครั้ง ปรับงบประมาณ ${budgets} ครั้ง`,
    noActions: 'ไม่มีกฎใดเปลี่ยนแปลงสิ่งใดในช่วงนี้',
    avoided: (amount) => `ค่าใช้จ่ายที่ประหยัดได้จากการหยุดชั่วคราว (ประมาณการ): ${amount}`,
    raised: (amount) => `เพิ่มงบประมาณรวม ${amount}`,
    lowered: (amount) => `ลดงบประมาณรวม ${amount}`,
    proposals: (count) => `มีข้อเสนอการเปลี่ยนแปลง ${count} รายการรอการอนุมัติใน AdPilot`,
    attached: 'รายงานฉบับเต็มแนบมากับอีเมลนี้เป็นไฟล์ PDF',
    footer: (workspace) => `รายงานนี้ส่งโดยเวิร์กสเปซ “${workspace}” บน AdPilot`,
  },
};

function formatters(language: ReportLanguage) {
  const locale = LOCALES[language];
  const dateFormat = new Intl.DateTimeFormat(locale, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
  const date = (value: string) => dateFormat.format(new Date(`${value}T00:00:00Z`));
  const range = (from: string, to: string) => `${date(from)} – ${date(to)}`;
  const money = (amount: number, currency: string) =>
    new Intl.NumberFormat(locale, { style: 'currency', currency, maximumFractionDigits: 2 }).format(amount);
  const number = (value: number) => new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(value);
  const percent = (value: number) =>
    new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0, signDisplay: 'exceptZero' }).format(
      value,
    );
  return { date, range, money, number, percent };
}

type Format = ReturnType<typeof formatters>;

/** The change from `before` to `now` in words, or null where there is nothing to compare (both absent). */
function change(now: number | null, before: number | null, words: Words, format: Format): string {
  if (now === null || before === null) return '';
  if (before === 0) return now === 0 ? '' : ` (${words.newThisPeriod})`;
  return ` (${words.change(format.percent((now - before) / before))})`;
}

function figureLines(
  current: ReportFigures,
  previous: ReportFigures,
  currency: string,
  words: Words,
  format: Format,
  indent: string,
): string[] {
  const money = (value: number | null) => (value === null ? '—' : format.money(value, currency));
  return [
    `${indent}${words.spend}: ${money(current.spend)}${change(current.spend, previous.spend, words, format)}`,
    `${indent}${words.results}: ${format.number(current.results)}${change(current.results, previous.results, words, format)}`,
    `${indent}${words.cpa}: ${money(current.cpa)}${change(current.cpa, previous.cpa, words, format)}`,
    `${indent}${words.roas}: ${current.roas === null ? '—' : format.number(current.roas)}${change(current.roas, previous.roas, words, format)}`,
  ];
}

/** The mail of a report: the subject and the plain-text body, in the document's language. */
export function reportMailText(doc: ReportDocument): { subject: string; text: string } {
  const words = WORDS[doc.language];
  // Every name here was chosen by someone (the workspace's, the ad accounts' and campaigns' on Meta) and reaches a
  // reader outside: neutralised, no link in it, length-limited, and never the start of the subject (ADR 0092).
  const workspace = neutralName(doc.workspaceName);
  const named = (value: string) => neutralName(value, NAME_IN_BODY_MAX);
  const format = formatters(doc.language);
  const period = format.range(doc.period.start, doc.period.end);
  const lines: string[] = [
    words.heading(doc.frequency, workspace),
    words.period(period, format.range(doc.previous.start, doc.previous.end)),
    '',
  ];
  if (doc.accounts.length === 0) lines.push(words.noAccounts, '');
  for (const account of doc.accounts) {
    lines.push(`${named(account.name)} (${account.currency})`);
    lines.push(...figureLines(account.totals.current, account.totals.previous, account.currency, words, format, '  '));
    const top = account.campaigns.filter((row) => row.current.spend > 0).slice(0, TOP_CAMPAIGNS);
    if (top.length) {
      lines.push(`  ${words.topCampaigns}:`);
      for (const row of top) {
        const cpa = row.current.cpa === null ? '' : `, ${words.cpa} ${format.money(row.current.cpa, account.currency)}`;
        lines.push(`  - ${named(row.name)}: ${format.money(row.current.spend, account.currency)}${cpa}`);
      }
    }
    lines.push('');
  }
  lines.push(`${words.rules}:`);
  const { rules } = doc;
  lines.push(
    rules.actionsApplied
      ? `  ${words.actions(rules.actionsApplied, rules.paused, rules.budgetChanges)}`
      : `  ${words.noActions}`,
  );
  for (const money of rules.perCurrency) {
    if (money.spendAvoided > 0) lines.push(`  ${words.avoided(format.money(money.spendAvoided, money.currency))}`);
    if (money.budgetRaised > 0) lines.push(`  ${words.raised(format.money(money.budgetRaised, money.currency))}`);
    if (money.budgetLowered > 0) lines.push(`  ${words.lowered(format.money(money.budgetLowered, money.currency))}`);
  }
  if (rules.proposalsWaiting > 0) lines.push(`  ${words.proposals(rules.proposalsWaiting)}`);
  lines.push('', words.attached, '', words.footer(workspace));
  return { subject: words.subject(doc.frequency, workspace, period), text: lines.join('\n') };
}

/** The attachment's (and the preview's) file name: the day the period ends. */
export const reportFileName = (doc: Pick<ReportDocument, 'period'>) => `adpilot-report-${doc.period.end}.pdf`;
