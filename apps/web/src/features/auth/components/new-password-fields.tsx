import { PASSWORD_RULES } from '@adpilot/contracts';
import { clsx } from 'clsx';
import { Check, Circle } from 'lucide-react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Field } from '../../../components/ui/field.tsx';
import { fieldErrorId } from '../../../components/ui/input.tsx';
import { PasswordInput } from '../../../components/ui/password-input.tsx';

interface NewPasswordFieldsProps {
  id: string;
  /** "fields.password" on sign-up, "fields.newPassword" on reset. */
  passwordLabelKey: string;
  errors: { password?: string; confirmPassword?: string };
  password: UseFormRegisterReturn;
  /** What is typed now, so each rule ticks as it is met. */
  passwordValue: string;
  confirmPassword: UseFormRegisterReturn;
}

/**
 * A new password and its confirmation, each with a show/hide toggle (sign-up and password reset). Every strength rule
 * is listed before anything is typed, so nobody learns them one refusal at a time (ADR 0133).
 */
export function NewPasswordFields({
  id,
  passwordLabelKey,
  errors,
  password,
  passwordValue,
  confirmPassword,
}: NewPasswordFieldsProps) {
  const { t } = useTranslation('auth');
  const passwordId = `${id}-password`;
  const rulesId = `${id}-password-rules`;
  return (
    <>
      <Field id={passwordId} label={t(passwordLabelKey)} error={errors.password}>
        <PasswordInput
          id={passwordId}
          autoComplete="new-password"
          placeholder={t('fields.newPasswordPlaceholder')}
          invalid={Boolean(errors.password)}
          aria-describedby={clsx(rulesId, errors.password && fieldErrorId(passwordId))}
          {...password}
        />
        <div id={rulesId} className="mt-2 text-xs text-gray-600 dark:text-gray-400">
          <p>{t('passwordRules.title')}</p>
          <ul className="mt-1 grid grid-cols-1 gap-x-4 gap-y-0.5 sm:grid-cols-2">
            {PASSWORD_RULES.map((rule) => {
              const met = rule.met(passwordValue);
              const Icon = met ? Check : Circle;
              return (
                <li
                  key={rule.key}
                  data-met={met}
                  className={clsx('flex items-center gap-1.5', met && 'text-green-700 dark:text-green-400')}
                >
                  <Icon aria-hidden="true" className={clsx('shrink-0', met ? 'size-3.5' : 'size-2.5')} />
                  <span>
                    {t(`passwordRules.${rule.key}`)}
                    {met && <span className="sr-only"> {t('passwordRules.met')}</span>}
                  </span>
                </li>
              );
            })}
          </ul>
        </div>
      </Field>
      <Field id={`${id}-confirm`} label={t('fields.confirmPassword')} error={errors.confirmPassword}>
        <PasswordInput
          id={`${id}-confirm`}
          autoComplete="new-password"
          placeholder={t('fields.confirmPasswordPlaceholder')}
          invalid={Boolean(errors.confirmPassword)}
          {...confirmPassword}
        />
      </Field>
    </>
  );
}
