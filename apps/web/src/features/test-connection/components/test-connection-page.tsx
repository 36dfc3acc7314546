import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/ui/page-header.tsx';

export function TestConnectionPage() {
  const { t } = useTranslation('test-connection');
  return <PageHeader title={t('title')} description={t('description')} />;
}
