import { useTranslation } from 'react-i18next';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';

export function RecentActivityCard() {
  const { t } = useTranslation('dashboard');
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('recentActivity.title')}</CardTitle>
      </CardHeader>
      <CardContent>
        <p className="py-8 text-center text-sm text-gray-500 dark:text-gray-400">{t('recentActivity.empty')}</p>
      </CardContent>
    </Card>
  );
}
