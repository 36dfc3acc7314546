import { Rocket } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export function Brand({ to }: { to: string }) {
  const { t } = useTranslation('common');
  return (
    <Link to={to} className="flex items-center gap-2 text-lg font-bold text-gray-900 dark:text-gray-100">
      <span className="flex size-8 items-center justify-center rounded-lg bg-blue-600 text-white">
        <Rocket aria-hidden="true" className="size-4" />
      </span>
      {t('appName')}
    </Link>
  );
}
