import { updateAccountSchema, type Account } from '@adpilot/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useMemo } from 'react';
import { useForm } from 'react-hook-form';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { useAuth } from '../../../lib/auth.tsx';
import { setServerErrors, useFieldErrorText } from '../../../lib/form-errors.ts';
import { setLanguageChoice } from '../../../lib/i18n.ts';
import { useServerMessage } from '../../../lib/server-message.ts';
import { useUpdateAccount } from '../api/account.ts';

type ProfileForm = z.input<typeof updateAccountSchema>;

/** The zones the runtime knows, for the time zone's suggestions. */
function knownZones(): string[] {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return [];
  }
}

/** Name, the language of the person's mails and the time zone their digest and dates follow. */
export function ProfileCard({ account }: { account: Account }) {
  const { t } = useTranslation('account');
  const id = useId();
  const errorText = useFieldErrorText();
  const serverMessage = useServerMessage();
  const { refreshUser } = useAuth();
  const update = useUpdateAccount();
  const zones = useMemo(knownZones, []);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<ProfileForm, unknown, z.output<typeof updateAccountSchema>>({
    resolver: zodResolver(updateAccountSchema),
    values: { name: account.name, language: account.language, timeZone: account.timeZone },
  });

  const onSubmit = handleSubmit((body) =>
    update.mutate(body, {
      onSuccess: (saved) => {
        toast.success(t('profile.saved'));
        if (saved.language !== account.language) setLanguageChoice(saved.language);
        void refreshUser();
      },
      onError: (error) => {
        setServerErrors(error, setError, ['name', 'language', 'timeZone']);
        toast.error(serverMessage(error, t('profile.saveFailed')));
      },
    }),
  );

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('profile.title')}</CardTitle>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="grid gap-4 sm:grid-cols-2">
          <Field id={`${id}-name`} label={t('profile.name')} error={errorText(errors.name, 'name')}>
            <Input id={`${id}-name`} autoComplete="name" invalid={Boolean(errors.name)} {...register('name')} />
          </Field>
          <div>
            <p className="block text-sm font-medium text-gray-700 dark:text-gray-300">{t('profile.email')}</p>
            <p className="mt-1 py-2 text-sm break-all text-gray-900 dark:text-gray-100">
              {account.email}{' '}
              <span className="text-xs text-gray-500 dark:text-gray-400">
                ({account.emailVerified ? t('profile.verified') : t('profile.unverified')})
              </span>
            </p>
          </div>
          <Field id={`${id}-language`} label={t('profile.language')}>
            <select
              id={`${id}-language`}
              className="h-10 w-full rounded-lg border border-gray-300 bg-white px-3 text-sm dark:border-gray-600 dark:bg-gray-800"
              {...register('language')}
            >
              <option value="en">{t('languages.en')}</option>
              <option value="th">{t('languages.th')}</option>
            </select>
          </Field>
          <Field id={`${id}-zone`} label={t('profile.timeZone')} error={errorText(errors.timeZone, 'timeZone')}>
            <Input
              id={`${id}-zone`}
              list={`${id}-zones`}
              invalid={Boolean(errors.timeZone)}
              {...register('timeZone')}
            />
            <datalist id={`${id}-zones`}>
              {zones.map((zone) => (
                <option key={zone} value={zone} />
              ))}
            </datalist>
            <p className="mt-1 text-xs text-gray-500 dark:text-gray-400">{t('profile.timeZoneHint')}</p>
          </Field>
          <div className="sm:col-span-2">
            <Button type="submit" loading={update.isPending}>
              {t('profile.save')}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
