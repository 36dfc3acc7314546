import { workspaceNameInputSchema, type WorkspaceNameInput } from '@adpilot/contracts';
import { useState } from 'react';
import { Field } from '../../../components/ui/field.tsx';
import { Input } from '../../../components/ui/input.tsx';

/** A workspace's name, as made in the switcher and renamed on the Members page: at most 80 characters. */
export function WorkspaceNameField(props: {
  id: string;
  label: string;
  value: string;
  /** The message to show when the name was refused, or undefined. */
  error: string | undefined;
  onChange: (name: string) => void;
}) {
  return (
    <Field id={props.id} label={props.label} error={props.error}>
      <Input
        id={props.id}
        value={props.value}
        maxLength={80}
        invalid={props.error !== undefined}
        onChange={(event) => props.onChange(event.target.value)}
      />
    </Field>
  );
}

/**
 * The name being typed and whether it was refused: `checked()` answers the valid input, or marks the field invalid
 * and answers null; typing again clears the mark.
 */
export function useWorkspaceName(initial: string) {
  const [name, setName] = useState(initial);
  const [invalid, setInvalid] = useState(false);
  return {
    name,
    invalid,
    change(next: string) {
      setName(next);
      setInvalid(false);
    },
    reset() {
      setName('');
      setInvalid(false);
    },
    checked(): WorkspaceNameInput | null {
      const parsed = workspaceNameInputSchema.safeParse({ name });
      if (!parsed.success) setInvalid(true);
      return parsed.success ? parsed.data : null;
    },
  };
}
