import { X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useCurrentWorkspace, useMembers } from '../../../api/workspaces.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';

interface RecipientsFieldProps {
  id: string;
  recipients: string[];
  /** The address being typed, not yet added (the form adds it on save too). */
  draft: string;
  error: string | undefined;
  onChange: (recipients: string[]) => void;
  onDraftChange: (draft: string) => void;
  /** Add pressed (or Enter in the address box). */
  onAdd: () => void;
}

/** Recipients: the workspace's members to tick, and any other address typed in (a client without an account). */
export function RecipientsField({
  id,
  recipients,
  draft,
  error,
  onChange,
  onDraftChange,
  onAdd,
}: RecipientsFieldProps) {
  const { t } = useTranslation('reports');
  const { workspace } = useCurrentWorkspace();
  const members = useMembers(workspace?.id ?? '', workspace !== undefined);
  const memberEmails = new Set((members.data ?? []).map((member) => member.email.toLowerCase()));
  const others = recipients.filter((address) => !memberEmails.has(address));
  const errorId = `${id}-error`;
  const inputId = `${id}-other`;

  const toggle = (email: string, on: boolean) =>
    onChange(on ? [...recipients, email] : recipients.filter((address) => address !== email));

  return (
    <fieldset aria-describedby={error ? errorId : undefined}>
      <legend className="text-sm font-medium text-gray-700 dark:text-gray-300">
        {t('schedules.fields.recipients')}
      </legend>
      <div className="mt-2 space-y-4">
        <div>
          <p className="text-xs font-medium text-gray-600 dark:text-gray-400">{t('schedules.form.members')}</p>
          {members.isPending ? (
            <Spinner size="sm" label={t('schedules.form.membersLoading')} className="mt-2" />
          ) : members.isError ? (
            <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">{t('schedules.form.membersFailed')}</p>
          ) : (
            <ul className="mt-2 space-y-2">
              {members.data.map((member) => {
                const email = member.email.toLowerCase();
                return (
                  <li key={member.userId}>
                    <label className="flex items-start gap-2 text-sm text-gray-800 dark:text-gray-200">
                      <input
                        type="checkbox"
                        className="mt-0.5 size-4 shrink-0 accent-blue-600"
                        checked={recipients.includes(email)}
                        onChange={(event) => toggle(email, event.target.checked)}
                      />
                      <span className="min-w-0">
                        {member.name}{' '}
                        <span className="wrap-anywhere text-gray-600 dark:text-gray-400">&lt;{member.email}&gt;</span>
                      </span>
                    </label>
                  </li>
                );
              })}
            </ul>
          )}
        </div>
        <div>
          <label htmlFor={inputId} className="text-xs font-medium text-gray-600 dark:text-gray-400">
            {t('schedules.form.others')}
          </label>
          <p id={`${inputId}-hint`} className="text-xs text-gray-600 dark:text-gray-400">
            {t('schedules.form.othersHint')}
          </p>
          {others.length > 0 && (
            <ul className="mt-2 flex flex-wrap gap-2">
              {others.map((address) => (
                <li
                  key={address}
                  className="flex max-w-full items-center gap-1 rounded-full bg-gray-100 py-0.5 pr-1 pl-3 text-sm text-gray-800 dark:bg-gray-800 dark:text-gray-200"
                >
                  <span className="min-w-0 wrap-anywhere">{address}</span>
                  <button
                    type="button"
                    aria-label={t('schedules.form.remove', { email: address })}
                    onClick={() => onChange(recipients.filter((item) => item !== address))}
                    className="rounded-full p-1 text-gray-500 hover:bg-gray-200 hover:text-gray-900 dark:hover:bg-gray-700 dark:hover:text-gray-100"
                  >
                    <X aria-hidden="true" className="size-3.5" />
                  </button>
                </li>
              ))}
            </ul>
          )}
          <div className="mt-2 flex gap-2">
            <Input
              id={inputId}
              type="email"
              autoComplete="off"
              placeholder="client@example.com"
              value={draft}
              invalid={Boolean(error)}
              aria-describedby={error ? `${errorId} ${inputId}-hint` : `${inputId}-hint`}
              onChange={(event) => onDraftChange(event.target.value)}
              onKeyDown={(event) => {
                if (event.key !== 'Enter') return;
                event.preventDefault();
                onAdd();
              }}
              className="min-w-0 flex-1"
            />
            <Button variant="secondary" onClick={onAdd} disabled={!draft.trim()}>
              {t('schedules.form.add')}
            </Button>
          </div>
        </div>
      </div>
      {error && (
        <p id={errorId} className="mt-1 text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </fieldset>
  );
}
