import { clsx } from 'clsx';
import { fieldErrorId } from '../../../components/ui/input.tsx';
import { ERROR_TEXT, TEXTAREA, TEXTAREA_INVALID } from './styles.ts';

/** The JSON box of the Analysis and Content tabs, with its error under it (described by it while there is one). */
export function JsonField(props: {
  id: string;
  rows: number;
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  error: string | null | undefined;
}) {
  const { id, rows, value, onChange, placeholder, error } = props;
  return (
    <>
      <textarea
        id={id}
        rows={rows}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder={placeholder}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? fieldErrorId(id) : undefined}
        className={clsx(TEXTAREA, error && TEXTAREA_INVALID)}
      />
      {error && (
        <p id={fieldErrorId(id)} className={ERROR_TEXT}>
          {error}
        </p>
      )}
    </>
  );
}
