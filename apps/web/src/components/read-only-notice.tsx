import type { WorkspaceRole } from '@adpilot/contracts';
import { Eye } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useCan, useWorkspaceRole } from '../api/workspaces.ts';

interface ReadOnlyNoticeProps {
  /** The role the page's changes need; the notice shows to anyone below it. */
  needed?: WorkspaceRole;
  /** The sentence to show instead of the viewer's one (e.g. "only owners change the plan"). */
  text?: string;
}

/**
 * Why a page's buttons are missing: the user's role in this workspace does not allow its changes. Pages hide what
 * `useCan` refuses and show this once, above their content; nothing shows while the role is still unknown.
 */
export function ReadOnlyNotice({ needed = 'editor', text }: ReadOnlyNoticeProps) {
  const { t } = useTranslation('common');
  const role = useWorkspaceRole();
  const allowed = useCan(needed);
  if (role === null || allowed) return null;
  return (
    <p
      role="note"
      className="flex items-start gap-2 rounded-lg border border-blue-200 bg-blue-50 px-4 py-3 text-sm text-blue-900 dark:border-blue-900 dark:bg-blue-950/50 dark:text-blue-200"
    >
      <Eye aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <span>{text ?? t('workspace.readOnly')}</span>
    </p>
  );
}
