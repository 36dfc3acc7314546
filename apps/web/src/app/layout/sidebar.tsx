import { clsx } from 'clsx';
import { Bell, LogOut, UserRound, X } from 'lucide-react';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { useCurrentUser, useAuth } from '../../lib/auth.tsx';
import { Brand } from '../../components/brand.tsx';
import { LanguageMenu } from '../../components/language-menu.tsx';
import { NAV_ITEMS } from './nav-items.ts';
import { ThemeToggle } from '../../components/theme-toggle.tsx';
import { lazyPage } from '../lazy-page.ts';
import { WorkspaceSwitcher } from './workspace-switcher.tsx';
import { usePendingProposals } from '../../api/proposals.ts';

// Loaded when first opened: its form and schemas are not part of any page's first download (ADR 0056).
const NotificationsDialog = lazyPage(
  () => import('../../features/notifications/components/notifications-dialog.tsx'),
  'NotificationsDialog',
);

interface SidebarProps {
  /** Small screens only: whether the drawer is shown. Large screens always show the sidebar. */
  open: boolean;
  onClose: () => void;
}

export function Sidebar({ open, onClose }: SidebarProps) {
  const { t } = useTranslation('common');
  return (
    <>
      {open && <div aria-hidden="true" className="fixed inset-0 z-30 bg-gray-900/50 lg:hidden" onClick={onClose} />}
      <aside
        id="app-sidebar"
        className={clsx(
          'fixed inset-y-0 left-0 z-40 flex w-64 flex-col border-r border-gray-200 bg-white transition-transform dark:border-gray-800 dark:bg-gray-900',
          'lg:sticky lg:top-0 lg:h-screen lg:translate-x-0',
          // Hidden, not just moved away, while closed, so keyboard focus cannot wander into an off-screen drawer.
          open ? 'translate-x-0' : '-translate-x-full max-lg:invisible',
        )}
      >
        <div className="flex h-16 items-center justify-between px-4">
          <Brand to="/dashboard" />
          <Button variant="ghost" size="sm" className="lg:hidden" onClick={onClose} aria-label={t('layout.closeMenu')}>
            <X aria-hidden="true" className="size-5" />
          </Button>
        </div>
        <WorkspaceSwitcher onNavigate={onClose} />
        <nav aria-label={t('nav.label')} className="flex-1 overflow-y-auto px-3 py-2">
          <ul className="space-y-1">
            {NAV_ITEMS.map(({ to, labelKey, icon: Icon }) => (
              <li key={to}>
                <NavLink
                  to={to}
                  onClick={onClose}
                  className={({ isActive }) =>
                    clsx(
                      'flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium transition-colors',
                      isActive
                        ? 'bg-blue-50 text-blue-700 dark:bg-blue-950 dark:text-blue-300'
                        : 'text-gray-700 hover:bg-gray-100 dark:text-gray-300 dark:hover:bg-gray-800',
                    )
                  }
                >
                  <Icon aria-hidden="true" className="size-5" />
                  {t(labelKey)}
                  {to === '/inbox' && <PendingBadge />}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <SidebarFooter onNavigate={onClose} />
      </aside>
    </>
  );
}

/** How many proposals wait for a decision in this workspace: the Inbox link's count (nothing when none). */
function PendingBadge() {
  const { t } = useTranslation('common');
  const { data } = usePendingProposals();
  const count = data?.length ?? 0;
  if (count === 0) return null;
  return (
    <span
      className="ml-auto rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900 dark:bg-amber-900 dark:text-amber-100"
      aria-label={t('nav.inboxPending', { count })}
    >
      {count}
    </span>
  );
}

function SidebarFooter({ onNavigate }: { onNavigate: () => void }) {
  const { t } = useTranslation('common');
  const user = useCurrentUser();
  const { logout } = useAuth();
  const [loggingOut, setLoggingOut] = useState(false);
  const [notificationsOpen, setNotificationsOpen] = useState(false);
  const [notificationsUsed, setNotificationsUsed] = useState(false);

  // Logout never fails (a failed server call is ignored) and ends on /, which unmounts this footer.
  const handleLogout = () => {
    setLoggingOut(true);
    void logout();
  };

  return (
    <div className="space-y-3 border-t border-gray-200 p-4 dark:border-gray-800">
      <div className="flex items-center gap-2">
        <div className="min-w-0 flex-1">
          <LanguageMenu />
        </div>
        <ThemeToggle />
      </div>
      <div className="min-w-0">
        <p className="truncate text-sm font-medium text-gray-900 dark:text-gray-100">{user.name}</p>
        <p className="truncate text-xs text-gray-500 dark:text-gray-400">{user.email}</p>
      </div>
      <NavLink
        to="/account"
        onClick={onNavigate}
        className={({ isActive }) =>
          clsx(
            'flex h-8 w-full items-center gap-2 rounded-lg px-3 text-sm font-medium text-gray-700 hover:bg-gray-100 dark:text-gray-300 dark:hover:bg-gray-800',
            isActive && 'bg-gray-100 dark:bg-gray-800',
          )
        }
      >
        <UserRound aria-hidden="true" className="size-4" />
        {t('layout.account')}
      </NavLink>
      <Button
        variant="ghost"
        size="sm"
        className="w-full justify-start"
        onClick={() => {
          setNotificationsUsed(true);
          setNotificationsOpen(true);
        }}
      >
        <Bell aria-hidden="true" className="size-4" />
        {t('layout.notifications')}
      </Button>
      {notificationsUsed && (
        <Suspense fallback={null}>
          <NotificationsDialog open={notificationsOpen} onClose={() => setNotificationsOpen(false)} />
        </Suspense>
      )}
      <Button variant="secondary" size="sm" className="w-full" loading={loggingOut} onClick={handleLogout}>
        {!loggingOut && <LogOut aria-hidden="true" className="size-4" />}
        {t('layout.logout')}
      </Button>
      <p className="text-xs text-gray-500 dark:text-gray-400">
        {import.meta.env.DEV && (
          <span className="font-medium text-amber-600 dark:text-amber-400">{t('layout.developmentMode')} · </span>
        )}
        {t('layout.version', { version: __APP_VERSION__ })}
      </p>
    </div>
  );
}
