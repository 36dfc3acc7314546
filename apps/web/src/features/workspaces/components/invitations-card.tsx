import { invitationInputSchema, type Invitation, type Workspace, type WorkspaceRole } from '@adpilot/contracts';
import { Mail, RotateCw, X } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { usePlanLimitNotice } from '../../../components/plan-limit.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { formatDate } from '../../../lib/format.ts';
import { useInvitations, useInvite, useResendInvitation, useRevokeInvitation } from '../api/members.ts';
import { useErrorText } from '../hooks/use-error-text.ts';
import { assignableRoles, canManageInvitation } from '../lib/permissions.ts';
import { RoleBadge, RoleSelect } from './role-select.tsx';

/** The invite form and the pending invitations, for admins and owners. */
export function InvitationsCard({ workspace }: { workspace: Workspace }) {
  const { t } = useTranslation('workspaces');
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('invitations.title')}</CardTitle>
      </CardHeader>
      <CardContent className="space-y-6">
        <InviteForm workspace={workspace} />
        <PendingInvitations workspace={workspace} />
      </CardContent>
    </Card>
  );
}

function InviteForm({ workspace }: { workspace: Workspace }) {
  const { t } = useTranslation('workspaces');
  const errorText = useErrorText();
  const planLimit = usePlanLimitNotice();
  const invite = useInvite(workspace.id);
  const roles = assignableRoles(workspace.role);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<WorkspaceRole>('editor');
  const [invalid, setInvalid] = useState(false);
  const emailId = useId();
  const roleId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = invitationInputSchema.safeParse({ email, role });
    if (!parsed.success) {
      setInvalid(true);
      return;
    }
    invite.mutate(parsed.data, {
      onSuccess: (invitation) => {
        setEmail('');
        const email = parsed.data.email;
        if (invitation.mail === 'sent') toast.success(t('invitations.sent', { email }));
        else if (invitation.mail === 'queued') toast.success(t('invitations.queued', { email }));
        else toast(t(`invitations.${invitation.mail}`, { email }), { duration: 10_000 });
      },
      onError: (error) => toast.error(planLimit(error) ?? errorText(error, t('invitations.sendFailed'))),
    });
  };

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-3 sm:flex-row sm:items-start">
      <div className="min-w-0 flex-1">
        <Field id={emailId} label={t('invitations.email')} error={invalid ? t('invitations.emailInvalid') : undefined}>
          <Input
            id={emailId}
            type="email"
            autoComplete="off"
            value={email}
            invalid={invalid}
            onChange={(event) => {
              setEmail(event.target.value);
              setInvalid(false);
            }}
          />
        </Field>
      </div>
      <div>
        <label htmlFor={roleId} className="block text-sm font-medium text-gray-700 dark:text-gray-300">
          {t('invitations.role')}
        </label>
        <div className="mt-1">
          <RoleSelect id={roleId} value={role} roles={roles} onChange={setRole} />
        </div>
      </div>
      <Button type="submit" className="sm:mt-6" loading={invite.isPending}>
        {!invite.isPending && <Mail aria-hidden="true" className="size-4" />}
        {t('invitations.send')}
      </Button>
    </form>
  );
}

function PendingInvitations({ workspace }: { workspace: Workspace }) {
  const { t, i18n } = useTranslation('workspaces');
  const errorText = useErrorText();
  const invitations = useInvitations(workspace.id, true);
  const revoke = useRevokeInvitation(workspace.id);
  const resend = useResendInvitation(workspace.id);

  const onRevoke = (invitation: Invitation) =>
    revoke.mutate(invitation, {
      onSuccess: () => toast.success(t('invitations.revoked', { email: invitation.email })),
      onError: (error) => toast.error(errorText(error, t('invitations.revokeFailed'))),
    });
  const onResend = (invitation: Invitation) =>
    resend.mutate(invitation, {
      onSuccess: (sent) =>
        toast.success(
          t(sent.mail === 'queued' ? 'invitations.queued' : 'invitations.resent', { email: invitation.email }),
        ),
      onError: (error) => toast.error(errorText(error, t('invitations.resendFailed'))),
    });

  return (
    <section aria-labelledby={`${workspace.id}-pending`}>
      <h3 id={`${workspace.id}-pending`} className="text-sm font-semibold text-gray-900 dark:text-gray-100">
        {t('invitations.pending')}
      </h3>
      {invitations.isPending ? (
        <div className="flex justify-center py-6">
          <Spinner label={t('invitations.loading')} />
        </div>
      ) : invitations.isError ? (
        <p role="alert" className="mt-2 text-sm text-red-600 dark:text-red-400">
          {errorText(invitations.error, t('invitations.loadFailed'))}
        </p>
      ) : invitations.data.length === 0 ? (
        <p className="mt-2 text-sm text-gray-600 dark:text-gray-400">{t('invitations.none')}</p>
      ) : (
        <ul className="mt-2 divide-y divide-gray-100 dark:divide-gray-800">
          {invitations.data.map((invitation) => (
            <li key={invitation.id} className="flex flex-wrap items-center gap-3 py-3">
              <div className="min-w-0 flex-1 basis-48">
                <p className="text-sm font-medium wrap-anywhere text-gray-900 dark:text-gray-100">{invitation.email}</p>
                <p className="text-xs text-gray-600 dark:text-gray-400">
                  {invitation.invitedBy
                    ? t('invitations.invitedBy', { name: invitation.invitedBy })
                    : t('invitations.invited')}{' '}
                  · {t('invitations.expires', { date: formatDate(invitation.expiresAt, i18n.language) })}
                </p>
              </div>
              <div className="flex flex-wrap items-center gap-2">
                <RoleBadge role={invitation.role} />
                {canManageInvitation(workspace.role, invitation) && (
                  <>
                    <Button
                      size="sm"
                      variant="secondary"
                      aria-label={t('invitations.resendLabel', { email: invitation.email })}
                      loading={resend.isPending && resend.variables.id === invitation.id}
                      onClick={() => onResend(invitation)}
                    >
                      <RotateCw aria-hidden="true" className="size-4" />
                      {t('invitations.resend')}
                    </Button>
                    <Button
                      size="sm"
                      variant="secondary"
                      aria-label={t('invitations.revokeLabel', { email: invitation.email })}
                      loading={revoke.isPending && revoke.variables.id === invitation.id}
                      onClick={() => onRevoke(invitation)}
                    >
                      <X aria-hidden="true" className="size-4 text-red-600 dark:text-red-400" />
                      {t('invitations.revoke')}
                    </Button>
                  </>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
