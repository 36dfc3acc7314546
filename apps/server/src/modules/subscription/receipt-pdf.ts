import type { ReceiptLanguage } from '@adpilot/contracts';
import PDFDocument from 'pdfkit';
import { SARABUN, type PdfFonts } from '../../lib/pdf-fonts.ts';
import type { ReceiptDocument, ReceiptParty } from './receipt-document.ts';

const WORDS = {
  en: {
    receipt: 'Receipt',
    taxInvoice: 'Receipt / Tax invoice',
    seller: 'Seller',
    buyer: 'Buyer',
    taxId: 'Tax ID',
    number: 'Number',
    paidOn: 'Paid on',
    description: 'Description',
    amount: 'Amount',
    net: 'Amount before VAT',
    vat: (rate: string) => `VAT ${rate}`,
    total: 'Total paid',
    vatIncluded: 'Prices include VAT.',
    notRegistered: 'The seller is not registered for VAT: no VAT is charged.',
  },
  th: {
    receipt: 'ใบเสร็จรับเงิน',
    taxInvoice: 'ใบเสร็จรับเงิน / ใบกำกับภาษี',
    seller: 'ผู้ขาย',
    buyer: 'ผู้ซื้อ',
    taxId: 'เลขประจำตัวผู้เสียภาษี',
    number: 'เลขที่',
    paidOn: 'วันที่ชำระเงิน',
    description: 'รายการ',
    amount: 'จำนวนเงิน',
    net: 'มูลค่าก่อนภาษีมูลค่าเพิ่ม',
    vat: (rate: string) => `ภาษีมูลค่าเพิ่ม ${rate}`,
    total: 'รวมทั้งสิ้น',
    vatIncluded: 'ราคารวมภาษีมูลค่าเพิ่มแล้ว',
    notRegistered: 'ผู้ขายไม่ได้จดทะเบียนภาษีมูลค่าเพิ่ม จึงไม่มีภาษีมูลค่าเพิ่ม',
  },
} as const satisfies Record<ReceiptLanguage, unknown>;

/** Thai dates in the Buddhist era, as Thai receipts are dated; the seller's day is Bangkok's (VAT is Thai). */
function formats(language: ReceiptLanguage) {
  const locale = language === 'th' ? 'th-TH' : 'en-US';
  const dates = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'Asia/Bangkok' });
  const percents = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 });
  return {
    // The font has no thin or narrow space; en-US puts them in some currencies' formats.
    money: (amount: number, currency: string) =>
      new Intl.NumberFormat(locale, { style: 'currency', currency })
        .format(amount)
        .replace(/[\u00a0\u2009\u202f]/g, ' '),
    date: (iso: string) => dates.format(new Date(iso)),
    percent: (rate: number) => percents.format(rate / 100),
  };
}

const LEFT = 50;
const RIGHT = 545;
const WIDTH = RIGHT - LEFT;
const INK = '#1f2937';
const MUTED = '#6b7280';

/** The receipt as one A4 page in the given fonts (tests set it in a Latin-only font to see Thai go missing). */
export async function writeReceiptPdf(doc: ReceiptDocument, fonts: PdfFonts): Promise<Buffer> {
  const words = WORDS[doc.language];
  const format = formats(doc.language);
  const { receipt } = doc;
  const title = receipt.vat ? words.taxInvoice : words.receipt;
  const pdf = new PDFDocument({
    size: 'A4',
    margin: LEFT,
    lang: doc.language === 'th' ? 'th-TH' : 'en-US',
    info: { Title: `${title} ${receipt.number ?? receipt.id}`, Author: doc.seller.name, Creator: 'AdPilot' },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  pdf.registerFont('regular', fonts.regular);
  pdf.registerFont('bold', fonts.bold);
  const text = (
    value: string,
    x: number,
    y: number,
    options: { size?: number; bold?: boolean; muted?: boolean; width?: number; align?: 'left' | 'right' } = {},
  ) =>
    pdf
      .font(options.bold ? 'bold' : 'regular')
      .fontSize(options.size ?? 10)
      .fillColor(options.muted ? MUTED : INK)
      .text(value, x, y, { lineBreak: false, width: options.width, align: options.align ?? 'left' });

  text(title, LEFT, 50, { size: 20, bold: true });
  text(`${words.number} ${receipt.number ?? receipt.id}`, LEFT, 84, { size: 10 });
  text(`${words.paidOn} ${format.date(receipt.paidAt)}`, LEFT, 100, { size: 10 });

  const party = (heading: string, who: ReceiptParty, x: number) => {
    let y = 136;
    text(heading, x, y, { size: 9, muted: true });
    y += 16;
    text(who.name, x, y, { size: 11, bold: true, width: WIDTH / 2 - 16 });
    y += 17;
    for (const part of who.address) {
      text(part, x, y, { size: 10, width: WIDTH / 2 - 16 });
      y += 15;
    }
    if (who.taxId) text(`${words.taxId} ${who.taxId}`, x, y, { size: 10, width: WIDTH / 2 - 16 });
  };
  party(words.seller, doc.seller, LEFT);
  party(words.buyer, doc.buyer, LEFT + WIDTH / 2);

  let y = 270;
  text(words.description, LEFT, y, { size: 9, muted: true });
  text(words.amount, LEFT, y, { size: 9, muted: true, width: WIDTH, align: 'right' });
  y += 16;
  pdf.moveTo(LEFT, y).lineTo(RIGHT, y).lineWidth(0.5).stroke('#d1d5db');
  y += 8;
  for (const item of doc.lines) {
    text(item.description, LEFT, y, { size: 10, width: WIDTH - 120 });
    text(format.money(item.amount, receipt.currency), LEFT, y, { size: 10, width: WIDTH, align: 'right' });
    y += 18;
  }
  y += 10;
  const totals: [string, number, boolean][] = receipt.vat
    ? [
        [words.net, receipt.vat.net, false],
        [words.vat(format.percent(receipt.vat.rate)), receipt.vat.amount, false],
        [words.total, receipt.total, true],
      ]
    : [[words.total, receipt.total, true]];
  for (const [label, amount, bold] of totals) {
    // Labels stay regular and small: larger or bold, OCR loses the Thai marks stacked over a vowel.
    text(label, LEFT + WIDTH / 2, y + (bold ? 1 : 0), { size: bold ? 11 : 10 });
    text(format.money(amount, receipt.currency), LEFT, y, { size: bold ? 12 : 10, bold, width: WIDTH, align: 'right' });
    y += bold ? 22 : 18;
  }
  text(receipt.vat ? words.vatIncluded : words.notRegistered, LEFT, y + 12, { size: 9, muted: true });
  pdf.end();
  return done;
}

export function renderReceiptPdf(doc: ReceiptDocument): Promise<Buffer> {
  return writeReceiptPdf(doc, SARABUN);
}
