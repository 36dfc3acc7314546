import type { UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Field } from '../../../components/ui/field.tsx';
import { Input } from '../../../components/ui/input.tsx';

interface EmailFieldProps {
  id: string;
  /** The message to show under the field, already translated. */
  error: string | undefined;
  registration: UseFormRegisterReturn;
}

/** The e-mail field of the sign-in, register and forgot-password forms. */
export function EmailField({ id, error, registration }: EmailFieldProps) {
  const { t } = useTranslation('auth');
  return (
    <Field id={id} label={t('fields.email')} error={error}>
      {/* type="text": the browser's own e-mail check would show instead of the spec's "Invalid email". */}
      <Input
        id={id}
        type="text"
        inputMode="email"
        autoComplete="email"
        placeholder={t('fields.emailPlaceholder')}
        invalid={Boolean(error)}
        {...registration}
      />
    </Field>
  );
}
