import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/ui/page-header.tsx';

export function SettingsPage() {
  const { t } = useTranslation('settings');
  return <PageHeader title={t('title')} description={t('description')} />;
}
