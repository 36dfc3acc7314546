import type { Workspace } from '@adpilot/contracts';
import { Trash2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ownPersonalWorkspace, useSwitchWorkspace, useWorkspaces } from '../../../api/workspaces.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { useDeleteWorkspace, useRenameWorkspace } from '../api/members.ts';
import { useErrorText } from '../hooks/use-error-text.ts';
import { useWorkspaceName, WorkspaceNameField } from './workspace-name-field.tsx';

/** The owner's part: the workspace's name, and deleting it (never a personal one). */
export function WorkspaceSettings({ workspace }: { workspace: Workspace }) {
  return (
    <>
      <RenameCard workspace={workspace} />
      {!workspace.personal && <DangerZone workspace={workspace} />}
    </>
  );
}

function RenameCard({ workspace }: { workspace: Workspace }) {
  const { t } = useTranslation('workspaces');
  const errorText = useErrorText();
  const rename = useRenameWorkspace(workspace.id);
  const typed = useWorkspaceName(workspace.name);
  const id = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input = typed.checked();
    if (!input) return;
    rename.mutate(input, {
      onSuccess: () => toast.success(t('settings.renamed')),
      onError: (error) => toast.error(errorText(error, t('settings.renameFailed'))),
    });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('settings.title')}</CardTitle>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} noValidate className="flex flex-col gap-3 sm:flex-row sm:items-start">
          <div className="min-w-0 flex-1">
            <WorkspaceNameField
              id={id}
              label={t('settings.name')}
              value={typed.name}
              error={typed.invalid ? t('settings.nameInvalid') : undefined}
              onChange={typed.change}
            />
            {workspace.personal && (
              <p className="mt-1 text-xs text-gray-500 dark:text-gray-400">{t('settings.personalHint')}</p>
            )}
          </div>
          <Button type="submit" variant="secondary" className="sm:mt-6" loading={rename.isPending}>
            {t('settings.rename')}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

function DangerZone({ workspace }: { workspace: Workspace }) {
  const { t } = useTranslation('workspaces');
  const errorText = useErrorText();
  const remove = useDeleteWorkspace(workspace.id);
  const workspaces = useWorkspaces();
  const switchTo = useSwitchWorkspace();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const id = useId();
  const matches = typed.trim() === workspace.name;

  const close = () => {
    if (remove.isPending) return;
    setTyped('');
    setOpen(false);
  };

  const confirm = () =>
    remove.mutate(undefined, {
      onSuccess: () => {
        const personal = workspaces.data && ownPersonalWorkspace(workspaces.data);
        if (personal) switchTo(personal.id);
        void workspaces.refetch();
        navigate('/dashboard');
        toast.success(t('danger.deleted', { name: workspace.name }));
      },
      onError: (error) => toast.error(errorText(error, t('danger.deleteFailed'))),
    });

  return (
    <Card className="border-red-200 dark:border-red-900">
      <CardHeader className="border-red-200 dark:border-red-900">
        <CardTitle className="text-red-700 dark:text-red-400">{t('danger.title')}</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-gray-700 dark:text-gray-300">{t('danger.description')}</p>
        <Button variant="danger" className="shrink-0" onClick={() => setOpen(true)}>
          <Trash2 aria-hidden="true" className="size-4" />
          {t('danger.delete')}
        </Button>
      </CardContent>
      <Modal
        open={open}
        onClose={close}
        title={t('danger.dialogTitle', { name: workspace.name })}
        size="sm"
        closeLabel={t('close')}
        footer={
          <>
            <Button variant="secondary" onClick={close} disabled={remove.isPending}>
              {t('cancel')}
            </Button>
            <Button variant="danger" disabled={!matches} loading={remove.isPending} onClick={confirm}>
              {t('danger.confirm')}
            </Button>
          </>
        }
      >
        <div className="space-y-3 text-sm text-gray-700 dark:text-gray-300">
          <p>{t('danger.warning')}</p>
          <Field id={id} label={t('danger.typeName', { name: workspace.name })}>
            <Input id={id} value={typed} autoComplete="off" onChange={(event) => setTyped(event.target.value)} />
          </Field>
        </div>
      </Modal>
    </Card>
  );
}
