import type { Workspace, WorkspaceMember, WorkspaceRole } from '@adpilot/contracts';
import { LogOut, UserMinus } from 'lucide-react';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ownPersonalWorkspace, useSwitchWorkspace, useWorkspaces } from '../../../api/workspaces.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useCurrentUser } from '../../../lib/auth.tsx';
import { useChangeMemberRole, useMembers, useRemoveMember } from '../api/members.ts';
import { useErrorText } from '../hooks/use-error-text.ts';
import { assignableRoles, canManageMember } from '../lib/permissions.ts';
import { RoleBadge, RoleSelect } from './role-select.tsx';

interface MemberListProps {
  workspace: Workspace;
  /** Its name as the user reads it. */
  label: string;
  /** The workspace shown is the user's own personal one, which they cannot leave. */
  ownPersonal: boolean;
}

export function MemberList({ workspace, label, ownPersonal }: MemberListProps) {
  const { t } = useTranslation('workspaces');
  const errorText = useErrorText();
  const user = useCurrentUser();
  const members = useMembers(workspace.id);
  const changeRole = useChangeMemberRole(workspace.id);
  const remove = useRemoveMember(workspace.id);
  const workspaces = useWorkspaces();
  const switchTo = useSwitchWorkspace();
  const navigate = useNavigate();
  const [toRemove, setToRemove] = useState<WorkspaceMember | null>(null);
  const leaving = toRemove?.userId === user.id;

  const onRoleChange = (member: WorkspaceMember, role: WorkspaceRole) =>
    changeRole.mutate(
      { userId: member.userId, role },
      {
        onSuccess: () => toast.success(t('members.roleChanged', { name: member.name })),
        onError: (error) => toast.error(errorText(error, t('members.roleChangeFailed'))),
      },
    );

  const onRemove = (member: WorkspaceMember) =>
    remove.mutate(member, {
      onSuccess: () => {
        setToRemove(null);
        if (member.userId !== user.id) {
          toast.success(t('members.removed', { name: member.name }));
          return;
        }
        // Left: the tab goes back to the personal workspace, and the list no longer has this one.
        const personal = workspaces.data && ownPersonalWorkspace(workspaces.data);
        if (personal) switchTo(personal.id);
        void workspaces.refetch();
        navigate('/dashboard');
        toast.success(t('members.left'));
      },
      onError: (error) => {
        setToRemove(null);
        toast.error(errorText(error, t('members.removeFailed')));
      },
    });

  const roles = assignableRoles(workspace.role);

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('members.title')}</CardTitle>
      </CardHeader>
      <CardContent>
        {members.isPending ? (
          <div className="flex justify-center py-8">
            <Spinner label={t('members.loading')} />
          </div>
        ) : members.isError ? (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            {errorText(members.error, t('members.loadFailed'))}
          </p>
        ) : (
          <ul className="divide-y divide-gray-100 dark:divide-gray-800">
            {members.data.map((member) => {
              const manageable = canManageMember(workspace.role, member, user.id);
              const isSelf = member.userId === user.id;
              return (
                <li key={member.userId} className="flex flex-wrap items-center gap-3 py-3">
                  <div className="min-w-0 flex-1 basis-48">
                    <p className="truncate text-sm font-medium text-gray-900 dark:text-gray-100">
                      {member.name}
                      {isSelf && (
                        <span className="font-normal text-gray-600 dark:text-gray-400"> {t('members.you')}</span>
                      )}
                    </p>
                    <p className="text-sm wrap-anywhere text-gray-600 dark:text-gray-400">{member.email}</p>
                  </div>
                  <div className="flex flex-wrap items-center gap-2">
                    {manageable ? (
                      <RoleSelect
                        value={member.role}
                        roles={roles}
                        label={t('members.roleOf', { name: member.name })}
                        disabled={changeRole.isPending && changeRole.variables.userId === member.userId}
                        onChange={(role) => onRoleChange(member, role)}
                      />
                    ) : (
                      <RoleBadge role={member.role} />
                    )}
                    {manageable && (
                      <Button
                        size="sm"
                        variant="secondary"
                        aria-label={t('members.removeLabel', { name: member.name })}
                        onClick={() => setToRemove(member)}
                      >
                        <UserMinus aria-hidden="true" className="size-4 text-red-600 dark:text-red-400" />
                        {t('members.remove')}
                      </Button>
                    )}
                    {isSelf && !ownPersonal && (
                      <Button size="sm" variant="secondary" onClick={() => setToRemove(member)}>
                        <LogOut aria-hidden="true" className="size-4" />
                        {t('members.leave')}
                      </Button>
                    )}
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
      <ConfirmDialog
        open={toRemove !== null}
        variant="danger"
        title={leaving ? t('members.leaveDialog.title') : t('members.removeDialog.title')}
        message={
          leaving
            ? t('members.leaveDialog.message', { workspace: label })
            : t('members.removeDialog.message', { name: toRemove?.name ?? '' })
        }
        confirmLabel={leaving ? t('members.leaveDialog.confirm') : t('members.removeDialog.confirm')}
        cancelLabel={t('cancel')}
        closeLabel={t('close')}
        busy={remove.isPending}
        onConfirm={() => toRemove && onRemove(toRemove)}
        onCancel={() => setToRemove(null)}
      />
    </Card>
  );
}
