import { RULE_SCHEDULE_MINUTES, type RuleSchedule } from '@adpilot/contracts';
import { useEffect, useId } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useFastestCheckMinutes } from '../../../../api/subscription.ts';
import { useRuleError } from '../../hooks/use-rule-error.ts';
import type { RuleFormValues } from '../../lib/rule-form-values.ts';
import { MiniField, Options, Section, Select, SmallInput } from './controls.tsx';
import { DEFAULT_WINDOW, ScheduleWindows } from './schedule-windows.tsx';

/** The fastest interval on offer that the plan allows (hourly when the plan is not known yet). */
export function allowedMinutes(fastest: number | undefined): RuleScheduleMinutes {
  return RULE_SCHEDULE_MINUTES.find((minutes) => minutes >= (fastest ?? 60)) ?? 60;
}

type RuleScheduleMinutes = (typeof RULE_SCHEDULE_MINUTES)[number];

/**
 * Every N minutes, once a day at a time of the account's time zone, or dayparting windows. Intervals faster than the user's plan allows
 * are shown disabled with a word why (the server refuses them on an active rule, ADR 0040); a new rule that starts
 * on one is moved to the fastest allowed.
 */
export function ScheduleSection({ isNew = false }: { isNew?: boolean }) {
  const { t } = useTranslation('rules');
  const id = useId();
  const { register, control, setValue, getFieldState, formState } = useFormContext<RuleFormValues>();
  const errorFor = useRuleError(formState.errors);
  const schedule = useWatch({ control, name: 'schedule' }) as RuleSchedule;
  const fastest = useFastestCheckMinutes();
  const daily = 'dailyAt' in schedule;
  const windowed = 'windows' in schedule;
  const mode = windowed ? 'windows' : daily ? 'daily' : 'every';
  const tooFast = (minutes: number) => fastest !== undefined && minutes < fastest;
  const startsTooFast = isNew && 'everyMinutes' in schedule && tooFast(schedule.everyMinutes);
  useEffect(() => {
    if (startsTooFast && !getFieldState('schedule').isDirty)
      setValue('schedule', { everyMinutes: allowedMinutes(fastest) });
  }, [startsTooFast, fastest, getFieldState, setValue]);
  const setMode = (next: string) =>
    setValue(
      'schedule',
      next === 'daily'
        ? { dailyAt: '09:00' }
        : next === 'windows'
          ? { windows: [{ ...DEFAULT_WINDOW }] }
          : { everyMinutes: allowedMinutes(fastest) },
      { shouldDirty: true },
    );

  return (
    <Section title={t('builder.schedule')} description={t('builder.scheduleHint')}>
      <div className="flex flex-wrap items-end gap-4">
        <MiniField id={`${id}-mode`} label={t('builder.scheduleMode')}>
          <Select id={`${id}-mode`} value={mode} onChange={(event) => setMode(event.target.value)}>
            <option value="every">{t('builder.scheduleEvery')}</option>
            <option value="daily">{t('builder.scheduleDaily')}</option>
            <option value="windows">{t('builder.scheduleWindows')}</option>
          </Select>
        </MiniField>
        {windowed ? null : daily ? (
          <MiniField id={`${id}-at`} label={t('builder.dailyAt')} error={errorFor('schedule.dailyAt')}>
            <SmallInput
              fitted
              id={`${id}-at`}
              type="time"
              invalid={Boolean(errorFor('schedule.dailyAt'))}
              {...register('schedule.dailyAt')}
            />
          </MiniField>
        ) : (
          <MiniField id={`${id}-every`} label={t('builder.everyMinutes')} error={errorFor('schedule.everyMinutes')}>
            <Select id={`${id}-every`} {...register('schedule.everyMinutes', { valueAsNumber: true })}>
              <Options
                values={RULE_SCHEDULE_MINUTES}
                disabled={tooFast}
                label={(minutes) =>
                  t(tooFast(minutes) ? 'builder.minutesNeedsPlan' : 'builder.minutes', { count: minutes })
                }
              />
            </Select>
          </MiniField>
        )}
      </div>
      {windowed && <ScheduleWindows />}
      {!windowed && fastest !== undefined && fastest > RULE_SCHEDULE_MINUTES[0] && (
        <p className="mt-2 text-xs text-gray-600 dark:text-gray-400">
          {t('builder.scheduleLimit', { count: fastest })}
        </p>
      )}
    </Section>
  );
}

const SAFEGUARDS = [
  'cooldownHours',
  'maxActionsPerDay',
  'minSpend',
  'minImpressions',
  'settleHours',
  'respectManualChangesHours',
] as const;

export function SafeguardsSection() {
  const { t } = useTranslation('rules');
  const id = useId();
  const { register, formState } = useFormContext<RuleFormValues>();
  const errorFor = useRuleError(formState.errors);
  return (
    <Section title={t('builder.safeguards')} description={t('builder.safeguardsHint')}>
      <div className="grid grid-cols-[repeat(auto-fill,minmax(11rem,1fr))] items-end gap-4">
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
