import { resetPasswordFormSchema, type ResetPasswordForm } from '@adpilot/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { Button } from '../../../components/ui/button.tsx';
import { useServerMessage } from '../../../lib/server-message.ts';
import { useFieldErrorText } from '../../../lib/form-errors.ts';
import { useResetPassword } from '../api/password-reset.ts';
import { AuthLayout } from './auth-layout.tsx';
import { NewPasswordFields } from './new-password-fields.tsx';

const linkClass = 'font-medium text-blue-600 hover:underline dark:text-blue-400';

/** Opened from the e-mailed link `/reset-password?token=…`. */
export function ResetPasswordPage() {
  const { t } = useTranslation('auth');
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  const backToLogin = (
    <Link to="/login" className={linkClass}>
      {t('forgot.backToLogin')}
    </Link>
  );

  if (!token) {
    return (
      <AuthLayout title={t('reset.title')} footer={backToLogin}>
        <p role="alert" className="text-sm text-gray-700 dark:text-gray-300">
          {t('reset.missingToken')}{' '}
          <Link to="/forgot-password" className={linkClass}>
            {t('reset.requestNew')}
          </Link>
        </p>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title={t('reset.title')} subtitle={t('reset.subtitle')} footer={backToLogin}>
      <ResetPasswordForm token={token} />
    </AuthLayout>
  );
}

function ResetPasswordForm({ token }: { token: string }) {
  const { t } = useTranslation('auth');
  const errorText = useFieldErrorText();
  const errorMessage = useServerMessage();
  const navigate = useNavigate();
  const id = useId();
  const resetPassword = useResetPassword();
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors },
  } = useForm<ResetPasswordForm, unknown, z.output<typeof resetPasswordFormSchema>>({
    resolver: zodResolver(resetPasswordFormSchema),
    defaultValues: { password: '', confirmPassword: '' },
  });

  const onSubmit = handleSubmit(({ password }) =>
    resetPassword.mutate(
      { token, password },
      {
        onSuccess: () => {
          toast.success(t('reset.success'));
          navigate('/login', { replace: true });
        },
        onError: (error) => toast.error(errorMessage(error, t('reset.failed'))),
      },
    ),
  );

  return (
    <form onSubmit={onSubmit} className="space-y-5">
      <NewPasswordFields
        id={id}
        passwordLabelKey="fields.newPassword"
        errors={{
          password: errorText(errors.password, 'password'),
          confirmPassword: errorText(errors.confirmPassword, 'confirmPassword'),
        }}
        password={register('password')}
        passwordValue={watch('password')}
        confirmPassword={register('confirmPassword')}
      />
      <Button type="submit" size="lg" className="w-full" loading={resetPassword.isPending}>
        {t('reset.submit')}
      </Button>
    </form>
  );
}
