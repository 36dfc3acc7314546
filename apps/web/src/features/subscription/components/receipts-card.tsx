import type { CurrentSubscription } from '@adpilot/contracts';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { formatDate, formatMoney } from '../../../lib/format.ts';
import { downloadReceipt, useReceipts } from '../api/receipts.ts';

/** The payer's receipts through Stripe, each a PDF in the page's language; local billing says it takes no payments. */
export function ReceiptsCard({ subscription, owns }: { subscription: CurrentSubscription; owns: boolean }) {
  const { t, i18n } = useTranslation('subscription');
  const stripe = subscription.provider === 'stripe';
  const receipts = useReceipts(stripe && owns && subscription.paidByYou);
  if (!owns || !subscription.paidByYou) return null;
  return (
    <Card>
      <h2 className="text-lg font-semibold text-gray-900 dark:text-gray-100">{t('receipts.title')}</h2>
      {!stripe ? (
        <p className="mt-2 text-sm text-gray-600 dark:text-gray-400">{t('receipts.local')}</p>
      ) : receipts.data && receipts.data.length > 0 ? (
        <ul className="mt-3 divide-y divide-gray-100 dark:divide-gray-800">
          {receipts.data.map((receipt) => (
            <li key={receipt.id} className="flex items-center justify-between gap-4 py-2 text-sm">
              <span>
                {receipt.number ?? receipt.id} · {formatDate(receipt.paidAt, i18n.language)} ·{' '}
                {formatMoney(receipt.total, receipt.currency, i18n.language)}
                {receipt.vat &&
                  ` (${t('receipts.vat', { rate: receipt.vat.rate, amount: formatMoney(receipt.vat.amount, receipt.currency, i18n.language) })})`}
              </span>
              <Button
                variant="secondary"
                onClick={() => downloadReceipt(receipt, i18n.language).catch(() => toast.error(t('receipts.failed')))}
              >
                {t('receipts.download')}
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-2 text-sm text-gray-600 dark:text-gray-400">{t('receipts.none')}</p>
      )}
    </Card>
  );
}
