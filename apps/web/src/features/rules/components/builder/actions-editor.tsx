import { RULE_ACTION_TYPES, type RuleAction, type RuleActionType } from '@adpilot/contracts';
import { Plus, Trash2 } from 'lucide-react';
import { useId } from 'react';
import { useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../../components/ui/button.tsx';
import { useRuleError } from '../../hooks/use-rule-error.ts';
import { actionOfType, type RuleFormValues } from '../../lib/rule-form.ts';
import { MiniField, Options, Section, Select, SmallInput } from './controls.tsx';

const number = { valueAsNumber: true } as const;

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
  const { register, control, formState } = useFormContext<RuleFormValues>();
  const errorFor = useRuleError(formState.errors);
  const action = useWatch({ control, name: `actions.${index}` }) as RuleAction;
  const at = <K extends string>(field: K) => `actions.${index}.${field}` as `actions.${number}.type`;

  return (
    <div
      role="group"
      aria-label={t('builder.action')}
      className="grid grid-cols-2 gap-3 rounded-lg border border-gray-200 bg-gray-50 p-3 sm:grid-cols-6 dark:border-gray-700 dark:bg-gray-800/50"
    >
      <MiniField
        id={`${id}-type`}
        label={t('builder.actionType')}
        error={errorFor(`actions.${index}.type`)}
        className="sm:col-span-2"
      >
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
          <MiniField id={`${id}-by`} label={t('builder.by')} error={errorFor(`actions.${index}.by`)}>
            <SmallInput
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
          <MiniField id={`${id}-ceiling`} label={t('builder.ceiling')} error={errorFor(`actions.${index}.ceiling`)}>
            <SmallInput
              id={`${id}-ceiling`}
              type="number"
              step="any"
              invalid={Boolean(errorFor(`actions.${index}.ceiling`))}
              {...register(at('ceiling'), number)}
            />
          </MiniField>
          <MiniField id={`${id}-floor`} label={t('builder.floor')} error={errorFor(`actions.${index}.floor`)}>
            <SmallInput
              id={`${id}-floor`}
              type="number"
              step="any"
              invalid={Boolean(errorFor(`actions.${index}.floor`))}
              {...register(at('floor'), number)}
            />
          </MiniField>
        </>
      )}
      {action.type === 'set_budget' && (
        <MiniField
          id={`${id}-amount`}
          label={t('builder.amount')}
          error={errorFor(`actions.${index}.amount`)}
          className="sm:col-span-3"
        >
          <SmallInput
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
          className="sm:col-span-3"
        >
          <SmallInput
            id={`${id}-message`}
            invalid={Boolean(errorFor(`actions.${index}.message`))}
            {...register(at('message'))}
          />
        </MiniField>
      )}
      <div className="col-span-2 flex items-end justify-end sm:col-span-1 sm:col-start-6">
        <Button size="sm" variant="ghost" aria-label={t('builder.removeAction')} onClick={onRemove}>
          <Trash2 aria-hidden="true" className="size-4 text-red-600 dark:text-red-400" />
        </Button>
      </div>
    </div>
  );
}

export function ActionsEditor() {
  const { t } = useTranslation('rules');
  const { control, formState } = useFormContext<RuleFormValues>();
  const errorFor = useRuleError(formState.errors);
  const { fields, append, remove, update } = useFieldArray({ control, name: 'actions' });
  const listError = errorFor('actions');
  return (
    <Section title={t('builder.actions')} description={t('builder.actionsHint')}>
      {fields.map((field, index) => (
        <ActionRow
          key={field.id}
          index={index}
          onRemove={() => remove(index)}
          onTypeChange={(type) => update(index, actionOfType(type))}
        />
      ))}
      {listError && (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {listError}
        </p>
      )}
      <Button size="sm" variant="secondary" onClick={() => append(actionOfType('notify'))}>
        <Plus aria-hidden="true" className="size-4" />
        {t('builder.addAction')}
      </Button>
    </Section>
  );
}
