import type { Account, WorkspaceFate } from '@adpilot/contracts';
import { useId, useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { PasswordInput } from '../../../components/ui/password-input.tsx';
import { useAuth } from '../../../lib/auth.tsx';
import { useServerMessage } from '../../../lib/server-message.ts';
import { useDeleteAccount } from '../api/account.ts';

const DELETE = 'delete';

/**
 * The account's deletion (PDPA): the password asked, and for each shared workspace the person owns what becomes of
 * it, handed to a named member or deleted with its data.
 */
export function DeleteAccountCard({ account }: { account: Account }) {
  const { t } = useTranslation('account');
  const id = useId();
  const serverMessage = useServerMessage();
  const { logout } = useAuth();
  const remove = useDeleteAccount();
  const owned = account.workspaces.filter((w) => w.role === 'owner' && !w.personal);
  const [choices, setChoices] = useState<Record<string, string>>({});
  const [password, setPassword] = useState('');
  const [asking, setAsking] = useState(false);

  const fates = (): WorkspaceFate[] =>
    owned.map((workspace) => {
      const choice = choices[workspace.id] ?? DELETE;
      return choice === DELETE
        ? { id: workspace.id, action: 'delete' }
        : { id: workspace.id, action: 'transfer', toUserId: choice };
    });

  const confirm = () =>
    remove.mutate(
      { password, workspaces: fates() },
      {
        onSuccess: () => {
          toast.success(t('delete.deleted'));
          void logout();
        },
        onError: (error) => {
          setAsking(false);
          toast.error(serverMessage(error, t('delete.failed')));
        },
      },
    );

  return (
    <Card className="border-red-200 dark:border-red-900">
      <CardHeader>
        <CardTitle>{t('delete.title')}</CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        <p className="text-sm text-gray-700 dark:text-gray-300">{t('delete.description')}</p>
        {owned.map((workspace) => (
          <Field
            key={workspace.id}
            id={`${id}-${workspace.id}`}
            label={t('delete.fate', { workspace: workspace.name })}
          >
            {workspace.members.length === 0 ? (
              <p className="text-sm text-gray-600 dark:text-gray-400">{t('delete.noMembers')}</p>
            ) : (
              <select
                id={`${id}-${workspace.id}`}
                value={choices[workspace.id] ?? DELETE}
                onChange={(event) => setChoices({ ...choices, [workspace.id]: event.target.value })}
                className="h-10 w-full rounded-lg border border-gray-300 bg-white px-3 text-sm dark:border-gray-600 dark:bg-gray-800"
              >
                <option value={DELETE}>{t('delete.deleteWorkspace')}</option>
                {workspace.members.map((member) => (
                  <option key={member.userId} value={member.userId}>
                    {t('delete.transferTo', { name: member.name })}
                  </option>
                ))}
              </select>
            )}
          </Field>
        ))}
        <Field id={`${id}-password`} label={t('delete.password')}>
          <PasswordInput
            id={`${id}-password`}
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </Field>
        <Button variant="danger" disabled={password.length === 0} onClick={() => setAsking(true)}>
          {t('delete.confirm')}
        </Button>
        <ConfirmDialog
          open={asking}
          title={t('delete.confirmTitle')}
          message={t('delete.confirmBody')}
          confirmLabel={t('delete.confirm')}
          variant="danger"
          busy={remove.isPending}
          onConfirm={confirm}
          onCancel={() => setAsking(false)}
        />
      </CardContent>
    </Card>
  );
}
