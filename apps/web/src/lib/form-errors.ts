import {
  AUTH_MESSAGES,
  ERROR_CODES,
  REPORT_SCHEDULE_MESSAGES,
  SETTINGS_MESSAGES,
  type ErrorCode,
} from '@adpilot/contracts';
import { useCallback } from 'react';
import type { FieldError, FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiError } from './api-client.ts';

function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}

/**
 * Puts a failed call's field errors under the form's inputs. Each is stored with the answer's `code` as its
 * type, so `useFieldErrorText` renders it from the code and the field, in the current language, and again
 * when the language changes. `codeFields` sends a code that names no field to one (EMAIL_TAKEN → email). An error
 * about one item of a list (`recipients.2`) lands on the list's field when the form has no field for the item.
 */
export function setServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
  codeFields: Partial<Record<ErrorCode, Path<T>>> = {},
): void {
  if (!(error instanceof ApiError) || !isErrorCode(error.code)) return;
  const code = error.code;
  const isField = (field: string): field is Path<T> => (fields as readonly string[]).includes(field);
  for (const { field, message } of error.errors) {
    const target = isField(field) ? field : field.split('.')[0];
    if (target !== undefined && isField(target)) setError(target, { type: code, message });
  }
  const routed = codeFields[code];
  if (routed) setError(routed, { type: code, message: error.message });
}

/*
 * A form's own validation runs the contracts' schemas, whose messages are the spec's English texts taken from
 * keyed catalogues. The catalogue key is what identifies a message; its translation lives under
 * `validation:<catalogue>.<key>`. A feature whose schema brings a new catalogue registers it with
 * `registerValidationCatalogue` from its own module (the rule builder its rules' texts), so no other page's
 * download carries it (ADR 0138).
 */
const validationKeys = new Map<string, string>();

/** Makes a catalogue's texts known to `useFieldErrorText` as `validation:<catalogue>.<key>`. */
export function registerValidationCatalogue(catalogue: string, messages: Readonly<Record<string, string>>): void {
  for (const [key, text] of Object.entries(messages)) validationKeys.set(text, `validation:${catalogue}.${key}`);
}

registerValidationCatalogue('auth', AUTH_MESSAGES);
registerValidationCatalogue('settings', SETTINGS_MESSAGES);
registerValidationCatalogue('reportSchedules', REPORT_SCHEDULE_MESSAGES);

/**
 * The text to show under a field: a server error by its code and field (`errors:fields.<field>.<CODE>`, else
 * `errors:codes.<CODE>`), a client-side check by its catalogue key; anything unknown as it came.
 */
export function useFieldErrorText(): (
  error: Pick<FieldError, 'type' | 'message'> | undefined,
  field: string,
) => string | undefined {
  const { t } = useTranslation(['errors', 'validation']);
  return useCallback(
    (error, field) => {
      if (!error) return undefined;
      if (isErrorCode(error.type)) {
        return t([`errors:fields.${field}.${error.type}`, `errors:codes.${error.type}`], {
          defaultValue: error.message,
        });
      }
      const key = error.message ? validationKeys.get(error.message) : undefined;
      return key ? t(key) : error.message;
    },
    [t],
  );
}
