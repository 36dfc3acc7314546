import { describe, expect, it } from 'vitest';
import type { ReportDocument } from '../report-document.ts';
import { reportFileName, reportMailText } from './report-mail-text.ts';

const figures = (spend: number, results: number) => ({
  spend,
  results,
  cpa: results ? spend / results : null,
  roas: spend ? 2 : null,
});

function buildDocument(language: 'en' | 'th'): ReportDocument {
  return {
    language,
    workspaceName: 'Shop & Co',
    frequency: 'weekly',
    period: { start: '2026-11-16', end: '2026-11-22' },
    previous: { start: '2026-11-09', end: '2026-11-15' },
    accounts: [
      {
        name: 'Shop TH',
        currency: 'THB',
        timeZone: 'Asia/Bangkok',
        totals: { name: 'Shop TH', current: figures(1200, 12), previous: figures(1000, 10) },
        campaigns: [
          { name: 'Big sale', current: figures(1000, 10), previous: figures(800, 8) },
          { name: 'Retarget', current: figures(200, 2), previous: figures(200, 2) },
          { name: 'Idle', current: figures(0, 0), previous: figures(0, 0) },
        ],
      },
    ],
    chart: [{ currency: 'THB', days: [] }],
    rules: {
      actionsApplied: 3,
      paused: 2,
      budgetChanges: 1,
      proposalsWaiting: 2,
      perCurrency: [{ currency: 'THB', spendAvoided: 150, budgetRaised: 100, budgetLowered: 0 }],
    },
    generatedAt: '2026-11-23T01:00:00.000Z',
  };
}

/** Intl separates a currency from its amount with a no-break space: compared as a plain one. */
function mailOf(doc: ReportDocument) {
  const { subject, text } = reportMailText(doc);
  return { subject: subject.replace(/\u00a0/g, ' '), text: text.replace(/\u00a0/g, ' ') };
}

describe('a scheduled report’s mail', () => {
  it('sums up the period in English: figures against the period before, top campaigns, the rules', () => {
    const { subject, text } = mailOf(buildDocument('en'));
    expect(subject).toBe('AdPilot weekly ad report, 16 Nov 2026 – 22 Nov 2026: “Shop & Co”');
    expect(text).toContain('Period: 16 Nov 2026 – 22 Nov 2026 (compared with 9 Nov 2026 – 15 Nov 2026)');
    expect(text).toContain('Spend: THB 1,200.00 (+20% on the period before)');
    expect(text).toContain('Results: 12 (+20% on the period before)');
    expect(text).toContain('- Big sale: THB 1,000.00');
    expect(text).not.toContain('Idle');
    expect(text).toContain('3 change(s) applied: 2 pause(s), 1 budget change(s)');
    expect(text).toContain('Spend avoided by pauses (estimate): THB 150.00');
    expect(text).toContain('2 proposed changes wait for approval');
    expect(text).toContain('attached as a PDF');
    expect(text).toContain('“Shop & Co”');
  });

  it('words it in Thai with Thai dates and numbers', () => {
    const { subject, text } = mailOf(buildDocument('th'));
    expect(subject).toMatch(/^AdPilot รายงานโฆษณาประจำสัปดาห์ 16 พ\.ย\. 2569 – 22 พ\.ย\. 2569: “Shop & Co”$/);
    expect(text).toContain('ค่าใช้จ่าย: ฿1,200.00 (+20% จากช่วงก่อนหน้า)');
    expect(text).toContain('ดำเนินการ 3 ครั้ง: หยุดชั่วคราว 2 ครั้ง ปรับงบประมาณ 1 ครั้ง');
    expect(text).toContain('มีข้อเสนอการเปลี่ยนแปลง 2 รายการรอการอนุมัติใน AdPilot');
    expect(text).toContain('รายงานฉบับเต็มแนบมากับอีเมลนี้เป็นไฟล์ PDF');
  });

  it('neutralises the names it carries: no link in them, length-limited, never the start of the subject', () => {
    const doc = buildDocument('en');
    doc.workspaceName = 'URGENT: your ad account is suspended, verify at https://evil.example/login';
    doc.accounts[0]!.campaigns[0]!.name = 'Claim your refund at www.evil.example/refund';
    const { subject, text } = mailOf(doc);
    expect(subject.startsWith('AdPilot')).toBe(true);
    for (const words of [subject, text]) expect(words).not.toMatch(/https?:|evil\.example|www\./);
    expect(subject).toContain('“URGENT: your ad account is suspended, v…”');
    expect(text).toContain('evil[.]example');
  });

  it('says so when no account is covered, and names the file by the period’s last day', () => {
    const doc = { ...buildDocument('en'), accounts: [], rules: { ...buildDocument('en').rules, actionsApplied: 0 } };
    const { text } = mailOf(doc);
    expect(text).toContain('No ad account is connected for this report yet.');
    expect(text).toContain('No rule changed anything in this period.');
    expect(reportFileName(doc)).toBe('adpilot-report-2026-11-22.pdf');
  });
});
