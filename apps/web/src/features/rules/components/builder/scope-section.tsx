import { ENTITY_LEVELS, RULE_ENTITY_STATUSES } from '@adpilot/contracts';
import { useId } from 'react';
import { Controller, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useAdAccounts } from '../../../../api/ad-accounts.ts';
import { useRuleError } from '../../hooks/use-rule-error.ts';
import type { RuleFormValues } from '../../lib/rule-form-values.ts';
import { MiniField, Options, Section, Select, SmallInput } from './controls.tsx';

function toggled(list: readonly string[] | undefined, item: string, on: boolean): string[] {
  const rest = (list ?? []).filter((value) => value !== item);
  return on ? [...rest, item] : rest;
}

/** Which entities the rule judges: accounts (none ticked = all of mine), level, name filter and statuses. */
export function ScopeSection() {
  const { t } = useTranslation('rules');
  const id = useId();
  const accounts = useAdAccounts();
  const { register, control, formState } = useFormContext<RuleFormValues>();
  const errorFor = useRuleError(formState.errors);
  const accountsError = errorFor('scope.adAccountIds');

  return (
    <Section title={t('builder.scope')} description={t('builder.scopeHint')}>
      <fieldset>
        <legend className="text-xs font-medium text-gray-600 dark:text-gray-400">{t('builder.accounts')}</legend>
        <Controller
          control={control}
          name="scope.adAccountIds"
          render={({ field }) => (
            <div className="mt-2 flex flex-wrap gap-x-5 gap-y-2">
              {accounts.data?.map((account) => (
                <label key={account.id} className="flex items-center gap-2 text-sm text-gray-800 dark:text-gray-200">
                  <input
                    type="checkbox"
                    className="size-4 rounded"
                    checked={(field.value ?? []).includes(account.id)}
                    onChange={(event) => field.onChange(toggled(field.value, account.id, event.target.checked))}
                  />
                  {account.facebook_account_name}
                </label>
              ))}
              {accounts.data?.length === 0 && (
                <p className="text-sm text-gray-600 dark:text-gray-400">{t('builder.noAccounts')}</p>
              )}
            </div>
          )}
        />
        <p className="mt-1 text-xs text-gray-500 dark:text-gray-400">{t('builder.accountsHint')}</p>
        {accountsError && <p className="mt-1 text-xs text-red-600 dark:text-red-400">{accountsError}</p>}
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-3">
        <MiniField id={`${id}-level`} label={t('builder.level')} error={errorFor('scope.level')}>
          <Select id={`${id}-level`} {...register('scope.level')}>
            <Options values={ENTITY_LEVELS} label={(level) => t(`levels.${level}`)} />
          </Select>
        </MiniField>
        <MiniField id={`${id}-name`} label={t('builder.nameContains')} error={errorFor('scope.nameContains')}>
          <SmallInput
            id={`${id}-name`}
            placeholder={t('builder.nameContainsPlaceholder')}
            invalid={Boolean(errorFor('scope.nameContains'))}
            {...register('scope.nameContains')}
          />
        </MiniField>
        <fieldset>
          <legend className="text-xs font-medium text-gray-600 dark:text-gray-400">{t('builder.statuses')}</legend>
          <Controller
            control={control}
            name="scope.statuses"
            render={({ field }) => (
              <div className="mt-2 flex gap-4">
                {RULE_ENTITY_STATUSES.map((status) => (
                  <label key={status} className="flex items-center gap-2 text-sm text-gray-800 dark:text-gray-200">
                    <input
                      type="checkbox"
                      className="size-4 rounded"
                      checked={(field.value ?? []).includes(status)}
                      onChange={(event) =>
                        field.onChange(toggled(field.value, status, event.target.checked) as typeof field.value)
                      }
                    />
                    {t(`builder.status.${status}`)}
                  </label>
                ))}
              </div>
            )}
          />
        </fieldset>
      </div>
    </Section>
  );
}
