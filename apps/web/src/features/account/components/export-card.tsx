import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { useServerMessage } from '../../../lib/server-message.ts';
import { useExportMyData } from '../api/account.ts';

/** The PDPA right to one's data: asked here, prepared by the server, mailed as a link that works once. */
export function ExportCard() {
  const { t } = useTranslation('account');
  const serverMessage = useServerMessage();
  const exportData = useExportMyData();
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('export.title')}</CardTitle>
      </CardHeader>
      <CardContent className="space-y-3">
        <p className="text-sm text-gray-600 dark:text-gray-400">{t('export.body')}</p>
        <Button
          variant="secondary"
          loading={exportData.isPending}
          onClick={() =>
            exportData.mutate(undefined, {
              onSuccess: () => toast.success(t('export.queued')),
              onError: (error) => toast.error(serverMessage(error, t('export.failed'))),
            })
          }
        >
          {t('export.button')}
        </Button>
      </CardContent>
    </Card>
  );
}
