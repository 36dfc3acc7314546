import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/auth.tsx';
import { useConfirmEmail } from '../api/notifications.ts';

const linkClass = 'font-medium text-blue-600 hover:underline dark:text-blue-400';

/**
 * Opened from the mailed link `/verify-email?token=…` (ADR 0054), signed in or not: the token alone says whose
 * address it confirms. It is posted once when the page opens; a link that was used, expired or made up says so.
 */
export function VerifyEmailPage() {
  const { t } = useTranslation('notifications');
  const { user } = useAuth();
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  const confirm = useConfirmEmail();
  const { mutate } = confirm;
  const posted = useRef(false);

  useEffect(() => {
    if (!token || posted.current) return;
    posted.current = true;
    mutate({ token });
  }, [token, mutate]);
  // Only the server's "invalid or expired" is that; a lost connection or a fault is worth another try.
  const refused = confirm.error instanceof ApiError && confirm.error.status === 400;

  const next = user ? (
    <Link to="/dashboard" className={linkClass}>
      {t('verify.toDashboard')}
    </Link>
  ) : (
    <Link to="/login" className={linkClass}>
      {t('verify.toLogin')}
    </Link>
  );

  return (
    <div className="mx-auto max-w-md rounded-xl border border-gray-200 bg-white p-8 shadow-sm dark:border-gray-800 dark:bg-gray-900">
      <h1 className="text-2xl font-semibold text-gray-900 dark:text-gray-100">{t('verify.title')}</h1>
      <div className="mt-6 space-y-4 text-sm text-gray-700 dark:text-gray-300">
        {!token || refused ? (
          <p role="alert">{t('verify.invalid')}</p>
        ) : confirm.isError ? (
          <p role="alert">{t('verify.failed')}</p>
        ) : confirm.isSuccess ? (
          <p role="status">{t('verify.done')}</p>
        ) : (
          <p className="flex items-center gap-2">
            <Spinner /> {t('verify.working')}
          </p>
        )}
        <p>{next}</p>
      </div>
    </div>
  );
}
