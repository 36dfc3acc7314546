import { hasRole } from '@adpilot/contracts';
import { Info } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import {
  ownPersonalWorkspace,
  useCurrentWorkspace,
  useWorkspaceLabel,
  useWorkspaces,
} from '../../../api/workspaces.ts';
import { Card } from '../../../components/ui/card.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useErrorText } from '../hooks/use-error-text.ts';
import { InvitationsCard } from './invitations-card.tsx';
import { MemberList } from './member-list.tsx';
import { WorkspaceSettings } from './workspace-settings.tsx';

/**
 * The current workspace's people. Admins and owners invite and manage members; an owner also renames and deletes
 * the workspace. Editors and viewers read the list, and are told why they cannot change it.
 */
export function MembersPage() {
  const { t } = useTranslation('workspaces');
  const errorText = useErrorText();
  const workspaces = useWorkspaces();
  const { workspace } = useCurrentWorkspace();
  const label = useWorkspaceLabel();

  if (workspaces.isError) {
    return (
      <p role="alert" className="text-sm text-red-600 dark:text-red-400">
        {errorText(workspaces.error, t('loadFailed'))}
      </p>
    );
  }
  if (!workspace) {
    return (
      <div className="flex justify-center py-16">
        <Spinner size="lg" label={t('loading')} />
      </div>
    );
  }

  const name = label(workspace);
  const ownPersonal = workspace.id === ownPersonalWorkspace(workspaces.data ?? [])?.id;
  const manages = hasRole(workspace.role, 'admin');
  const owns = workspace.role === 'owner';

  return (
    <div className="space-y-6">
      <PageHeader
        title={t('title')}
        description={t('description', { workspace: ownPersonal ? t('yourPersonal') : name })}
      />
      {!manages && (
        <Card role="note" className="flex items-start gap-3 p-4 text-sm text-gray-700 dark:text-gray-300">
          <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-blue-600 dark:text-blue-400" />
          <p>{t('readOnly', { role: t(`common:workspace.roles.${workspace.role}`) })}</p>
        </Card>
      )}
      <MemberList workspace={workspace} label={name} ownPersonal={ownPersonal} />
      {manages && <InvitationsCard workspace={workspace} />}
      {owns && <WorkspaceSettings workspace={workspace} />}
    </div>
  );
}
