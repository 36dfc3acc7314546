import { RULE_MESSAGES } from '@adpilot/contracts';
import { useCallback } from 'react';
import { get, type FieldErrors } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { registerValidationCatalogue, useFieldErrorText } from '../../../lib/form-errors.ts';
import type { RuleFormValues } from '../lib/rule-form-values.ts';

// The rule builder's own texts, known to the field-error lookup once the builder is loaded (ADR 0138).
registerValidationCatalogue('rules', RULE_MESSAGES);

interface ErrorLike {
  type?: string;
  message?: string;
  root?: { type?: string; message?: string };
}

/**
 * The message under a builder field, in the page's language. Client checks come from the contracts' catalogue
 * (validation:rules.*). A server field error goes by its code; for the rule's own fields the page first looks up
 * `rules:fieldErrors.<field without indexes>.<CODE>` (e.g. an ad account that is not the caller's), then the
 * app's catalogue. An array's own error (RHF keeps it under `root`) counts as the field's.
 */
export function useRuleError(errors: FieldErrors<RuleFormValues>) {
  const errorText = useFieldErrorText();
  const { t, i18n } = useTranslation('rules');
  return useCallback(
    (path: string): string | undefined => {
      const raw = get(errors, path) as ErrorLike | ErrorLike[] | undefined;
      // A server error on one item of a plain list (scope.adAccountIds.0) is shown under the list.
      const root = (raw as ErrorLike | undefined)?.root;
      const found = Array.isArray(raw) ? raw.find((item) => item?.message) : raw;
      const error = root ?? (found?.message ? found : found?.root);
      if (!error?.message && !error?.type) return undefined;
      const plain = path.replace(/\.\d+(?=\.|$)/g, '');
      if (error.type && /^[A-Z_]+$/.test(error.type)) {
        const key = `fieldErrors.${plain}.${error.type}`;
        if (i18n.exists(`rules:${key}`)) return t(key);
      }
      return errorText({ type: error.type ?? '', message: error.message }, plain);
    },
    [errors, errorText, t, i18n],
  );
}
