import type { ConnectionService, ConnectionStatus } from '@adpilot/contracts';
import { AlertTriangle, CheckCircle2, Loader2, XCircle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';

/** Spec §4: testing shows a spinner, connected and disconnected their icons, anything else the warning icon. */
export function StatusIcon({ status, testing }: { status: ConnectionStatus | undefined; testing: boolean }) {
  const { t } = useTranslation('settings');
  if (testing)
    return (
      <span role="img" aria-label={t('status.testing')} title={t('status.testing')}>
        <Loader2 aria-hidden="true" className="size-5 animate-spin text-blue-600" />
      </span>
    );
  const label = status ? t(`status.${status}`) : t('status.unknown');
  const icon =
    status === 'connected' ? (
      <CheckCircle2 aria-hidden="true" className="size-5 text-green-600" />
    ) : status === 'disconnected' ? (
      <XCircle aria-hidden="true" className="size-5 text-red-600" />
    ) : (
      <AlertTriangle aria-hidden="true" className="size-5 text-yellow-500" />
    );
  return (
    <span role="img" aria-label={label} title={label} data-status={status ?? 'unknown'}>
      {icon}
    </span>
  );
}

interface ServiceTestProps {
  service: ConnectionService;
  status: ConnectionStatus | undefined;
  testing: boolean;
  onTest: (service: ConnectionService) => void;
}

/** One service's status icon and its Test button. */
export function ServiceTest({ service, status, testing, onTest }: ServiceTestProps) {
  const { t } = useTranslation('settings');
  const name = t(`services.${service}`);
  return (
    <div className="flex items-center gap-3" data-testid={`service-${service}`}>
      <StatusIcon status={status} testing={testing} />
      <span className="text-sm text-gray-700 dark:text-gray-300">
        {testing ? t('status.testing') : status ? t(`status.${status}`) : t('status.unknown')}
      </span>
      <Button variant="secondary" size="sm" loading={testing} onClick={() => onTest(service)}>
        {t('test', { service: name })}
      </Button>
    </div>
  );
}
