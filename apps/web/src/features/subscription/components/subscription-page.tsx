import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/ui/page-header.tsx';

export function SubscriptionPage() {
  const { t } = useTranslation('subscription');
  return <PageHeader title={t('title')} description={t('description')} />;
}
