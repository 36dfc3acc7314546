import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/ui/page-header.tsx';

export function RulesPage() {
  const { t } = useTranslation('rules');
  return <PageHeader title={t('title')} description={t('description')} />;
}
