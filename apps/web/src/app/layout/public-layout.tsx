import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router';
import { PageSpinner } from '../../components/ui/spinner.tsx';
import { useAuth } from '../../lib/auth.tsx';
import { AppLayout } from './app-layout.tsx';
import { Brand } from '../../components/brand.tsx';
import { DisplayControls } from '../../components/display-controls.tsx';

/** A light header for public screens (forgot/reset password, terms, privacy, the signed-out test page). */
export function PublicLayout() {
  const { t } = useTranslation('common');
  const { user } = useAuth();
  return (
    <div className="min-h-screen">
      <header className="border-b border-gray-200 bg-white dark:border-gray-800 dark:bg-gray-900">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">
          <Brand to="/" />
          {/* The language menu gives way on a phone, so a signed-in visitor's longer link still fits. */}
          <div className="flex min-w-0 items-center gap-2">
            <DisplayControls menuClassName="w-40 min-w-0 shrink" />
            <Link
              to={user ? '/dashboard' : '/login'}
              className="shrink-0 text-sm font-medium text-blue-600 hover:underline dark:text-blue-400"
            >
              {user ? t('nav.dashboard') : t('signIn')}
            </Link>
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-6xl px-4 py-8">
        <Outlet />
      </main>
    </div>
  );
}

/**
 * A page a person answers in the middle of something else (an AI client's OAuth request): the public header without
 * its link away, so nothing leads off the question, and at a phone's width the language menu keeps its room.
 */
export function FocusedLayout() {
  return (
    <div className="min-h-screen">
      <header className="border-b border-gray-200 bg-white dark:border-gray-800 dark:bg-gray-900">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">
          <Brand to="/dashboard" />
          <div className="flex min-w-0 items-center gap-2">
            <DisplayControls />
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-6xl px-4 py-8">
        <Outlet />
      </main>
    </div>
  );
}

/** Pages open to anyone (/test): inside the app shell when signed in, the public header otherwise. */
export function OpenLayout() {
  const { user, isInitializing } = useAuth();
  if (isInitializing) return <PageSpinner />;
  return user ? <AppLayout /> : <PublicLayout />;
}
