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
