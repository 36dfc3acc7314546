import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/ui/page-header.tsx';

export function AiStudioPage() {
  const { t } = useTranslation('ai-studio');
  return <PageHeader title={t('title')} description={t('description')} />;
}
