import { changePasswordSchema } from '@adpilot/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { PasswordInput } from '../../../components/ui/password-input.tsx';
import { setServerErrors, useFieldErrorText } from '../../../lib/form-errors.ts';
import { useServerMessage } from '../../../lib/server-message.ts';
import { useChangePassword } from '../api/account.ts';

type PasswordForm = z.input<typeof changePasswordSchema>;

/** The current password, then a new one; every other session ends with the change. */
export function PasswordCard() {
  const { t } = useTranslation('account');
  const id = useId();
  const errorText = useFieldErrorText();
  const serverMessage = useServerMessage();
  const change = useChangePassword();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<PasswordForm, unknown, z.output<typeof changePasswordSchema>>({
    resolver: zodResolver(changePasswordSchema),
    defaultValues: { currentPassword: '', newPassword: '' },
  });

  const onSubmit = handleSubmit((body) =>
    change.mutate(body, {
      onSuccess: () => {
        reset();
        toast.success(t('password.saved'));
      },
      onError: (error) => {
        setServerErrors(error, setError, ['currentPassword', 'newPassword'], {
          ACCOUNT_PASSWORD_WRONG: 'currentPassword',
        });
        toast.error(serverMessage(error, t('password.saveFailed')));
      },
    }),
  );

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('password.title')}</CardTitle>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="grid gap-4 sm:grid-cols-2">
          <Field
            id={`${id}-current`}
            label={t('password.current')}
            error={errorText(errors.currentPassword, 'currentPassword')}
          >
            <PasswordInput
              id={`${id}-current`}
              autoComplete="current-password"
              invalid={Boolean(errors.currentPassword)}
              {...register('currentPassword')}
            />
          </Field>
          <Field id={`${id}-new`} label={t('password.new')} error={errorText(errors.newPassword, 'newPassword')}>
            <PasswordInput
              id={`${id}-new`}
              autoComplete="new-password"
              invalid={Boolean(errors.newPassword)}
              {...register('newPassword')}
            />
          </Field>
          <p className="text-sm text-gray-600 sm:col-span-2 dark:text-gray-400">{t('password.hint')}</p>
          <div className="sm:col-span-2">
            <Button type="submit" loading={change.isPending}>
              {t('password.save')}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
