import type { Workspace } from '@adpilot/contracts';
import { useId, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { useCreateWorkspace } from '../../../api/workspaces.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { useServerMessage } from '../../../lib/server-message.ts';
import { useWorkspaceName, WorkspaceNameField } from './workspace-name-field.tsx';

export interface CreateWorkspaceDialogProps {
  open: boolean;
  onClose: () => void;
  onCreated: (workspace: Workspace) => void;
}

/** A new workspace, named in a dialog opened from the switcher. */
export function CreateWorkspaceDialog({ open, onClose, onCreated }: CreateWorkspaceDialogProps) {
  const { t } = useTranslation('common');
  const serverMessage = useServerMessage();
  const create = useCreateWorkspace();
  const typed = useWorkspaceName('');
  const inputId = useId();
  const formId = useId();

  const close = () => {
    if (create.isPending) return;
    typed.reset();
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input = typed.checked();
    if (!input) return;
    create.mutate(input, {
      onSuccess: (workspace) => {
        typed.reset();
        onCreated(workspace);
      },
      onError: (error) => toast.error(serverMessage(error, t('workspace.createFailed'))),
    });
  };

  return (
    <Modal
      open={open}
      onClose={close}
      title={t('workspace.createTitle')}
      size="sm"
      closeLabel={t('workspace.close')}
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={create.isPending}>
            {t('workspace.cancel')}
          </Button>
          <Button type="submit" form={formId} loading={create.isPending}>
            {t('workspace.createSubmit')}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} noValidate className="space-y-2">
        <WorkspaceNameField
          id={inputId}
          label={t('workspace.name')}
          value={typed.name}
          error={typed.invalid ? t('workspace.nameInvalid') : undefined}
          onChange={typed.change}
        />
        <p className="text-xs text-gray-500 dark:text-gray-400">{t('workspace.createHint')}</p>
      </form>
    </Modal>
  );
}
