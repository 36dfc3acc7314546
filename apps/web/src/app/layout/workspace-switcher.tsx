import type { Workspace } from '@adpilot/contracts';
import { clsx } from 'clsx';
import { Check, ChevronsUpDown, Plus, Users } from 'lucide-react';
import { Suspense, useId, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { useCurrentWorkspace, useSwitchWorkspace, useWorkspaceLabel, useWorkspaces } from '../../api/workspaces.ts';
import { Button } from '../../components/ui/button.tsx';
import { lazyPage } from '../lazy-page.ts';

// Loaded when first opened: the name's schema brings zod, which no page's first download carries (ADR 0138).
const CreateWorkspaceDialog = lazyPage(
  () => import('../../features/workspaces/components/create-workspace-dialog.tsx'),
  'CreateWorkspaceDialog',
);

interface WorkspaceSwitcherProps {
  /** Called after a choice that leaves the menu (the mobile drawer closes). */
  onNavigate: () => void;
}

/**
 * The current workspace and the user's role in it; opened, the user's other workspaces, a new one, and the way to
 * its members. A switch stays in the same section of the app but leaves a page of one item, which the new workspace
 * does not have.
 */
export function WorkspaceSwitcher({ onNavigate }: WorkspaceSwitcherProps) {
  const { t } = useTranslation('common');
  const workspaces = useWorkspaces();
  const { workspace: current, role } = useCurrentWorkspace();
  const label = useWorkspaceLabel();
  const switchTo = useSwitchWorkspace();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  const [creating, setCreating] = useState(false);
  // Mounted from the first opening on, so closing it keeps its closing behaviour.
  const [createUsed, setCreateUsed] = useState(false);
  const panelId = useId();
  const toggleRef = useRef<HTMLButtonElement>(null);

  const choose = (workspace: Workspace) => {
    setOpen(false);
    if (workspace.id === current?.id) return;
    switchTo(workspace.id);
    const section = pathname.split('/')[1] ?? '';
    navigate(`/${section || 'dashboard'}`);
    onNavigate();
    toast.success(t('workspace.switched', { name: label(workspace) }));
  };

  return (
    // Escape closes the list and gives the focus back to the button that opened it.
    <div
      className="px-3 pb-2"
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !open) return;
        event.stopPropagation();
        setOpen(false);
        toggleRef.current?.focus();
      }}
    >
      <button
        ref={toggleRef}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((value) => !value)}
        className="flex w-full items-center gap-2 rounded-lg border border-gray-200 px-3 py-2 text-left hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-gray-700 dark:hover:bg-gray-800"
      >
        <span className="min-w-0 flex-1">
          <span className="block text-xs text-gray-500 dark:text-gray-400">{t('workspace.current')}</span>
          <span
            className="block truncate text-sm font-medium text-gray-900 dark:text-gray-100"
            title={current ? label(current) : undefined}
          >
            {current ? label(current) : t('workspace.personal')}
          </span>
          {role && (
            <span className="block text-xs text-gray-600 dark:text-gray-400">{t(`workspace.roles.${role}`)}</span>
          )}
        </span>
        <ChevronsUpDown aria-hidden="true" className="size-4 shrink-0 text-gray-500" />
        <span className="sr-only">{t('workspace.switch')}</span>
      </button>
      {open && (
        <div
          id={panelId}
          className="mt-2 space-y-1 rounded-lg border border-gray-200 bg-white p-2 shadow-sm dark:border-gray-700 dark:bg-gray-900"
        >
          {workspaces.isError && (
            <p role="alert" className="px-2 py-1 text-xs text-red-600 dark:text-red-400">
              {t('workspace.loadFailed')}
            </p>
          )}
          <ul aria-label={t('workspace.list')} className="max-h-64 space-y-1 overflow-y-auto">
            {workspaces.data?.map((workspace) => {
              const isCurrent = workspace.id === current?.id;
              return (
                <li key={workspace.id}>
                  <button
                    type="button"
                    aria-current={isCurrent || undefined}
                    onClick={() => choose(workspace)}
                    className={clsx(
                      'flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-left text-sm',
                      isCurrent
                        ? 'bg-blue-50 text-blue-800 dark:bg-blue-950 dark:text-blue-200'
                        : 'text-gray-700 hover:bg-gray-100 dark:text-gray-300 dark:hover:bg-gray-800',
                    )}
                  >
                    <span className="min-w-0 flex-1">
                      <span className="block truncate font-medium" title={label(workspace)}>
                        {label(workspace)}
                      </span>
                      <span className="block text-xs opacity-80">{t(`workspace.roles.${workspace.role}`)}</span>
                    </span>
                    {isCurrent && <Check aria-hidden="true" className="size-4 shrink-0" />}
                  </button>
                </li>
              );
            })}
          </ul>
          <div className="space-y-1 border-t border-gray-100 pt-1 dark:border-gray-800">
            <Button
              variant="ghost"
              size="sm"
              className="w-full justify-start"
              onClick={() => {
                setOpen(false);
                setCreateUsed(true);
                setCreating(true);
              }}
            >
              <Plus aria-hidden="true" className="size-4" />
              {t('workspace.create')}
            </Button>
            <Link
              to="/members"
              onClick={() => {
                setOpen(false);
                onNavigate();
              }}
              className="flex h-8 items-center gap-1.5 rounded-lg px-3 text-sm text-gray-700 hover:bg-gray-100 dark:text-gray-200 dark:hover:bg-gray-800"
            >
              <Users aria-hidden="true" className="size-4" />
              {t('workspace.members')}
            </Link>
          </div>
        </div>
      )}
      {createUsed && (
        <Suspense fallback={null}>
          <CreateWorkspaceDialog
            open={creating}
            onClose={() => setCreating(false)}
            onCreated={(workspace) => {
              setCreating(false);
              switchTo(workspace.id);
              navigate('/dashboard');
              onNavigate();
              toast.success(t('workspace.created', { name: workspace.name }));
            }}
          />
        </Suspense>
      )}
    </div>
  );
}

/** The current workspace's name where the switcher is out of sight (the small screens' top bar). */
export function CurrentWorkspaceName() {
  const { t } = useTranslation('common');
  const { workspace } = useCurrentWorkspace();
  const label = useWorkspaceLabel();
  return (
    <span className="ml-auto min-w-0 truncate text-sm text-gray-600 dark:text-gray-400">
      <span className="sr-only">{t('workspace.current')}: </span>
      {workspace ? label(workspace) : t('workspace.personal')}
    </span>
  );
}
