import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { usePageLanguage } from '../../../lib/i18n.ts';

export function SubscriptionPage() {
  // Spec §1: this page is in Thai unless the user picked a language.
  usePageLanguage('th');
  const { t } = useTranslation('subscription');
  return <PageHeader title={t('title')} description={t('description')} />;
}
