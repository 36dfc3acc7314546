import {
  lineTarget,
  lineToken,
  NOTIFICATION_MESSAGES,
  type NotificationSettings,
  type UpdateNotificationSettings,
} from '@adpilot/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Input } from '../../../components/ui/input.tsx';

type LineSettings = NotificationSettings['line'];
type LinePatch = Pick<UpdateNotificationSettings, 'lineToken' | 'lineTarget' | 'line'>;
/** The fields a LINE error is shown under. */
type LineField = 'lineToken' | 'lineTarget' | 'line';

/**
 * The LINE section's state: the token typed (empty keeps the saved one, which is never shown), the target and the
 * switch. `patch` checks them with the contracts' own rules and answers the part of the settings body they make, or
 * null after putting each mistake under its field; `showErrors` puts the server's there too.
 */
export function useLineForm(saved: LineSettings, messageText: (message: string) => string) {
  const [token, setToken] = useState('');
  const [target, setTarget] = useState(saved.target ?? '');
  const [enabled, setEnabled] = useState(saved.enabled);
  const [errors, setErrors] = useState<Partial<Record<LineField, string>>>({});

  const patch = (): LinePatch | null => {
    const found: Partial<Record<LineField, string>> = {};
    const body: LinePatch = { line: enabled };
    if (token.trim()) {
      const checked = lineToken().safeParse(token);
      if (checked.success) body.lineToken = checked.data;
      else found.lineToken = messageText(checked.error.issues[0]?.message ?? '');
    }
    if (target.trim() && target.trim() !== saved.target) {
      const checked = lineTarget().safeParse(target);
      if (checked.success) body.lineTarget = checked.data;
      else found.lineTarget = messageText(checked.error.issues[0]?.message ?? '');
    }
    // Turning on needs a token and a target, typed now or saved before: said here, before the server says it.
    if (enabled && (!(token.trim() || saved.tokenHint) || !target.trim()))
      found.line ??= messageText(NOTIFICATION_MESSAGES.noLine);
    setErrors(found);
    return Object.keys(found).length > 0 ? null : body;
  };

  const showErrors = (fieldErrors: { field: string; message: string }[]): boolean => {
    const found: Partial<Record<LineField, string>> = {};
    for (const error of fieldErrors)
      if (error.field === 'lineToken' || error.field === 'lineTarget' || error.field === 'line')
        found[error.field] = messageText(error.message);
    setErrors(found);
    return Object.keys(found).length > 0;
  };

  /** After a save: the token field empties (the hint now stands for it). */
  const reset = (settings: LineSettings) => {
    setToken('');
    setTarget(settings.target ?? '');
    setEnabled(settings.enabled);
  };

  return { token, setToken, target, setTarget, enabled, setEnabled, errors, patch, showErrors, reset };
}

export type LineForm = ReturnType<typeof useLineForm>;

/**
 * LINE (ADR 0075): the channel access token of the user's own LINE Official Account channel and the user, group or
 * chat to push to. The token is shown only as its hint once saved.
 */
export function LineSection({
  form,
  saved,
  onTest,
  testing,
  onRemove,
}: {
  form: LineForm;
  saved: LineSettings;
  onTest: () => void;
  testing: boolean;
  onRemove: () => void;
}) {
  const { t } = useTranslation('notifications');
  const ready = Boolean(saved.tokenHint && saved.target);
  return (
    <section className="space-y-3" aria-labelledby="notify-line-title">
      <h3
        id="notify-line-title"
        className="text-sm font-semibold uppercase tracking-wide text-gray-500 dark:text-gray-400"
      >
        {t('line.title')}
      </h3>
      <p className="text-sm text-gray-600 dark:text-gray-400">{t('line.hint')}</p>
      <Field id="notify-line-token" label={t('line.token')} error={form.errors.lineToken}>
        <Input
          id="notify-line-token"
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder={saved.tokenHint ? t('line.tokenKeep') : undefined}
          value={form.token}
          onChange={(e) => form.setToken(e.target.value)}
          invalid={Boolean(form.errors.lineToken)}
        />
      </Field>
      {saved.tokenHint && (
        <p className="text-sm text-gray-600 dark:text-gray-400">{t('line.tokenHint', { hint: saved.tokenHint })}</p>
      )}
      <Field id="notify-line-target" label={t('line.target')} error={form.errors.lineTarget}>
        <Input
          id="notify-line-target"
          autoComplete="off"
          spellCheck={false}
          className="font-mono"
          placeholder="U0123456789abcdef0123456789abcdef"
          value={form.target}
          onChange={(e) => form.setTarget(e.target.value)}
          invalid={Boolean(form.errors.lineTarget)}
        />
      </Field>
      <p className="text-xs text-gray-500 dark:text-gray-400">{t('line.targetHint')}</p>
      <div className="flex items-start gap-3">
        <input
          id="notify-line-on"
          type="checkbox"
          checked={form.enabled}
          onChange={(e) => form.setEnabled(e.target.checked)}
          className="mt-1 size-4 rounded border-gray-300"
        />
        <label htmlFor="notify-line-on" className="text-sm">
          <span className="font-medium text-gray-900 dark:text-gray-100">{t('line.on')}</span>
          <span className="block text-gray-600 dark:text-gray-400">{t('line.onHint')}</span>
        </label>
      </div>
      {form.errors.line && (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {form.errors.line}
        </p>
      )}
      {ready && (
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" size="sm" onClick={onTest} loading={testing}>
            {t('test.line')}
          </Button>
          <Button variant="ghost" size="sm" onClick={onRemove}>
            {t('line.remove')}
          </Button>
        </div>
      )}
    </section>
  );
}
