import { useState, type ComponentProps } from 'react';
import { SmallInput } from './controls.tsx';

interface NumberBoxProps extends Omit<ComponentProps<'input'>, 'value' | 'onChange' | 'type'> {
  value: number | undefined;
  onValueChange: (value: number) => void;
  invalid?: boolean;
}

function toText(value: number | undefined): string {
  return value === undefined || Number.isNaN(value) ? '' : String(value);
}

/**
 * A number input for values held inside a larger shape (a range's ends, a factor). It keeps the typed text while
 * it is half-written ("0.", "-") and reports NaN for an empty box, which the schema refuses with its own message.
 * It sits in a sentence row, so it is as wide as its number rather than the row.
 */
export function NumberBox({ value, onValueChange, ...props }: NumberBoxProps) {
  const [text, setText] = useState(() => toText(value));
  const parsed = text.trim() === '' ? Number.NaN : Number(text);
  // Follow a change made from outside (an operator switch), but not the echo of what is being typed.
  const shown =
    Object.is(parsed, value ?? Number.NaN) || (Number.isNaN(parsed) && value === undefined) ? text : toText(value);
  return (
    <SmallInput
      fitted
      type="number"
      step="any"
      inputMode="decimal"
      value={shown}
      onChange={(event) => {
        setText(event.target.value);
        onValueChange(event.target.value.trim() === '' ? Number.NaN : Number(event.target.value));
      }}
      {...props}
    />
  );
}
