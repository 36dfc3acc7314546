import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/ui/page-header.tsx';

export function ActivityPage() {
  const { t } = useTranslation('activity');
  return <PageHeader title={t('title')} description={t('description')} />;
}
