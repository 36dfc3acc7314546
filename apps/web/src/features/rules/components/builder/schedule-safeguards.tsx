import { RULE_SCHEDULE_MINUTES, type RuleSchedule } from '@adpilot/contracts';
import { useId } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useRuleError } from '../../hooks/use-rule-error.ts';
import type { RuleFormValues } from '../../lib/rule-form.ts';
import { MiniField, Options, Section, Select, SmallInput } from './controls.tsx';

/** Every N minutes, or once a day at a time of the account's time zone. */
export function ScheduleSection() {
  const { t } = useTranslation('rules');
  const id = useId();
  const { register, control, setValue, formState } = useFormContext<RuleFormValues>();
  const errorFor = useRuleError(formState.errors);
  const schedule = useWatch({ control, name: 'schedule' }) as RuleSchedule;
  const daily = 'dailyAt' in schedule;
  const setMode = (mode: string) =>
    setValue('schedule', mode === 'daily' ? { dailyAt: '09:00' } : { everyMinutes: 60 }, { shouldDirty: true });

  return (
    <Section title={t('builder.schedule')} description={t('builder.scheduleHint')}>
      <div className="grid gap-4 sm:grid-cols-3">
        <MiniField id={`${id}-mode`} label={t('builder.scheduleMode')}>
          <Select id={`${id}-mode`} value={daily ? 'daily' : 'every'} onChange={(event) => setMode(event.target.value)}>
            <option value="every">{t('builder.scheduleEvery')}</option>
            <option value="daily">{t('builder.scheduleDaily')}</option>
          </Select>
        </MiniField>
        {daily ? (
          <MiniField id={`${id}-at`} label={t('builder.dailyAt')} error={errorFor('schedule.dailyAt')}>
            <SmallInput
              id={`${id}-at`}
              type="time"
              invalid={Boolean(errorFor('schedule.dailyAt'))}
              {...register('schedule.dailyAt')}
            />
          </MiniField>
        ) : (
          <MiniField id={`${id}-every`} label={t('builder.everyMinutes')} error={errorFor('schedule.everyMinutes')}>
            <Select id={`${id}-every`} {...register('schedule.everyMinutes', { valueAsNumber: true })}>
              <Options values={RULE_SCHEDULE_MINUTES} label={(minutes) => t('builder.minutes', { count: minutes })} />
            </Select>
          </MiniField>
        )}
      </div>
    </Section>
  );
}

const SAFEGUARDS = ['cooldownHours', 'maxActionsPerDay', 'minSpend', 'minImpressions', 'settleHours'] as const;

export function SafeguardsSection() {
  const { t } = useTranslation('rules');
  const id = useId();
  const { register, formState } = useFormContext<RuleFormValues>();
  const errorFor = useRuleError(formState.errors);
  return (
    <Section title={t('builder.safeguards')} description={t('builder.safeguardsHint')}>
      <div className="grid gap-4 sm:grid-cols-5">
        {SAFEGUARDS.map((key) => (
          <MiniField
            key={key}
            id={`${id}-${key}`}
            label={t(`builder.safeguard.${key}`)}
            error={errorFor(`safeguards.${key}`)}
          >
            <SmallInput
              id={`${id}-${key}`}
              type="number"
              step="any"
              invalid={Boolean(errorFor(`safeguards.${key}`))}
              {...register(`safeguards.${key}`, { valueAsNumber: true })}
            />
          </MiniField>
        ))}
      </div>
    </Section>
  );
}
