import { loginRequestSchema, type LoginRequest } from '@adpilot/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import type { z } from 'zod';
import { Button } from '../../../components/ui/button.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { PasswordInput } from '../../../components/ui/password-input.tsx';
import { useAuth } from '../../../lib/auth.tsx';
import { setServerErrors, useFieldErrorText } from '../../../lib/form-errors.ts';
import { readRememberedEmail, rememberEmail } from '../utils/remembered-email.ts';
import { AuthLayout } from './auth-layout.tsx';
import { EmailField } from './email-field.tsx';
import { LegalLinks } from './legal-links.tsx';

const linkClass = 'font-medium text-blue-600 hover:underline dark:text-blue-400';

/**
 * Sign-in form. Success needs no navigation here: the signed-out-only guard around /login sees the
 * new user and replaces the entry with the page the user came from, or the dashboard.
 */
export function LoginPage() {
  const { t } = useTranslation('auth');
  const location = useLocation();
  const { login } = useAuth();
  const errorText = useFieldErrorText();
  const id = useId();
  const [rememberMe, setRememberMe] = useState(() => readRememberedEmail() !== null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof loginRequestSchema>, unknown, LoginRequest>({
    resolver: zodResolver(loginRequestSchema),
    defaultValues: { email: readRememberedEmail() ?? '', password: '' },
  });

  const onSubmit = handleSubmit(async (credentials) => {
    try {
      await login(credentials);
      rememberEmail(rememberMe ? credentials.email : null);
    } catch (error) {
      setServerErrors(error, setError, ['email', 'password']);
    }
  });

  return (
    <AuthLayout
      title={t('login.title')}
      subtitle={t('login.subtitle')}
      footer={
        <>
          {t('login.noAccount')} {/* The page to come back to goes along. */}
          <Link to={{ pathname: '/register', search: location.search }} state={location.state} className={linkClass}>
            {t('login.signUp')}
          </Link>
        </>
      }
    >
      <form onSubmit={onSubmit} className="space-y-5">
        <EmailField id={`${id}-email`} error={errorText(errors.email, 'email')} registration={register('email')} />
        <Field id={`${id}-password`} label={t('fields.password')} error={errorText(errors.password, 'password')}>
          <PasswordInput
            id={`${id}-password`}
            autoComplete="current-password"
            placeholder={t('fields.passwordPlaceholder')}
            invalid={Boolean(errors.password)}
            {...register('password')}
          />
        </Field>
        <div className="flex items-center justify-between gap-4 text-sm">
          <label className="flex items-center gap-2 text-gray-700 dark:text-gray-300">
            <input
              type="checkbox"
              checked={rememberMe}
              onChange={(event) => setRememberMe(event.target.checked)}
              className="size-4 rounded border-gray-300 accent-blue-600"
            />
            {t('login.rememberMe')}
          </label>
          <Link to="/forgot-password" className={linkClass}>
            {t('login.forgotPassword')}
          </Link>
        </div>
        <Button type="submit" size="lg" className="w-full" loading={isSubmitting}>
          {t('login.submit')}
        </Button>
        <p className="text-center text-xs text-gray-500 dark:text-gray-400">
          <LegalLinks i18nKey="login.agreement" />
        </p>
      </form>
    </AuthLayout>
  );
}
