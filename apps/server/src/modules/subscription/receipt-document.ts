import type { Receipt, ReceiptLanguage } from '@adpilot/contracts';
import type Stripe from 'stripe';
import type { BillingConfig } from '../../config/env.ts';

/** A seller or a buyer as a receipt names them. */
export interface ReceiptParty {
  name: string;
  address: string[];
  taxId: string | null;
}

/** Everything a receipt shows, in whole currency units (ADR 0115). */
export interface ReceiptDocument {
  language: ReceiptLanguage;
  receipt: Receipt;
  lines: { description: string; amount: number }[];
  seller: ReceiptParty;
  buyer: ReceiptParty & { email: string | null };
}

/** USD and THB, the plan's currencies, both count in hundredths (cents, satang). */
const whole = (minor: number) => minor / 100;

/**
 * VAT inside a price that includes it: rate / (100 + rate) of the total, rounded to the satang; the net is the rest,
 * so net + VAT is the total to the satang.
 */
export function vatOf(totalMinor: number, rate: number): { rate: number; net: number; amount: number } {
  const vatMinor = Math.round((totalMinor * rate) / (100 + rate));
  return { rate, net: whole(totalMinor - vatMinor), amount: whole(vatMinor) };
}

/** A paid Stripe invoice as a receipt; VAT only when the seller is registered. */
export function receiptOf(invoice: Stripe.Invoice, seller: BillingConfig['seller']): Receipt {
  const paid = invoice.status_transitions?.paid_at ?? invoice.created;
  const totalMinor = invoice.amount_paid;
  return {
    id: invoice.id ?? '',
    number: invoice.number ?? null,
    paidAt: new Date(paid * 1000).toISOString(),
    currency: invoice.currency.toUpperCase(),
    total: whole(totalMinor),
    vat: seller.vatRegistered ? vatOf(totalMinor, seller.vatRate) : null,
  };
}

function addressLines(address: Stripe.Address | null | undefined): string[] {
  if (!address) return [];
  const town = [address.city, address.state, address.postal_code].filter(Boolean).join(' ');
  return [address.line1, address.line2, town, address.country].filter((part): part is string => !!part);
}

/**
 * The receipt's document: the seller from `BILLING_VAT_*`, the buyer from what Stripe holds on the invoice (the name,
 * address and tax id Checkout collected; a Thai VAT id first), else the payer's address.
 */
export function receiptDocumentOf(
  invoice: Stripe.Invoice,
  seller: BillingConfig['seller'],
  language: ReceiptLanguage,
): ReceiptDocument {
  const taxIds = invoice.customer_tax_ids ?? [];
  const buyerTaxId = (taxIds.find((tax) => tax.type === 'th_vat') ?? taxIds[0])?.value ?? null;
  return {
    language,
    receipt: receiptOf(invoice, seller),
    lines: invoice.lines.data.map((item) => ({
      description: item.description ?? '',
      amount: whole(item.amount),
    })),
    seller: {
      name: seller.name ?? 'AdPilot',
      // One line per `;` (an environment variable holds no line breaks).
      address: (seller.address ?? '')
        .split(';')
        .map((part) => part.trim())
        .filter(Boolean),
      taxId: seller.taxId ?? null,
    },
    buyer: {
      name: invoice.customer_name ?? invoice.customer_email ?? '',
      address: addressLines(invoice.customer_address),
      taxId: buyerTaxId,
      email: invoice.customer_email ?? null,
    },
  };
}
