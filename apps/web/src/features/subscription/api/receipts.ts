import type { Receipt } from '@adpilot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { downloadFile } from '../../../lib/download.ts';

export const receiptsQueryOptions = () =>
  queryOptions({ queryKey: ['subscription', 'receipts'], queryFn: () => api.get<Receipt[]>('/subscription/receipts') });

/** The plan's receipts (ADR 0115): asked only where there can be some (Stripe billing, the payer). */
export const useReceipts = (enabled: boolean) => useQuery({ ...receiptsQueryOptions(), enabled });

/** One receipt's PDF, in the page's language, saved by the browser. */
export function downloadReceipt(receipt: Receipt, language: string): Promise<void> {
  const lang = language.startsWith('th') ? 'th' : 'en';
  return downloadFile(
    `/subscription/receipts/${receipt.id}.pdf?language=${lang}`,
    `receipt-${receipt.number ?? receipt.id}.pdf`,
  );
}
