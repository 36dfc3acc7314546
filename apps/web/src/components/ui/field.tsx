import type { ReactNode } from 'react';
import { fieldErrorId } from './input.tsx';

interface FieldProps {
  /** The id of the control inside, which the label and the error message refer to. */
  id: string;
  label: ReactNode;
  error?: string;
  children: ReactNode;
}

/** A label above a control and its validation message below. */
export function Field({ id, label, error, children }: FieldProps) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-gray-700 dark:text-gray-300">
        {label}
      </label>
      <div className="mt-1">{children}</div>
      {error && (
        <p id={fieldErrorId(id)} className="mt-1 text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}
