import { forgotPasswordRequestSchema } from '@adpilot/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { MailCheck } from 'lucide-react';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { z } from 'zod';
import { Button } from '../../../components/ui/button.tsx';
import { useServerMessage } from '../../../lib/server-message.ts';
import { useFieldErrorText } from '../../../lib/form-errors.ts';
import { useForgotPassword } from '../api/password-reset.ts';
import { AuthLayout } from './auth-layout.tsx';
import { EmailField } from './email-field.tsx';

type ForgotPasswordForm = z.input<typeof forgotPasswordRequestSchema>;

export function ForgotPasswordPage() {
  const { t, i18n } = useTranslation('auth');
  const errorText = useFieldErrorText();
  const errorMessage = useServerMessage();
  const id = useId();
  const forgotPassword = useForgotPassword();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ForgotPasswordForm, unknown, z.output<typeof forgotPasswordRequestSchema>>({
    resolver: zodResolver(forgotPasswordRequestSchema),
    defaultValues: { email: '' },
  });

  // The e-mail is written in the page's language.
  const onSubmit = handleSubmit((body) =>
    forgotPassword.mutate(
      { ...body, language: i18n.resolvedLanguage === 'th' ? 'th' : 'en' },
      { onError: (error) => toast.error(errorMessage(error, t('forgot.failed'))) },
    ),
  );

  const backToLogin = (
    <Link to="/login" className="font-medium text-blue-600 hover:underline dark:text-blue-400">
      {t('forgot.backToLogin')}
    </Link>
  );

  if (forgotPassword.isSuccess) {
    return (
      <AuthLayout title={t('forgot.sentTitle')} footer={backToLogin}>
        <div role="status" className="flex items-start gap-3 text-sm text-gray-700 dark:text-gray-300">
          <MailCheck aria-hidden="true" className="size-5 shrink-0 text-green-600" />
          {/* The server answers alike for known and unknown addresses, and so does this text. */}
          <p>{t('forgot.sent', { email: forgotPassword.variables.email })}</p>
        </div>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title={t('forgot.title')} subtitle={t('forgot.subtitle')} footer={backToLogin}>
      <form onSubmit={onSubmit} className="space-y-5">
        <EmailField id={`${id}-email`} error={errorText(errors.email, 'email')} registration={register('email')} />
        <Button type="submit" size="lg" className="w-full" loading={forgotPassword.isPending}>
          {t('forgot.submit')}
        </Button>
      </form>
    </AuthLayout>
  );
}
