import { SUBSCRIPTION_MESSAGES, type Receipt, type ReceiptLanguage } from '@adpilot/contracts';
import type { TenantScope } from '@adpilot/db';
import { AppError } from '../../lib/app-error.ts';
import type { BillingConfig } from '../../config/env.ts';
import type { BillingSettings } from './billing-settings.ts';
import type { PlanLimits } from './plan-limits.ts';
import { receiptDocumentOf, receiptOf } from './receipt-document.ts';
import { renderReceiptPdf } from './receipt-pdf.ts';
import type { StripeGateways } from './stripe-gateway.ts';
import { refuseUnlessPayer, throughStripe } from './subscription.service.ts';

export interface ReceiptsDeps {
  limits: PlanLimits;
  billing: BillingSettings;
  gateways: StripeGateways;
  seller: BillingConfig['seller'];
}

/**
 * The plan's receipts (ADR 0115): its paid Stripe invoices, read from Stripe at each request (nothing is stored), for
 * the payer only. Local billing takes no payments and has none.
 */
export class ReceiptsService {
  constructor(private readonly deps: ReceiptsDeps) {}

  async list(scope: TenantScope): Promise<Receipt[]> {
    const found = await this.customer(scope);
    if (!found) return [];
    const invoices = await throughStripe(() => found.stripe.paidInvoices(found.customerId));
    return invoices.map((invoice) => receiptOf(invoice, this.deps.seller));
  }

  /** One receipt as a PDF; another customer's invoice, or one not paid, is not found. */
  async pdf(scope: TenantScope, invoiceId: string, language: ReceiptLanguage): Promise<{ pdf: Buffer; name: string }> {
    const found = await this.customer(scope);
    if (!found) throw AppError.notFound(SUBSCRIPTION_MESSAGES.receiptNotFound);
    const invoice = await throughStripe(async () => {
      try {
        return await found.stripe.retrieveInvoice(invoiceId);
      } catch (error) {
        if ((error as { statusCode?: number }).statusCode === 404) return undefined;
        throw error;
      }
    });
    const customer = typeof invoice?.customer === 'string' ? invoice.customer : invoice?.customer?.id;
    if (!invoice || customer !== found.customerId || invoice.status !== 'paid')
      throw AppError.notFound(SUBSCRIPTION_MESSAGES.receiptNotFound);
    const doc = receiptDocumentOf(invoice, this.deps.seller, language);
    return { pdf: await renderReceiptPdf(doc), name: `receipt-${doc.receipt.number ?? doc.receipt.id}.pdf` };
  }

  private async customer(scope: TenantScope) {
    const settings = this.deps.billing();
    if (!settings) return undefined;
    const state = await this.deps.limits.state(scope);
    refuseUnlessPayer(state, scope);
    const customerId = state.subscription.stripeCustomerId;
    return customerId ? { stripe: this.deps.gateways.for(settings), customerId } : undefined;
  }
}
