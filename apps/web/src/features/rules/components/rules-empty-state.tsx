import { Plus, Workflow } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Card } from '../../../components/ui/card.tsx';
import { PRIMARY_LINK } from './link-styles.ts';

export function RulesEmptyState() {
  const { t } = useTranslation('rules');
  return (
    <Card className="flex flex-col items-center px-6 py-14 text-center">
      <span className="flex size-14 items-center justify-center rounded-full bg-blue-50 dark:bg-blue-950/60">
        <Workflow aria-hidden="true" className="size-7 text-blue-600 dark:text-blue-400" />
      </span>
      <h2 className="mt-4 text-lg font-semibold text-gray-900 dark:text-gray-100">{t('empty.title')}</h2>
      <p className="mt-2 max-w-md text-sm text-gray-600 dark:text-gray-400">{t('empty.message')}</p>
      <Link to="/rules/new" className={`mt-6 ${PRIMARY_LINK}`}>
        <Plus aria-hidden="true" className="size-4" />
        {t('empty.action')}
      </Link>
    </Card>
  );
}
