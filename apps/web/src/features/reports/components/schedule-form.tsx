import {
  createReportScheduleSchema,
  REPORT_FREQUENCIES,
  REPORT_LANGUAGES,
  type AdAccount,
  type CreateReportScheduleInput,
  type ReportFrequency,
  type ReportLanguage,
  type ReportSchedule,
} from '@adpilot/contracts';
import { useId, useState, type ComponentProps, type FormEvent, type ReactNode } from 'react';
import type { UseFormSetError } from 'react-hook-form';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { setServerErrors, useFieldErrorText } from '../../../lib/form-errors.ts';
import { useFormat } from '../../../lib/format.ts';
import { useCreateReportSchedule, useUpdateReportSchedule } from '../api/report-schedules.ts';
import { useScheduleErrorText } from '../hooks/use-schedule-words.ts';
import { addAddresses } from '../lib/recipients.ts';
import { RecipientsField } from './recipients-field.tsx';

const FIELDS = ['frequency', 'language', 'recipients', 'adAccountIds'] as const;
type FormField = (typeof FIELDS)[number];
/** Each field's error as `useFieldErrorText` reads it: a server code or a client check as its type. */
type FieldErrors = Partial<Record<FormField, { type: string; message?: string }>>;

interface ScheduleFormProps {
  /** The schedule to edit, or null for a new one. */
  schedule: ReportSchedule | null;
  accounts: AdAccount[];
  onClose: () => void;
}

const controlClass = 'size-4 accent-blue-600';

function Choice({ children, ...input }: { children: ReactNode } & ComponentProps<'input'>) {
  return (
    <label className="flex items-start gap-2 text-sm text-gray-800 dark:text-gray-200">
      <input className={`${controlClass} mt-0.5 shrink-0`} {...input} />
      <span className="min-w-0">{children}</span>
    </label>
  );
}

function Group({
  legend,
  error,
  errorId,
  children,
}: {
  legend: string;
  error?: string;
  errorId: string;
  children: ReactNode;
}) {
  return (
    <fieldset aria-describedby={error ? errorId : undefined}>
      <legend className="text-sm font-medium text-gray-700 dark:text-gray-300">{legend}</legend>
      <div className="mt-2 space-y-2">{children}</div>
      {error && (
        <p id={errorId} className="mt-1 text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** The new-schedule and edit form, in a modal: checked with the contracts' schema, then by the server. */
export function ScheduleForm({ schedule, accounts, onClose }: ScheduleFormProps) {
  const { t } = useTranslation('reports');
  const format = useFormat();
  const fieldText = useFieldErrorText();
  const errorText = useScheduleErrorText();
  const id = useId();
  const create = useCreateReportSchedule();
  const update = useUpdateReportSchedule();
  const [frequency, setFrequency] = useState<ReportFrequency>(schedule?.frequency ?? 'weekly');
  const [language, setLanguage] = useState<ReportLanguage>(schedule?.language ?? 'en');
  const [recipients, setRecipients] = useState<string[]>(schedule?.recipients ?? []);
  const [draft, setDraft] = useState('');
  const [allAccounts, setAllAccounts] = useState(schedule ? schedule.adAccountIds === null : true);
  const [chosen, setChosen] = useState<string[]>(schedule?.adAccountIds ?? []);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const saving = create.isPending || update.isPending;

  const clearError = (field: FormField) => setErrors(({ [field]: _cleared, ...rest }) => rest);
  // setServerErrors speaks react-hook-form; this form keeps its few errors itself.
  const setError: UseFormSetError<Record<FormField, unknown>> = (field, error) =>
    setErrors((current) => ({ ...current, [field]: { type: error.type ?? 'server', message: error.message } }));
  const errorOf = (field: FormField) => fieldText(errors[field], field);

  /** Adds the typed address(es); answers the recipients with them, or null when one is not an address. */
  const addDraft = (): string[] | null => {
    if (!draft.trim()) return recipients;
    const added = addAddresses(recipients, draft);
    if ('invalid' in added) {
      setErrors((current) => ({ ...current, recipients: { type: 'validate', message: added.invalid } }));
      return null;
    }
    clearError('recipients');
    setRecipients(added.recipients);
    setDraft('');
    return added.recipients;
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    // An address typed but not added yet is meant too.
    const withDraft = addDraft();
    if (!withDraft) return;
    const input = { frequency, language, recipients: withDraft, adAccountIds: allAccounts ? null : chosen };
    const parsed = createReportScheduleSchema.safeParse(input);
    if (!parsed.success) {
      const found: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as FormField;
        found[field] ??= { type: 'validate', message: issue.message };
      }
      setErrors(found);
      return;
    }
    const body: CreateReportScheduleInput = parsed.data;
    const onError = (error: unknown) => {
      setErrors({});
      setServerErrors(error, setError, FIELDS);
      const landed = error instanceof ApiError && error.errors.some((e) => FIELDS.some((f) => e.field.startsWith(f)));
      if (!landed) setFormError(errorText(error, t('schedules.toast.saveFailed')));
    };
    if (schedule)
      update.mutate(
        { id: schedule.id, body },
        {
          onSuccess: () => {
            toast.success(t('schedules.toast.saved'));
            onClose();
          },
          onError,
        },
      );
    else
      create.mutate(body, {
        onSuccess: (created) => {
          // The moment as the card below shows it: at the schedule's own local time, its zone named.
          const date = format.dateTime(created.nextDueAt, { timeZone: created.timeZone });
          toast.success(t('schedules.toast.created', { date }));
          onClose();
        },
        onError,
      });
  };

  const toggleAccount = (accountId: string, on: boolean) => {
    clearError('adAccountIds');
    setChosen((current) => (on ? [...current, accountId] : current.filter((item) => item !== accountId)));
  };

  return (
    <Modal
      open
      onClose={() => !saving && onClose()}
      title={schedule ? t('schedules.form.editTitle') : t('schedules.form.newTitle')}
      closeLabel={t('schedules.form.close')}
      size="lg"
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={saving}>
            {t('schedules.form.cancel')}
          </Button>
          <Button type="submit" form={`${id}-form`} loading={saving}>
            {schedule ? t('schedules.form.save') : t('schedules.form.create')}
          </Button>
        </>
      }
    >
      <form id={`${id}-form`} noValidate onSubmit={submit} className="space-y-6">
        <div className="grid gap-6 sm:grid-cols-2">
          <Group
            legend={t('schedules.fields.frequency')}
            error={errorOf('frequency')}
            errorId={`${id}-frequency-error`}
          >
            {REPORT_FREQUENCIES.map((value) => (
              <Choice
                key={value}
                type="radio"
                name={`${id}-frequency`}
                checked={frequency === value}
                onChange={() => {
                  clearError('frequency');
                  setFrequency(value);
                }}
              >
                {t(`schedules.frequency.${value}`)}
                <span className="block text-xs text-gray-600 dark:text-gray-400">
                  {t(`schedules.frequencyHint.${value}`)}
                </span>
              </Choice>
            ))}
          </Group>
          <Group legend={t('schedules.fields.language')} error={errorOf('language')} errorId={`${id}-language-error`}>
            {REPORT_LANGUAGES.map((value) => (
              <Choice
                key={value}
                type="radio"
                name={`${id}-language`}
                lang={value}
                checked={language === value}
                onChange={() => {
                  clearError('language');
                  setLanguage(value);
                }}
              >
                <span lang={value}>{t(`schedules.languageOption.${value}`)}</span>
              </Choice>
            ))}
          </Group>
        </div>

        <RecipientsField
          id={`${id}-recipients`}
          recipients={recipients}
          draft={draft}
          error={errorOf('recipients')}
          onChange={(next) => {
            clearError('recipients');
            setRecipients(next);
          }}
          onDraftChange={(next) => {
            clearError('recipients');
            setDraft(next);
          }}
          onAdd={() => void addDraft()}
        />

        <Group legend={t('schedules.fields.accounts')} error={errorOf('adAccountIds')} errorId={`${id}-accounts-error`}>
          <Choice
            type="radio"
            name={`${id}-accounts`}
            checked={allAccounts}
            onChange={() => {
              clearError('adAccountIds');
              setAllAccounts(true);
            }}
          >
            {t('schedules.form.accountsAll')}
          </Choice>
          {accounts.length === 0 ? (
            <p className="text-xs text-gray-600 dark:text-gray-400">{t('schedules.form.noAccounts')}</p>
          ) : (
            <>
              <Choice
                type="radio"
                name={`${id}-accounts`}
                checked={!allAccounts}
                onChange={() => setAllAccounts(false)}
              >
                {t('schedules.form.accountsChosen')}
              </Choice>
              {!allAccounts && (
                <div className="ml-6 space-y-2">
                  {accounts.map((account) => (
                    <Choice
                      key={account.id}
                      type="checkbox"
                      checked={chosen.includes(account.id)}
                      onChange={(event) => toggleAccount(account.id, event.target.checked)}
                    >
                      <span className="wrap-anywhere">{account.facebook_account_name}</span>{' '}
                      <span className="text-gray-500 dark:text-gray-400">({account.currency})</span>
                    </Choice>
                  ))}
                </div>
              )}
            </>
          )}
          <p className="text-xs text-gray-600 dark:text-gray-400">{t('schedules.form.timeZone')}</p>
        </Group>

        {formError && (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            {formError}
          </p>
        )}
      </form>
    </Modal>
  );
}
