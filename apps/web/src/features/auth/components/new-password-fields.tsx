import type { UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Field } from '../../../components/ui/field.tsx';
import { PasswordInput } from '../../../components/ui/password-input.tsx';

interface NewPasswordFieldsProps {
  id: string;
  /** "fields.password" on sign-up, "fields.newPassword" on reset. */
  passwordLabelKey: string;
  errors: { password?: string; confirmPassword?: string };
  password: UseFormRegisterReturn;
  confirmPassword: UseFormRegisterReturn;
}

/** A new password and its confirmation, each with a show/hide toggle (sign-up and password reset). */
export function NewPasswordFields({ id, passwordLabelKey, errors, password, confirmPassword }: NewPasswordFieldsProps) {
  const { t } = useTranslation('auth');
  return (
    <>
      <Field id={`${id}-password`} label={t(passwordLabelKey)} error={errors.password}>
        <PasswordInput
          id={`${id}-password`}
          autoComplete="new-password"
          placeholder={t('fields.newPasswordPlaceholder')}
          invalid={Boolean(errors.password)}
          {...password}
        />
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
