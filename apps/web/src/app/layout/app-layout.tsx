import { Menu } from 'lucide-react';
import { Fragment, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { useWorkspaceFallback } from '../../api/workspaces.ts';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Brand } from '../../components/brand.tsx';
import { DemoBanner } from '../../components/demo-banner.tsx';
import { useWorkspaceChoice } from '../../lib/current-workspace.ts';
import { Sidebar } from './sidebar.tsx';
import { CurrentWorkspaceName } from './workspace-switcher.tsx';

/** The signed-in shell: a left sidebar, collapsed behind a menu button on small screens. */
export function AppLayout() {
  const { t } = useTranslation('common');
  const [menuOpen, setMenuOpen] = useState(false);
  const workspaceId = useWorkspaceChoice();
  useWorkspaceFallback();

  useEffect(() => {
    if (!menuOpen) return;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setMenuOpen(false);
    };
    document.addEventListener('keydown', closeOnEscape);
    return () => document.removeEventListener('keydown', closeOnEscape);
  }, [menuOpen]);

  return (
    <div className="min-h-screen lg:flex">
      <header className="sticky top-0 z-20 flex h-14 items-center gap-3 border-b border-gray-200 bg-white px-4 lg:hidden dark:border-gray-800 dark:bg-gray-900">
        <Button
          variant="ghost"
          size="sm"
          onClick={() => setMenuOpen(true)}
          aria-label={t('layout.openMenu')}
          aria-controls="app-sidebar"
          aria-expanded={menuOpen}
        >
          <Menu aria-hidden="true" className="size-5" />
        </Button>
        <Brand to="/dashboard" />
        <CurrentWorkspaceName />
      </header>
      <Sidebar open={menuOpen} onClose={() => setMenuOpen(false)} />
      <main className="min-w-0 flex-1 p-4 sm:p-6 lg:p-8">
        <DemoBanner />
        <Suspense
          fallback={
            <div className="flex justify-center py-24">
              <Spinner size="lg" />
            </div>
          }
        >
          {/* A page starts afresh in another workspace: no form, dialog or live stream carries over. */}
          <Fragment key={workspaceId ?? 'personal'}>
            <Outlet />
          </Fragment>
        </Suspense>
      </main>
    </div>
  );
}
