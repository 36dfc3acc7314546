import { Megaphone, Plus } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';

/** Without `onConnect` (a viewer), the invitation to connect one is left out. */
export function AdAccountsEmptyState({ onConnect }: { onConnect?: () => void }) {
  const { t } = useTranslation('ad-accounts');
  return (
    <Card className="flex flex-col items-center px-6 py-14 text-center">
      <span className="flex size-14 items-center justify-center rounded-full bg-blue-50 dark:bg-blue-950/60">
        <Megaphone aria-hidden="true" className="size-7 text-blue-600 dark:text-blue-400" />
      </span>
      <h2 className="mt-4 text-lg font-semibold text-gray-900 dark:text-gray-100">{t('empty.title')}</h2>
      <p className="mt-2 max-w-md text-sm text-gray-600 dark:text-gray-400">{t('empty.message')}</p>
      {onConnect && (
        <Button className="mt-6" onClick={onConnect}>
          <Plus aria-hidden="true" className="size-4" />
          {t('empty.action')}
        </Button>
      )}
    </Card>
  );
}
