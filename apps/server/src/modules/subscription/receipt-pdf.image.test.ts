import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPdfReader, type PdfReader } from '../../test/pdf-image.ts';
import { buildInvoice, buildSubscription } from '../../test/stripe-fake.ts';
import { receiptDocumentOf } from './receipt-document.ts';
import { renderReceiptPdf, writeReceiptPdf } from './receipt-pdf.ts';

/** The receipt as a reader sees it: page 1 rasterised and read back by OCR (test/pdf-image.ts). */
let reader: PdfReader;

beforeAll(async () => {
  reader = await openPdfReader('receipt-pdf-');
});
afterAll(async () => {
  await reader?.close();
});

const SELLER = {
  name: 'บริษัท แอดไพลอต จำกัด',
  address: 'เลขที่ 99 ถนนสีลม; กรุงเทพมหานคร 10500',
  taxId: '0105561234567',
  vatRegistered: true,
  vatRate: 7,
};

/** A Pro month paid in baht (฿990, VAT included) by a Thai company that gave its tax id at Checkout. */
function thaiInvoice(): Stripe.Invoice {
  const subscription = buildSubscription({ customer: 'cus_thai', workspaceId: 'w', planId: 'pro', unitAmount: 99000 });
  const invoice = buildInvoice({
    customer: 'cus_thai',
    subscription,
    currency: 'thb',
    amount: 99000,
    paidAt: new Date('2026-11-30T10:00:00Z'),
    customerName: 'บริษัท ร้านกาแฟนอร์ทวินด์ จำกัด',
    customerAddress: {
      line1: '12 ถนนสุขุมวิท',
      line2: null,
      city: 'กรุงเทพมหานคร',
      state: null,
      postal_code: '10110',
      country: 'TH',
    },
    customerTaxIds: [{ type: 'th_vat', value: '0105559876543' }],
    description: 'AdPilot Pro',
  });
  invoice.number = 'ADP-0042';
  return invoice as unknown as Stripe.Invoice;
}

/** Receipt and tax invoice, seller, buyer, tax id, VAT, total: Thai with vowels above and below and tone marks. */
const THAI_WORDS = [
  'ใบเสร็จรับเงิน/ใบกำกับภาษี',
  'ผู้ขาย',
  'ผู้ซื้อ',
  'ร้านกาแฟนอร์ทวินด์',
  'เลขประจำตัวผู้เสียภาษี',
  'ภาษีมูลค่าเพิ่ม',
  // "Total" up to its last syllable, whose tone mark over SARA I Tesseract drops however it is drawn (the image shows
  // it in place); ทั้ง already stacks MAI THO over MAI HAN-AKAT.
  'รวมทั้ง',
];

describe('the receipt PDF as an image', () => {
  it('reads back a Thai receipt: both parties with tax ids, the VAT at 7 % and the total', async () => {
    const doc = receiptDocumentOf(thaiInvoice(), SELLER, 'th');
    const text = await reader.readTop(await renderReceiptPdf(doc), 'thai', { height: 900 });
    for (const word of THAI_WORDS) expect(text).toContain(word);
    // The net and the VAT add up to the total, each to the satang (฿925.23 + ฿64.77 = ฿990.00).
    expect(text).toContain('ภาษีมูลค่าเพิ่ม7');
    for (const figure of ['0105561234567', '0105559876543', 'ADP-0042', '925.23', '64.77', '990.00'])
      expect(text).toContain(figure);
    // Dated in the Buddhist era, as Thai receipts are: 30 November 2026 is 2569.
    expect(text).toContain('2569');
  });

  it('reads back none of the Thai in a Latin-only font', async () => {
    const doc = receiptDocumentOf(thaiInvoice(), SELLER, 'th');
    const pdf = await writeReceiptPdf(doc, { regular: 'Helvetica', bold: 'Helvetica-Bold' });
    const text = await reader.readTop(pdf, 'latin', { height: 900 });
    expect(text).toContain('0105561234567');
    for (const word of THAI_WORDS) expect(text).not.toContain(word);
  });

  it('without VAT registration says so in English, and shows no VAT line', async () => {
    const doc = receiptDocumentOf(thaiInvoice(), { ...SELLER, vatRegistered: false }, 'en');
    const text = await reader.readTop(await renderReceiptPdf(doc), 'english', { languages: 'eng', height: 900 });
    expect(text).toContain('Receipt');
    expect(text).not.toContain('Taxinvoice');
    expect(text).not.toContain('VAT7%');
    expect(text).toContain('notregisteredforVAT');
    expect(text).toContain('990.00');
  });
});
