import type { FieldError } from '@adpilot/contracts';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from '../../../lib/api-client.ts';

/** Puts the server's field errors (400 `errors`, 409 EMAIL_TAKEN) under the matching inputs. */
export function showServerFieldErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
): void {
  if (!(error instanceof ApiError)) return;
  const fieldErrors: FieldError[] = [...error.errors];
  if (error.code === 'EMAIL_TAKEN') fieldErrors.push({ field: 'email', message: error.message });
  const isField = (field: string): field is Path<T> => (fields as readonly string[]).includes(field);
  for (const { field, message } of fieldErrors) {
    if (isField(field)) setError(field, { type: 'server', message });
  }
}
