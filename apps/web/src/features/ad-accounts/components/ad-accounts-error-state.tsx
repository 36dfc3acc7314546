import { AlertTriangle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';

interface AdAccountsErrorStateProps {
  onRetry: () => void;
  retrying: boolean;
}

export function AdAccountsErrorState({ onRetry, retrying }: AdAccountsErrorStateProps) {
  const { t } = useTranslation('ad-accounts');
  return (
    <Card role="alert" className="flex flex-col items-center px-6 py-14 text-center">
      <AlertTriangle aria-hidden="true" className="size-10 text-red-500 dark:text-red-400" />
      <h2 className="mt-4 text-lg font-semibold text-gray-900 dark:text-gray-100">{t('error.title')}</h2>
      <p className="mt-2 max-w-md text-sm text-gray-600 dark:text-gray-400">{t('error.message')}</p>
      <Button variant="secondary" className="mt-6" onClick={onRetry} loading={retrying}>
        {t('error.retry')}
      </Button>
    </Card>
  );
}
