import { zodResolver } from '@hookform/resolvers/zod';
import {
  AI_PROVIDERS,
  isSecretSettingsField,
  SECRET_MASK,
  SETTINGS_FIELDS,
  SETTINGS_MESSAGES,
  type ConnectionService,
  type SettingsField,
  type SettingsUpdate,
  type SettingsView,
} from '@adpilot/contracts';
import { clsx } from 'clsx';
import { Bot, ChevronRight, ShieldAlert } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { z } from 'zod';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/auth.tsx';
import { setServerErrors, useFieldErrorText } from '../../../lib/form-errors.ts';
import { useConnectionStatuses, useSaveSettings, useSettings, useTestConnection } from '../api/settings.ts';
import { useSettingsToasts } from '../hooks/use-settings-toasts.ts';
import { ServiceTest } from './connection-status.tsx';
import { MailOutbox } from './mail-outbox.tsx';
import { ServicesOverview } from './services-overview.tsx';
import { SettingField } from './setting-field.tsx';
import { UsersPanel } from './users-panel.tsx';

const SECTIONS = ['apiKeys', 'database', 'payment', 'aiServices', 'outbox'] as const;
type Section = (typeof SECTIONS)[number];

/** The form's own checks; the server checks everything again. Spec §5: the key when the OpenAI provider is chosen. */
const settingsFormSchema = z
  .object({ aiProvider: z.enum(AI_PROVIDERS) })
  .extend(
    Object.fromEntries(SETTINGS_FIELDS.filter((f) => f !== 'aiProvider').map((f) => [f, z.string()])) as Record<
      Exclude<SettingsField, 'aiProvider'>,
      z.ZodString
    >,
  )
  .superRefine((form, ctx) => {
    if (form.aiProvider === 'openai' && !form.openaiApiKey.trim())
      ctx.addIssue({ code: 'custom', path: ['openaiApiKey'], message: SETTINGS_MESSAGES.openaiKeyRequired });
    if (form.smtpUser && !z.email().safeParse(form.smtpUser).success)
      ctx.addIssue({ code: 'custom', path: ['smtpUser'], message: SETTINGS_MESSAGES.invalidEmail });
    if (form.smtpPort && !/^\d{1,5}$/.test(form.smtpPort))
      ctx.addIssue({ code: 'custom', path: ['smtpPort'], message: SETTINGS_MESSAGES.invalidPort });
  });
type SettingsForm = z.infer<typeof settingsFormSchema>;

function formValues(view: SettingsView): SettingsForm {
  const values = Object.fromEntries(SETTINGS_FIELDS.map((field) => [field, view[field]])) as SettingsForm;
  return { ...values, aiProvider: view.aiProvider };
}

/** What the form changed: read-only fields stay out, a secret left masked or empty keeps the stored one. */
function toUpdate(form: SettingsForm, view: SettingsView): SettingsUpdate {
  const update: Record<string, string> = {};
  for (const field of SETTINGS_FIELDS) {
    if (view.fields[field].readOnly) continue;
    const value = form[field].trim();
    if (isSecretSettingsField(field) && (value === '' || value === SECRET_MASK)) continue;
    update[field] = value;
  }
  return update as SettingsUpdate;
}

function AdminOnly() {
  const { t } = useTranslation('settings');
  return (
    <Card className="mx-auto mt-8 max-w-xl" role="alert">
      <CardContent className="flex flex-col items-center gap-3 py-10 text-center">
        <ShieldAlert aria-hidden="true" className="size-10 text-amber-500" />
        <h2 className="text-xl font-semibold text-gray-900 dark:text-gray-100">{t('adminOnly.title')}</h2>
        <p className="text-gray-600 dark:text-gray-400">{t('adminOnly.description')}</p>
      </CardContent>
    </Card>
  );
}

/** The workspace's settings for AI agents, which every member reaches (its page says what each role may do). */
function AgentsLink() {
  const { t } = useTranslation('settings');
  return (
    <Link
      to="/settings/api-tokens"
      className="flex items-center gap-3 rounded-xl border border-gray-200 bg-white p-4 shadow-sm hover:border-blue-400 dark:border-gray-800 dark:bg-gray-900"
    >
      <Bot aria-hidden="true" className="size-6 shrink-0 text-blue-600 dark:text-blue-400" />
      <span className="min-w-0 flex-1">
        <span className="block font-medium text-gray-900 dark:text-gray-100">{t('agentsLink.title')}</span>
        <span className="block text-sm text-gray-600 dark:text-gray-400">{t('agentsLink.description')}</span>
      </span>
      <ChevronRight aria-hidden="true" className="size-5 shrink-0 text-gray-400" />
    </Link>
  );
}

export function SettingsPage() {
  const { t } = useTranslation('settings');
  const { user } = useAuth();
  const isAdmin = user?.role === 'admin';
  const settings = useSettings(isAdmin);
  const forbidden = settings.error instanceof ApiError && settings.error.status === 403;

  return (
    <div className="space-y-6">
      <PageHeader title={t('title')} description={t('description')} />
      <AgentsLink />
      {!isAdmin || forbidden ? (
        <AdminOnly />
      ) : settings.isPending ? (
        <Spinner size="lg" />
      ) : settings.data ? (
        <>
          <SettingsEditor view={settings.data} />
          <UsersPanel />
        </>
      ) : (
        <p role="alert" className="text-red-600">
          {t('loadFailed')}
        </p>
      )}
    </div>
  );
}

function SettingsEditor({ view }: { view: SettingsView }) {
  const { t } = useTranslation('settings');
  const [section, setSection] = useState<Section>('apiKeys');
  const toasts = useSettingsToasts();
  const errorText = useFieldErrorText();
  const statuses = useConnectionStatuses(true);
  const save = useSaveSettings();
  const test = useTestConnection();
  const [testing, setTesting] = useState<ReadonlySet<ConnectionService>>(new Set());
  const form = useForm<SettingsForm>({ resolver: zodResolver(settingsFormSchema), defaultValues: formValues(view) });
  const { register, handleSubmit, reset, setError, watch, formState } = form;

  // After a save the answer is the new view: the form shows it (secrets masked again).
  useEffect(() => reset(formValues(view)), [view, reset]);

  const onSubmit = handleSubmit(async (values) => {
    try {
      await save.mutateAsync(toUpdate(values, view));
      toasts.saved();
    } catch (error) {
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
        setServerErrors(error, setError, SETTINGS_FIELDS as unknown as Path<SettingsForm>[]);
        toasts.saveRefused();
      } else toasts.saveError();
    }
  });

  const runTest = (service: ConnectionService) => {
    setTesting((current) => new Set(current).add(service));
    test.mutate(service, {
      onSuccess: (result) => toasts.tested(result),
      onError: () => toasts.testError(service),
      onSettled: () =>
        setTesting((current) => {
          const next = new Set(current);
          next.delete(service);
          return next;
        }),
    });
  };
  const serviceTest = (service: ConnectionService) => (
    <ServiceTest
      service={service}
      status={statuses.data?.[service]}
      testing={testing.has(service) || statuses.isFetching}
      onTest={runTest}
    />
  );
  const field = (
    name: Exclude<SettingsField, 'aiProvider'>,
    options: Partial<Pick<Parameters<typeof SettingField>[0], 'type' | 'placeholder' | 'hint'>> = {},
  ) => (
    <SettingField
      name={name}
      info={view.fields[name]}
      registration={register(name)}
      error={errorText(formState.errors[name], name)}
      {...options}
    />
  );

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="flex flex-col gap-6 lg:flex-row">
      <nav aria-label={t('sections.label')} className="lg:w-56">
        <ul className="flex gap-2 overflow-x-auto lg:flex-col">
          {SECTIONS.map((name) => (
            <li key={name}>
              <button
                type="button"
                onClick={() => setSection(name)}
                aria-current={section === name ? 'page' : undefined}
                className={clsx(
                  'w-full rounded-lg px-4 py-2 text-left text-sm font-medium whitespace-nowrap',
                  section === name
                    ? 'bg-blue-50 text-blue-700 dark:bg-blue-950 dark:text-blue-300'
                    : 'text-gray-700 hover:bg-gray-100 dark:text-gray-300 dark:hover:bg-gray-800',
                )}
              >
                {t(`sections.${name}`)}
              </button>
            </li>
          ))}
        </ul>
      </nav>

      <div className="min-w-0 flex-1 space-y-6">
        {section === 'apiKeys' && (
          <Card>
            <CardHeader>
              <CardTitle>{t('sections.apiKeys')}</CardTitle>
            </CardHeader>
            <CardContent className="space-y-4">
              <Field id="setting-aiProvider" label={t('fields.aiProvider')}>
                <select
                  id="setting-aiProvider"
                  disabled={view.fields.aiProvider.readOnly}
                  className="block h-10 w-full rounded-lg border border-gray-300 bg-white px-3 text-sm dark:border-gray-600 dark:bg-gray-800 dark:text-gray-100"
                  {...register('aiProvider')}
                >
                  {AI_PROVIDERS.map((provider) => (
                    <option key={provider} value={provider}>
                      {t(`providers.${provider}`)}
                    </option>
                  ))}
                </select>
              </Field>
              {field('openaiApiKey', { placeholder: watch('aiProvider') === 'openai' ? 'sk-…' : undefined })}
              {field('openaiBaseUrl', { type: 'url', hint: t('hints.openaiBaseUrl') })}
              {field('openaiModel', { hint: t('hints.openaiModel') })}
              {serviceTest('openai')}
              <hr className="border-gray-200 dark:border-gray-800" />
              {field('facebookAppId', { hint: t('hints.facebookApp') })}
              {field('facebookAppSecret')}
              {serviceTest('facebook')}
            </CardContent>
          </Card>
        )}

        {section === 'database' && (
          <Card>
            <CardHeader>
              <CardTitle>{t('sections.database')}</CardTitle>
            </CardHeader>
            <CardContent className="space-y-4">
              <Field id="setting-mongodbUri" label={t('fields.mongodbUri')}>
                <input
                  id="setting-mongodbUri"
                  readOnly
                  value={view.mongodbUri}
                  className="block h-10 w-full rounded-lg border border-gray-300 bg-gray-50 px-3 text-sm text-gray-700 dark:border-gray-600 dark:bg-gray-800 dark:text-gray-300"
                />
                <p className="mt-1 text-xs text-gray-500 dark:text-gray-400">
                  {t(`databaseKind.${view.database.kind}`)} — {t('hints.database')}
                </p>
              </Field>
              {serviceTest('database')}
              <h3 className="pt-2 font-semibold text-gray-900 dark:text-gray-100">{t('mailSection')}</h3>
              <p className="text-xs text-gray-500 dark:text-gray-400">{t('hints.mail')}</p>
              {field('smtpHost')}
              {field('smtpPort', { placeholder: '587' })}
              {field('smtpUser', { type: 'email' })}
              {field('smtpPass')}
              {serviceTest('smtp')}
            </CardContent>
          </Card>
        )}

        {section === 'payment' && (
          <Card>
            <CardHeader>
              <CardTitle>{t('sections.payment')}</CardTitle>
            </CardHeader>
            <CardContent className="space-y-4">
              {field('stripeSecretKey', { placeholder: 'sk_test_…' })}
              {field('stripePublishableKey', { placeholder: 'pk_test_…' })}
              {field('stripeWebhookSecret', { placeholder: 'whsec_…' })}
              {serviceTest('stripe')}
            </CardContent>
          </Card>
        )}

        {section === 'aiServices' && (
          <ServicesOverview view={view} statuses={statuses.data} testing={statuses.isFetching ? 'all' : testing} />
        )}

        {section === 'outbox' && <MailOutbox />}

        {/* The outbox is read, not set: nothing of it to save. */}
        {section !== 'outbox' && (
          <div className="flex justify-end">
            <Button type="submit" loading={save.isPending}>
              {t('save')}
            </Button>
          </div>
        )}
      </div>
    </form>
  );
}
