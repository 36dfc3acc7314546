import {
  NOTIFICATION_MESSAGES,
  webhookUrl,
  type NotificationChannel,
  type NotificationSettings,
  type NotificationTestResult,
} from '@adpilot/contracts';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { browserTimeZone } from '../../../lib/format.ts';
import { useServerMessage } from '../../../lib/server-message.ts';
import {
  useNotificationSettings,
  useRequestVerification,
  useRotateWebhookSecret,
  useSaveNotificationSettings,
  useSendTestNotification,
} from '../api/notifications.ts';
import { LineSection, useLineForm } from './line-section.tsx';

const HOURS = Array.from({ length: 24 }, (_, hour) => hour);
/** The contracts' English messages by their catalogue key, so the words shown are the page language's. */
const MESSAGE_KEYS = new Map(Object.entries(NOTIFICATION_MESSAGES).map(([key, text]) => [text as string, key]));

function Toggle({
  id,
  checked,
  onChange,
  label,
  hint,
}: {
  id: string;
  checked: boolean;
  onChange: (value: boolean) => void;
  label: string;
  hint?: string;
}) {
  return (
    <div className="flex items-start gap-3">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        className="mt-1 size-4 rounded border-gray-300"
      />
      <label htmlFor={id} className="text-sm">
        <span className="font-medium text-gray-900 dark:text-gray-100">{label}</span>
        {hint && <span className="block text-gray-600 dark:text-gray-400">{hint}</span>}
      </label>
    </div>
  );
}

/**
 * Whether the address is confirmed (ADR 0054): nothing is e-mailed to it before. A link sent and still usable says
 * where it went; otherwise, with e-mail on, a button sends one.
 */
function AddressState({ settings }: { settings: NotificationSettings }) {
  const { t } = useTranslation('notifications');
  const request = useRequestVerification();
  const serverMessage = useServerMessage();
  if (settings.emailVerified)
    return <p className="text-sm text-green-700 dark:text-green-400">{t('email.verified')}</p>;
  const emailOn = settings.emailErrors || settings.emailDigest;
  if (!settings.verificationSentAt && !emailOn)
    return <p className="text-sm text-gray-600 dark:text-gray-400">{t('email.unverifiedHint')}</p>;
  const send = () =>
    request.mutate(undefined, {
      onSuccess: () => toast.success(t('email.resent', { email: settings.email })),
      onError: (error) => toast.error(serverMessage(error, t('email.resendFailed'))),
    });
  return (
    <div
      role="status"
      className="flex flex-wrap items-center gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-700 dark:bg-amber-950"
    >
      <span className="flex-1">
        {settings.verificationSentAt
          ? t('email.verificationSent', { email: settings.email })
          : t('email.unverified', { email: settings.email })}
      </span>
      <Button variant="secondary" size="sm" onClick={send} loading={request.isPending}>
        {settings.verificationSentAt ? t('email.resend') : t('email.sendVerification')}
      </Button>
    </div>
  );
}

function Form({ settings, onClose }: { settings: NotificationSettings; onClose: () => void }) {
  const { t, i18n } = useTranslation('notifications');
  const save = useSaveNotificationSettings();
  const rotate = useRotateWebhookSecret();
  const sendTest = useSendTestNotification();
  const [emailErrors, setEmailErrors] = useState(settings.emailErrors);
  const [emailDigest, setEmailDigest] = useState(settings.emailDigest);
  const [digestHour, setDigestHour] = useState(settings.digestHour);
  const [url, setUrl] = useState(settings.webhook?.url ?? '');
  const [urlError, setUrlError] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [tested, setTested] = useState<NotificationTestResult | null>(null);
  const serverMessage = useServerMessage();

  const messageText = (message: string) => {
    const key = MESSAGE_KEYS.get(message);
    return key ? t(`messages.${key}`) : message;
  };
  const line = useLineForm(settings.line, messageText);

  /** Saves every section at once; `removeLine` removes the LINE channel instead of saving its fields. */
  const submit = (webhook: string | null, removeLine = false) => {
    const trimmed = webhook?.trim() ?? '';
    const linePart = removeLine ? { lineToken: null } : line.patch();
    if (trimmed) {
      const checked = webhookUrl().safeParse(trimmed);
      if (!checked.success) return setUrlError(messageText(checked.error.issues[0]?.message ?? ''));
    }
    setUrlError(null);
    if (!linePart) return;
    save.mutate(
      {
        emailErrors,
        emailDigest,
        digestHour,
        language: i18n.language === 'th' ? 'th' : 'en',
        timeZone: browserTimeZone(),
        webhookUrl: trimmed ? trimmed : null,
        ...linePart,
      },
      {
        onSuccess: (saved) => {
          if (saved.webhookSecret) setSecret(saved.webhookSecret);
          if (!trimmed) setUrl('');
          line.reset(saved.line);
          toast.success(t('saved'));
        },
        onError: (error) => {
          const errors = error instanceof ApiError ? error.errors : [];
          const field = errors.find((e) => e.field === 'webhookUrl');
          if (field) setUrlError(messageText(field.message));
          if (!line.showErrors(errors) && !field) toast.error(t('saveFailed'));
        },
      },
    );
  };

  const test = (channel: NotificationChannel) =>
    sendTest.mutate(channel, {
      onSuccess: setTested,
      onError: (error) => toast.error(serverMessage(error, t('test.failed'))),
    });

  return (
    <div className="space-y-6">
      <section className="space-y-3">
        <h3 className="text-sm font-semibold uppercase tracking-wide text-gray-500 dark:text-gray-400">
          {t('email.title')}
        </h3>
        <p className="text-sm text-gray-600 dark:text-gray-400">
          {t('email.address', { email: settings.email })}
          {settings.mailDelivery === 'outbox' && <span className="block">{t('email.outbox')}</span>}
        </p>
        <AddressState settings={settings} />
        <Toggle
          id="notify-email-errors"
          checked={emailErrors}
          onChange={setEmailErrors}
          label={t('email.errors')}
          hint={t('email.errorsHint')}
        />
        <Toggle
          id="notify-email-digest"
          checked={emailDigest}
          onChange={setEmailDigest}
          label={t('email.digest')}
          hint={t('email.digestHint')}
        />
        {emailDigest && (
          <div className="ml-7">
            <label htmlFor="notify-digest-hour" className="text-sm text-gray-700 dark:text-gray-300">
              {t('email.digestHour')}
            </label>
            <select
              id="notify-digest-hour"
              value={digestHour}
              onChange={(e) => setDigestHour(Number(e.target.value))}
              className="ml-2 h-9 rounded-lg border border-gray-300 bg-white px-2 text-sm dark:border-gray-600 dark:bg-gray-800"
            >
              {HOURS.map((hour) => (
                <option key={hour} value={hour}>{`${String(hour).padStart(2, '0')}:00`}</option>
              ))}
            </select>
          </div>
        )}
        <Button
          variant="ghost"
          size="sm"
          onClick={() => test('email')}
          disabled={!settings.emailVerified}
          title={settings.emailVerified ? undefined : t('email.testNeedsVerified')}
          loading={sendTest.isPending && sendTest.variables === 'email'}
        >
          {t('test.email')}
        </Button>
      </section>

      <section className="space-y-3">
        <h3 className="text-sm font-semibold uppercase tracking-wide text-gray-500 dark:text-gray-400">
          {t('webhook.title')}
        </h3>
        <p className="text-sm text-gray-600 dark:text-gray-400">{t('webhook.hint')}</p>
        <Field id="notify-webhook-url" label={t('webhook.url')} error={urlError ?? undefined}>
          <Input
            id="notify-webhook-url"
            type="url"
            inputMode="url"
            placeholder="https://hooks.slack.com/services/…"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            invalid={Boolean(urlError)}
          />
        </Field>
        {secret ? (
          <div
            role="status"
            className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-700 dark:bg-amber-950"
          >
            <p className="font-medium">{t('webhook.secretOnce')}</p>
            <code className="mt-1 block break-all select-all" data-testid="webhook-secret">
              {secret}
            </code>
          </div>
        ) : (
          settings.webhook && (
            <p className="text-sm text-gray-600 dark:text-gray-400">
              {t('webhook.secretHint', { hint: settings.webhook.secretHint })}
            </p>
          )
        )}
        <p className="text-xs text-gray-500 dark:text-gray-400">{t('webhook.signature')}</p>
        {settings.webhook && (
          <div className="flex flex-wrap gap-2">
            <Button
              variant="secondary"
              size="sm"
              onClick={() => test('webhook')}
              loading={sendTest.isPending && sendTest.variables === 'webhook'}
            >
              {t('test.webhook')}
            </Button>
            <Button
              variant="ghost"
              size="sm"
              loading={rotate.isPending}
              onClick={() =>
                rotate.mutate(undefined, {
                  onSuccess: ({ webhookSecret }) => setSecret(webhookSecret),
                  onError: () => toast.error(t('saveFailed')),
                })
              }
            >
              {t('webhook.rotate')}
            </Button>
            <Button variant="ghost" size="sm" onClick={() => submit(null)}>
              {t('webhook.remove')}
            </Button>
          </div>
        )}
      </section>

      <LineSection
        form={line}
        saved={settings.line}
        onTest={() => test('line')}
        testing={sendTest.isPending && sendTest.variables === 'line'}
        onRemove={() => submit(url, true)}
      />

      {tested && (
        <p
          role="status"
          className={
            tested.delivered ? 'text-sm text-green-700 dark:text-green-400' : 'text-sm text-red-600 dark:text-red-400'
          }
        >
          {tested.delivered
            ? t(`test.delivered.${tested.channel}`, { status: tested.status ?? '' })
            : tested.channel === 'line'
              ? t(`test.notDeliveredLine.${tested.code ?? 'network'}`, { status: tested.status ?? '' })
              : t(`test.notDelivered.${tested.code ?? 'network'}`, { status: tested.status ?? '' })}
        </p>
      )}

      <div className="flex justify-end gap-2 border-t border-gray-200 pt-4 dark:border-gray-800">
        <Button variant="secondary" onClick={onClose}>
          {t('close')}
        </Button>
        <Button onClick={() => submit(url)} loading={save.isPending}>
          {t('save')}
        </Button>
      </div>
    </div>
  );
}

/** Account menu → Notifications: e-mail for errors and a daily digest, a signed webhook, and LINE. */
export function NotificationsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('notifications');
  const settings = useNotificationSettings(open);
  // The modal renders nothing while closed, so each opening starts a fresh form with no secret left on screen.
  return (
    <Modal open={open} onClose={onClose} title={t('title')} size="lg" closeLabel={t('close')}>
      {settings.data ? (
        <Form settings={settings.data} onClose={onClose} />
      ) : settings.isError ? (
        <p role="alert" className="text-sm text-red-600">
          {t('loadFailed')}
        </p>
      ) : (
        <div className="flex justify-center py-8">
          <Spinner />
        </div>
      )}
    </Modal>
  );
}
