import type { DiagnosticsInfo } from '@adpilot/contracts';
import { useTranslation } from 'react-i18next';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';

type Environment = NonNullable<DiagnosticsInfo['environment']>;

/** Mode, database, versions, the providers in use and what is missing (spec: "reports configuration as missing"). */
export function EnvironmentBlock({ environment }: { environment: Environment }) {
  const { t } = useTranslation(['test-connection', 'settings']);
  const rows: [string, string][] = [
    [t('environment.mode'), environment.mode],
    [t('environment.database'), t(`environment.kinds.${environment.database}`)],
    [t('environment.role'), environment.role],
    [
      t('environment.versions'),
      `AdPilot ${environment.versions.app} · Node ${environment.versions.node} · Postgres ${environment.versions.database}`,
    ],
    [
      t('environment.providers'),
      [
        t(`settings:inUse.ai.${environment.providers.ai}`),
        t(`settings:inUse.meta.${environment.providers.meta}`),
        t(`settings:inUse.billing.${environment.providers.billing}`),
        t(`settings:inUse.mail.${environment.providers.mail}`),
      ].join(' · '),
    ],
  ];
  return (
    <Card data-testid="environment">
      <CardHeader>
        <CardTitle>{t('environment.title')}</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          {rows.map(([label, value]) => (
            <div key={label} className="contents">
              <dt className="font-medium text-gray-700 dark:text-gray-300">{label}</dt>
              <dd className="text-gray-900 dark:text-gray-100">{value}</dd>
            </div>
          ))}
          <dt className="font-medium text-gray-700 dark:text-gray-300">{t('environment.missing')}</dt>
          <dd>
            {environment.missing.length === 0 ? (
              t('environment.nothingMissing')
            ) : (
              <ul className="list-inside list-disc text-amber-700 dark:text-amber-400">
                {environment.missing.map((code) => (
                  <li key={code}>{t(`environment.missingCodes.${code}`)}</li>
                ))}
              </ul>
            )}
          </dd>
        </dl>
      </CardContent>
    </Card>
  );
}
