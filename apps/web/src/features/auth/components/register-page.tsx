import { registerFormSchema, type RegisterForm } from '@adpilot/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import type { z } from 'zod';
import { Button } from '../../../components/ui/button.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { useAuth } from '../../../lib/auth.tsx';
import { setServerErrors, useFieldErrorText } from '../../../lib/form-errors.ts';
import { prefilledEmail } from '../../../lib/redirect.ts';
import { AuthLayout } from './auth-layout.tsx';
import { NewPasswordFields } from './new-password-fields.tsx';
import { EmailField } from './email-field.tsx';
import { LegalLinks } from './legal-links.tsx';

const linkClass = 'font-medium text-blue-600 hover:underline dark:text-blue-400';

/** Sign-up form; like /login, the signed-out-only guard sends the new user on to the dashboard. */
export function RegisterPage() {
  const { t } = useTranslation('auth');
  const location = useLocation();
  const { register: signUp } = useAuth();
  const errorText = useFieldErrorText();
  const id = useId();
  const {
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<RegisterForm, unknown, z.output<typeof registerFormSchema>>({
    resolver: zodResolver(registerFormSchema),
    // An invitation's link names the invited address, so the new account is the one the invitation is for.
    defaultValues: {
      name: '',
      email: prefilledEmail(location.search),
      password: '',
      confirmPassword: '',
      acceptTerms: false,
    },
  });

  const onSubmit = handleSubmit(async ({ name, email, password }) => {
    try {
      await signUp({ name, email, password });
    } catch (error) {
      setServerErrors(error, setError, ['name', 'email', 'password'], { EMAIL_TAKEN: 'email' });
    }
  });

  return (
    <AuthLayout
      title={t('register.title')}
      subtitle={t('register.subtitle')}
      footer={
        <>
          {t('register.haveAccount')} {/* The page to come back to goes along. */}
          <Link to={{ pathname: '/login', search: location.search }} state={location.state} className={linkClass}>
            {t('register.signIn')}
          </Link>
        </>
      }
    >
      {/* No noValidate: spec §5 leaves the terms box to the browser's own required check. */}
      <form onSubmit={onSubmit} className="space-y-5">
        <Field id={`${id}-name`} label={t('fields.name')} error={errorText(errors.name, 'name')}>
          <Input
            id={`${id}-name`}
            autoComplete="name"
            placeholder={t('fields.namePlaceholder')}
            invalid={Boolean(errors.name)}
            {...register('name')}
          />
        </Field>
        <EmailField id={`${id}-email`} error={errorText(errors.email, 'email')} registration={register('email')} />
        <NewPasswordFields
          id={id}
          passwordLabelKey="fields.password"
          errors={{
            password: errorText(errors.password, 'password'),
            confirmPassword: errorText(errors.confirmPassword, 'confirmPassword'),
          }}
          password={register('password')}
          passwordValue={watch('password')}
          confirmPassword={register('confirmPassword')}
        />
        <label className="flex items-start gap-2 text-sm text-gray-700 dark:text-gray-300">
          <input
            type="checkbox"
            required
            className="mt-0.5 size-4 shrink-0 rounded border-gray-300 accent-blue-600"
            {...register('acceptTerms')}
          />
          <span>
            <LegalLinks i18nKey="register.acceptTerms" />
          </span>
        </label>
        <Button type="submit" size="lg" className="w-full" loading={isSubmitting}>
          {t('register.submit')}
        </Button>
      </form>
    </AuthLayout>
  );
}
