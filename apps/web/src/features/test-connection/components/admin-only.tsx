import { LockKeyhole } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { Card, CardContent } from '../../../components/ui/card.tsx';
import { authLink, pathOf, type RedirectState } from '../../../lib/redirect.ts';

const SIGN_IN =
  'inline-flex h-10 items-center justify-center gap-2 rounded-lg bg-blue-600 px-4 text-sm font-medium text-white hover:bg-blue-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600';

/**
 * What the Test page shows once the instance has an administrator and the visitor is not them: the diagnostics are
 * theirs (the server answers 401 signed out, 403 to anyone else). Signed out, a way to sign in and come back.
 */
export function AdminOnly({ signedOut }: { signedOut: boolean }) {
  const { t } = useTranslation('test-connection');
  const location = useLocation();
  const back = pathOf(location);
  return (
    <Card role="alert" data-testid="admin-only">
      <CardContent className="flex items-start gap-3">
        <LockKeyhole aria-hidden="true" className="size-6 shrink-0 text-amber-500" />
        <div className="space-y-3">
          <div>
            <h2 className="font-semibold text-gray-900 dark:text-gray-100">{t('adminOnly.title')}</h2>
            <p className="text-sm text-gray-600 dark:text-gray-400">
              {t(signedOut ? 'adminOnly.signedOut' : 'adminOnly.notAdmin')}
            </p>
          </div>
          {signedOut && (
            <Link to={authLink('/login', back)} state={{ from: back } satisfies RedirectState} className={SIGN_IN}>
              {t('adminOnly.signIn')}
            </Link>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
