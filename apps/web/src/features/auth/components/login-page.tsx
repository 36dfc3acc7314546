import type { LoginRequest, loginRequestSchema } from '@adpilot/contracts';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import type { z } from 'zod';
import toast from 'react-hot-toast';
import { Button } from '../../../components/ui/button.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { PasswordInput } from '../../../components/ui/password-input.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/auth.tsx';
import { setServerErrors, useFieldErrorText } from '../../../lib/form-errors.ts';
import { lazyResolver } from '../../../lib/lazy-resolver.ts';
import { prefilledEmail } from '../../../lib/redirect.ts';
import { useServerMessage } from '../../../lib/server-message.ts';
import { useRequestLoginCode } from '../api/login-code.ts';
import { readRememberedEmail, rememberEmail } from '../utils/remembered-email.ts';
import { AuthLayout } from './auth-layout.tsx';
import { EmailField } from './email-field.tsx';
import { LegalLinks } from './legal-links.tsx';

const linkClass = 'font-medium text-blue-600 hover:underline dark:text-blue-400';

/**
 * Where the way past a spent account budget stands (ADR 0087): not needed, offered after the server refused this
 * browser, or sent (the code field shows).
 */
type CodeStep = 'none' | 'offered' | 'sent';

const loginResolver = lazyResolver<z.input<typeof loginRequestSchema>, LoginRequest>(() =>
  import('./login-resolver.ts').then((module) => module.loginResolver),
);

/**
 * Sign-in form. Success needs no navigation here: the signed-out-only guard around /login sees the
 * new user and replaces the entry with the page the user came from, or the dashboard.
 */
export function LoginPage() {
  const { t, i18n } = useTranslation('auth');
  const errorMessage = useServerMessage();
  const requestCode = useRequestLoginCode();
  const [codeStep, setCodeStep] = useState<CodeStep>('none');
  const location = useLocation();
  const { login } = useAuth();
  const errorText = useFieldErrorText();
  const id = useId();
  const [rememberMe, setRememberMe] = useState(() => readRememberedEmail() !== null);
  const {
    register,
    handleSubmit,
    setError,
    getValues,
    trigger,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof loginRequestSchema>, unknown, LoginRequest>({
    resolver: loginResolver,
    defaultValues: { email: prefilledEmail(location.search) || (readRememberedEmail() ?? ''), password: '' },
  });

  const onSubmit = handleSubmit(async (credentials) => {
    try {
      await login(credentials);
      rememberEmail(rememberMe ? credentials.email : null);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'LOGIN_ACCOUNT_LIMITED' && codeStep === 'none') {
        setCodeStep('offered');
      }
      setServerErrors(error, setError, ['email', 'password', 'code']);
    }
  });

  // The code is written in the page's language, to the address typed above.
  const sendCode = async () => {
    if (!(await trigger('email'))) return;
    requestCode.mutate(
      { email: getValues('email'), language: i18n.resolvedLanguage === 'th' ? 'th' : 'en' },
      {
        onSuccess: () => setCodeStep('sent'),
        onError: (error) => toast.error(errorMessage(error, t('login.codeFailed'))),
      },
    );
  };

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
      <form onSubmit={onSubmit} onFocus={loginResolver.preload} className="space-y-5">
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
        {codeStep === 'offered' && (
          <div
            role="status"
            className="space-y-3 rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100"
          >
            <p>{t('login.accountLimited')}</p>
            <Button type="button" variant="secondary" onClick={sendCode} loading={requestCode.isPending}>
              {t('login.sendCode')}
            </Button>
          </div>
        )}
        {codeStep === 'sent' && (
          <div className="space-y-2">
            <p role="status" className="text-sm text-gray-600 dark:text-gray-300">
              {t('login.codeSent', { email: getValues('email') })}
            </p>
            <Field id={`${id}-code`} label={t('fields.code')} error={errorText(errors.code, 'code')}>
              <Input
                id={`${id}-code`}
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={6}
                placeholder="123456"
                invalid={Boolean(errors.code)}
                {...register('code')}
              />
            </Field>
          </div>
        )}
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
