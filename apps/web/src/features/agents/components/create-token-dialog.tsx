import {
  AGENT_SCOPES,
  API_TOKEN_EXPIRY_DAYS,
  createApiTokenRequestSchema,
  type AgentScope,
  type CreatedApiToken,
} from '@adpilot/contracts';
import { useId, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { useCreateApiToken } from '../api/agents.ts';
import { useErrorText } from '../hooks/use-error-text.ts';

const SELECT_CLASS =
  'h-10 w-full rounded-lg border border-gray-300 bg-white px-3 text-sm text-gray-900 dark:border-gray-600 dark:bg-gray-800 dark:text-gray-100';

interface CreateTokenDialogProps {
  workspaceId: string;
  open: boolean;
  onClose: () => void;
  onCreated: (token: CreatedApiToken) => void;
}

/** A name, an access level (each includes the ones before it) and an expiry; 90 days unless changed. */
export function CreateTokenDialog({ workspaceId, open, onClose, onCreated }: CreateTokenDialogProps) {
  const { t } = useTranslation('agents');
  const errorText = useErrorText();
  const create = useCreateApiToken(workspaceId);
  const [name, setName] = useState('');
  const [level, setLevel] = useState<AgentScope>('read');
  const [expiry, setExpiry] = useState<string>('90');
  const [invalid, setInvalid] = useState(false);
  const nameId = useId();
  const expiryId = useId();
  const accessId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = createApiTokenRequestSchema.safeParse({
      name,
      scopes: [level],
      expiresInDays: expiry === 'never' ? null : Number(expiry),
    });
    if (!parsed.success) {
      setInvalid(true);
      return;
    }
    create.mutate(parsed.data, {
      onSuccess: (token) => {
        setName('');
        setLevel('read');
        setExpiry('90');
        onCreated(token);
      },
      onError: (error) => toast.error(errorText(error, t('create.failed'))),
    });
  };

  return (
    <Modal
      open={open}
      onClose={onClose}
      title={t('create.title')}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t('create.cancel')}
          </Button>
          <Button type="submit" form={`${nameId}-form`} loading={create.isPending}>
            {t('create.submit')}
          </Button>
        </>
      }
    >
      <form id={`${nameId}-form`} onSubmit={submit} noValidate className="space-y-5">
        <Field id={nameId} label={t('create.name')} error={invalid ? t('create.nameRequired') : undefined}>
          <Input
            id={nameId}
            value={name}
            maxLength={60}
            autoComplete="off"
            placeholder={t('create.namePlaceholder')}
            invalid={invalid}
            onChange={(event) => {
              setName(event.target.value);
              setInvalid(false);
            }}
          />
        </Field>
        <fieldset aria-describedby={accessId}>
          <legend className="text-sm font-medium text-gray-700 dark:text-gray-300">{t('create.access')}</legend>
          <div id={accessId} className="mt-2 space-y-2">
            {AGENT_SCOPES.map((scope) => (
              <label
                key={scope}
                className="flex cursor-pointer items-start gap-3 rounded-lg border border-gray-200 p-3 has-[:checked]:border-blue-500 has-[:checked]:bg-blue-50 dark:border-gray-700 dark:has-[:checked]:bg-blue-950"
              >
                <input
                  type="radio"
                  name="access"
                  value={scope}
                  checked={level === scope}
                  onChange={() => setLevel(scope)}
                  className="mt-1"
                />
                <span>
                  <span className="block text-sm font-medium text-gray-900 dark:text-gray-100">
                    {t(`scopes.levels.${scope}`)}
                  </span>
                  <span className="block text-xs text-gray-600 dark:text-gray-400">{t(`scopes.help.${scope}`)}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <Field id={expiryId} label={t('create.expiry')}>
          <select
            id={expiryId}
            value={expiry}
            onChange={(event) => setExpiry(event.target.value)}
            className={SELECT_CLASS}
          >
            {API_TOKEN_EXPIRY_DAYS.map((days) => (
              <option key={days} value={String(days)}>
                {t('create.days', { count: days })}
              </option>
            ))}
            <option value="never">{t('create.never')}</option>
          </select>
        </Field>
      </form>
    </Modal>
  );
}
