import { RULE_LIMITS, type RuleConditionItem } from '@adpilot/contracts';
import { FolderPlus, Plus, Trash2 } from 'lucide-react';
import { useId } from 'react';
import { useFieldArray, useFormContext, type FieldErrors, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../../components/ui/button.tsx';
import { useRuleError } from '../../hooks/use-rule-error.ts';
import { newCondition, newGroup, type RuleFormValues } from '../../lib/rule-form-values.ts';
import { ConditionRow } from './condition-row.tsx';
import { Select } from './controls.tsx';
import { useRowFocus } from './use-row-focus.ts';

type ItemsPath = 'conditions.items';

interface GroupEditorProps {
  /** "conditions", or the path of a nested group such as "conditions.items.1". */
  path: string;
  depth: number;
  /** The group's place among its parent's items (nested groups only). */
  position?: number;
  onRemove?: () => void;
}

/** One group: all/any over its items, each a condition or a nested group (at most three levels). */
export function GroupEditor({ path, depth, position = 1, onRemove }: GroupEditorProps) {
  const { t } = useTranslation('rules');
  const id = useId();
  const { register, control, formState } = useFormContext<RuleFormValues>();
  const errorFor = useRuleError(formState.errors as FieldErrors<RuleFormValues>);
  const itemsPath = `${path}.items` as ItemsPath;
  const { fields, append, remove } = useFieldArray({ control, name: itemsPath });
  const { rowsRef, addRef, focusRow, focusAfterRemove } = useRowFocus(fields.length);
  const itemsError = errorFor(itemsPath) ?? (depth === 1 ? errorFor('conditions') : undefined);
  const nested = depth > 1;

  const add = (item: RuleConditionItem) => {
    focusRow(fields.length);
    append(item);
  };
  const removeAt = (index: number) => {
    focusAfterRemove(index);
    remove(index);
  };

  return (
    <div
      role="group"
      aria-label={nested ? t('builderA11y.groupN', { n: position }) : t('builder.conditions')}
      className={
        nested
          ? 'space-y-3 rounded-lg border border-dashed border-blue-300 p-2 sm:p-3 dark:border-blue-800'
          : 'space-y-3'
      }
    >
      <div className="flex flex-wrap items-center gap-2 text-sm text-gray-700 dark:text-gray-300">
        <label htmlFor={`${id}-match`}>{t('builder.matchLabel')}</label>
        <Select id={`${id}-match`} {...register(`${path}.match` as Path<RuleFormValues>)}>
          <option value="all">{t('builder.matchAll')}</option>
          <option value="any">{t('builder.matchAny')}</option>
        </Select>
        {onRemove && (
          // Its visible words are its name; the group around it says which group.
          <Button size="sm" variant="ghost" className="ml-auto" onClick={onRemove}>
            <Trash2 aria-hidden="true" className="size-4 text-red-600 dark:text-red-400" />
            {t('builder.removeGroup')}
          </Button>
        )}
      </div>
      <div ref={rowsRef} className="space-y-3">
        {fields.map((field, index) => {
          const itemPath = `${itemsPath}.${index}`;
          return 'items' in (field as unknown as RuleConditionItem) ? (
            <GroupEditor
              key={field.id}
              path={itemPath}
              depth={depth + 1}
              position={index + 1}
              onRemove={() => removeAt(index)}
            />
          ) : (
            <ConditionRow key={field.id} path={itemPath} position={index + 1} onRemove={() => removeAt(index)} />
          );
        })}
      </div>
      {itemsError && (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {itemsError}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button ref={addRef} size="sm" variant="secondary" onClick={() => add(newCondition())}>
          <Plus aria-hidden="true" className="size-4" />
          {t('builder.addCondition')}
        </Button>
        {depth < RULE_LIMITS.groupDepthMax && (
          <Button size="sm" variant="secondary" onClick={() => add(newGroup())}>
            <FolderPlus aria-hidden="true" className="size-4" />
            {t('builder.addGroup')}
          </Button>
        )}
      </div>
    </div>
  );
}
