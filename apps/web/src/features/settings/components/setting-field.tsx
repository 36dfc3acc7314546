import type { SettingsField, SettingsView } from '@adpilot/contracts';
import type { ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Field } from '../../../components/ui/field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { PasswordInput } from '../../../components/ui/password-input.tsx';

interface SettingFieldProps {
  name: SettingsField;
  info: SettingsView['fields'][SettingsField];
  registration: UseFormRegisterReturn;
  error?: string;
  type?: 'text' | 'email' | 'url' | 'number';
  placeholder?: string;
  hint?: ReactNode;
}

/**
 * One setting: secrets masked with a show/hide toggle (the saved value itself never reaches the browser); a value
 * from the environment shown read-only with where to change it.
 */
export function SettingField({ name, info, registration, error, type = 'text', placeholder, hint }: SettingFieldProps) {
  const { t } = useTranslation('settings');
  const id = `setting-${name}`;
  const common = {
    id,
    invalid: Boolean(error),
    disabled: info.readOnly,
    placeholder,
    autoComplete: 'off',
    ...registration,
  };
  return (
    <Field id={id} label={t(`fields.${name}`)} error={error}>
      {info.secret ? (
        <PasswordInput {...common} toggleLabels={{ show: t('showSecret'), hide: t('hideSecret') }} />
      ) : (
        <Input {...common} type={type} />
      )}
      {info.readOnly ? (
        <p className="mt-1 text-xs text-amber-700 dark:text-amber-400">{t('fromEnvironment')}</p>
      ) : info.secret && info.set ? (
        <p className="mt-1 text-xs text-gray-500 dark:text-gray-400">{t('secretKept')}</p>
      ) : null}
      {hint && <p className="mt-1 text-xs text-gray-500 dark:text-gray-400">{hint}</p>}
    </Field>
  );
}
