import {
  CONNECTION_SERVICES,
  type ConnectionService,
  type ConnectionStatusMap,
  type SettingsView,
} from '@adpilot/contracts';
import { useTranslation } from 'react-i18next';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { StatusIcon } from './connection-status.tsx';

interface ServicesOverviewProps {
  view: SettingsView;
  statuses: ConnectionStatusMap | undefined;
  testing: ReadonlySet<ConnectionService> | 'all';
}

/** Spec §2 "AI Services": read-only status cards and setup tips. */
export function ServicesOverview({ view, statuses, testing }: ServicesOverviewProps) {
  const { t } = useTranslation('settings');
  const inUse = [
    ['ai', t(`inUse.ai.${view.providers.ai}`)],
    ['meta', t(`inUse.meta.${view.providers.meta}`)],
    ['billing', t(`inUse.billing.${view.providers.billing}`)],
    ['mail', t(`inUse.mail.${view.providers.mail}`)],
  ] as const;
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        {CONNECTION_SERVICES.map((service) => (
          <Card key={service} data-testid={`status-card-${service}`}>
            <CardContent className="flex items-center gap-3">
              <StatusIcon status={statuses?.[service]} testing={testing === 'all' || testing.has(service)} />
              <div>
                <p className="font-medium text-gray-900 dark:text-gray-100">{t(`services.${service}`)}</p>
                <p className="text-sm text-gray-600 dark:text-gray-400">
                  {statuses?.[service] ? t(`status.${statuses[service]}`) : t('status.unknown')}
                </p>
              </div>
            </CardContent>
          </Card>
        ))}
      </div>
      <Card>
        <CardHeader>
          <CardTitle>{t('inUse.title')}</CardTitle>
        </CardHeader>
        <CardContent>
          <ul className="list-inside list-disc space-y-1 text-sm text-gray-700 dark:text-gray-300">
            {inUse.map(([key, label]) => (
              <li key={key}>{label}</li>
            ))}
          </ul>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{t('tips.title')}</CardTitle>
        </CardHeader>
        <CardContent>
          <ul className="list-inside list-disc space-y-1 text-sm text-gray-700 dark:text-gray-300">
            {(['openai', 'facebook', 'stripe', 'smtp'] as const).map((tip) => (
              <li key={tip}>{t(`tips.${tip}`)}</li>
            ))}
          </ul>
        </CardContent>
      </Card>
    </>
  );
}
