import { RULE_ACTION_TYPES, type RuleAction, type RuleActionType } from '@adpilot/contracts';
import { Plus, Trash2 } from 'lucide-react';
import { useId } from 'react';
import { useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../../components/ui/button.tsx';
import { useRuleError } from '../../hooks/use-rule-error.ts';
import { actionOfType, type RuleFormValues } from '../../lib/rule-form-values.ts';
import { MiniField, Options, Section, Select, SmallInput } from './controls.tsx';
import { useRowFocus } from './use-row-focus.ts';

const number = { valueAsNumber: true } as const;

/** One action, its type first and then what that type takes; the row wraps rather than squeezing a control. */
function ActionRow({
  index,
  onRemove,
  onTypeChange,
}: {
  index: number;
  onRemove: () => void;
  onTypeChange: (type: RuleActionType) => void;
}) {
  const { t } = useTranslation('rules');
  const id = useId();
  const { register, control, formState, setValue } = useFormContext<RuleFormValues>();
  const errorFor = useRuleError(formState.errors);
  const action = useWatch({ control, name: `actions.${index}` }) as RuleAction;
  const at = <K extends string>(field: K) => `actions.${index}.${field}` as `actions.${number}.type`;

  // How much a budget action changes (the amount, and whether a percent) for raises, cuts and boosts alike; made
  // only where drawn, so a pause registers no amount.
  const byAndUnit = () => (
    <>
      <MiniField id={`${id}-by`} label={t('builder.by')} error={errorFor(`actions.${index}.by`)}>
        <SmallInput
          fitted
          id={`${id}-by`}
          type="number"
          step="any"
          invalid={Boolean(errorFor(`actions.${index}.by`))}
          {...register(at('by'), number)}
        />
      </MiniField>
      <MiniField id={`${id}-unit`} label={t('builder.unit')} error={errorFor(`actions.${index}.unit`)}>
        <Select id={`${id}-unit`} {...register(at('unit'))}>
          <option value="percent">{t('builder.unitPercent')}</option>
          <option value="amount">{t('builder.unitAmount')}</option>
        </Select>
      </MiniField>
    </>
  );

  return (
    <div
      role="group"
      aria-label={t('builderA11y.actionN', { n: index + 1 })}
      className="flex items-start gap-2 rounded-lg border border-gray-200 bg-gray-50 p-2 sm:p-3 dark:border-gray-700 dark:bg-gray-800/50"
    >
      <div className="flex min-w-0 flex-1 flex-wrap items-end gap-3">
        <MiniField id={`${id}-type`} label={t('builder.actionType')} error={errorFor(`actions.${index}.type`)}>
          <Select
            id={`${id}-type`}
            value={action.type}
            invalid={Boolean(errorFor(`actions.${index}.type`))}
            onChange={(event) => onTypeChange(event.target.value as RuleActionType)}
          >
            <Options values={RULE_ACTION_TYPES} label={(type) => t(`actionTypes.${type}`)} />
          </Select>
        </MiniField>
        {(action.type === 'increase_budget' || action.type === 'decrease_budget') && (
          <>
            {byAndUnit()}
            <MiniField id={`${id}-ceiling`} label={t('builder.ceiling')} error={errorFor(`actions.${index}.ceiling`)}>
              <SmallInput
                fitted
                id={`${id}-ceiling`}
                type="number"
                step="any"
                invalid={Boolean(errorFor(`actions.${index}.ceiling`))}
                {...register(at('ceiling'), number)}
              />
            </MiniField>
            <MiniField id={`${id}-floor`} label={t('builder.floor')} error={errorFor(`actions.${index}.floor`)}>
              <SmallInput
                fitted
                id={`${id}-floor`}
                type="number"
                step="any"
                invalid={Boolean(errorFor(`actions.${index}.floor`))}
                {...register(at('floor'), number)}
              />
            </MiniField>
          </>
        )}
        {action.type === 'pause' && (
          <ResumeAfterFields
            id={id}
            index={index}
            resumeAfter={action.resumeAfter}
            error={(field) => errorFor(`actions.${index}.resumeAfter${field}`)}
            register={register}
            onModeChange={(mode) =>
              setValue(
                `actions.${index}` as 'actions.0',
                {
                  type: 'pause',
                  ...(mode === 'hours'
                    ? { resumeAfter: { hours: 6 } }
                    : mode === 'time'
                      ? { resumeAfter: { atLocalTime: '00:00' } }
                      : {}),
                },
                { shouldDirty: true },
              )
            }
          />
        )}
        {action.type === 'boost_budget' && (
          <>
            {byAndUnit()}
            <MiniField id={`${id}-from`} label={t('builder.boostFrom')} error={errorFor(`actions.${index}.from`)}>
              <SmallInput
                id={`${id}-from`}
                type="time"
                step={900}
                invalid={Boolean(errorFor(`actions.${index}.from`))}
                {...register(at('from'))}
              />
            </MiniField>
            <MiniField id={`${id}-to`} label={t('builder.boostTo')} error={errorFor(`actions.${index}.to`)}>
              <SmallInput
                id={`${id}-to`}
                type="time"
                step={900}
                invalid={Boolean(errorFor(`actions.${index}.to`))}
                {...register(at('to'))}
              />
            </MiniField>
            <p className="basis-full text-xs text-gray-600 dark:text-gray-400">{t('builder.boostHint')}</p>
          </>
        )}
        {action.type === 'set_budget' && (
          <MiniField id={`${id}-amount`} label={t('builder.amount')} error={errorFor(`actions.${index}.amount`)}>
            <SmallInput
              fitted
              id={`${id}-amount`}
              type="number"
              step="any"
              invalid={Boolean(errorFor(`actions.${index}.amount`))}
              {...register(at('amount'), number)}
            />
          </MiniField>
        )}
        {action.type === 'notify' && (
          <MiniField
            id={`${id}-message`}
            label={t('builder.message')}
            error={errorFor(`actions.${index}.message`)}
            className="min-w-48 grow"
          >
            <SmallInput
              id={`${id}-message`}
              invalid={Boolean(errorFor(`actions.${index}.message`))}
              {...register(at('message'))}
            />
          </MiniField>
        )}
      </div>
      <Button
        size="sm"
        variant="ghost"
        className="mt-5 shrink-0 px-2"
        aria-label={t('builderA11y.removeAction', { n: index + 1 })}
        onClick={onRemove}
      >
        <Trash2 aria-hidden="true" className="size-4 text-red-600 dark:text-red-400" />
      </Button>
    </div>
  );
}

type ResumeMode = 'never' | 'hours' | 'time';
type PauseAction = Extract<RuleAction, { type: 'pause' }>;

/** A pause's timed hold: stay paused, resume after some hours, or at a time of the ad account's clock. */
function ResumeAfterFields({
  id,
  index,
  resumeAfter,
  error,
  register,
  onModeChange,
}: {
  id: string;
  index: number;
  resumeAfter: PauseAction['resumeAfter'];
  error: (field: '' | '.hours' | '.atLocalTime') => string | undefined;
  register: ReturnType<typeof useFormContext<RuleFormValues>>['register'];
  onModeChange: (mode: ResumeMode) => void;
}) {
  const { t } = useTranslation('rules');
  const mode: ResumeMode = !resumeAfter ? 'never' : 'hours' in resumeAfter ? 'hours' : 'time';
  const field = (name: 'hours' | 'atLocalTime') => `actions.${index}.resumeAfter.${name}` as `actions.${number}.type`;
  const modeError = error('');
  return (
    <>
      <MiniField id={`${id}-resume`} label={t('builder.resumeAfter')} error={modeError}>
        <Select
          id={`${id}-resume`}
          value={mode}
          invalid={Boolean(modeError)}
          onChange={(event) => onModeChange(event.target.value as ResumeMode)}
        >
          <option value="never">{t('builder.resumeNever')}</option>
          <option value="hours">{t('builder.resumeHours')}</option>
          <option value="time">{t('builder.resumeAtTime')}</option>
        </Select>
      </MiniField>
      {mode === 'hours' && (
        <MiniField id={`${id}-resume-hours`} label={t('builder.resumeHoursValue')} error={error('.hours')}>
          <SmallInput
            fitted
            id={`${id}-resume-hours`}
            type="number"
            min={1}
            max={168}
            step={1}
            invalid={Boolean(error('.hours'))}
            {...register(field('hours'), number)}
          />
        </MiniField>
      )}
      {mode === 'time' && (
        <MiniField id={`${id}-resume-time`} label={t('builder.resumeTime')} error={error('.atLocalTime')}>
          <SmallInput
            id={`${id}-resume-time`}
            type="time"
            invalid={Boolean(error('.atLocalTime'))}
            {...register(field('atLocalTime'))}
          />
        </MiniField>
      )}
    </>
  );
}

export function ActionsEditor() {
  const { t } = useTranslation('rules');
  const { control, formState } = useFormContext<RuleFormValues>();
  const errorFor = useRuleError(formState.errors);
  const { fields, append, remove, update } = useFieldArray({ control, name: 'actions' });
  const { rowsRef, addRef, focusRow, focusAfterRemove } = useRowFocus(fields.length);
  const listError = errorFor('actions');
  return (
    <Section title={t('builder.actions')} description={t('builder.actionsHint')}>
      <div ref={rowsRef} className="space-y-3">
        {fields.map((field, index) => (
          <ActionRow
            key={field.id}
            index={index}
            onRemove={() => {
              focusAfterRemove(index);
              remove(index);
            }}
            onTypeChange={(type) => {
              // A new type is a new row (fresh fields): the type select it replaces keeps the focus.
              focusRow(index);
              update(index, actionOfType(type));
            }}
          />
        ))}
      </div>
      {listError && (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {listError}
        </p>
      )}
      <Button
        ref={addRef}
        size="sm"
        variant="secondary"
        onClick={() => {
          focusRow(fields.length);
          append(actionOfType('notify'));
        }}
      >
        <Plus aria-hidden="true" className="size-4" />
        {t('builder.addAction')}
      </Button>
    </Section>
  );
}
