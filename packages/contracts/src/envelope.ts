import { z } from 'zod';
import { ERROR_CODES } from './error-codes.ts';

/** Every successful answer of the API: `{ success: true, data }`. */
export function successEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), data });
}

export const fieldErrorSchema = z.object({ field: z.string(), message: z.string() });

/** A refusal's figures, for the web to say it in its own words (a plan limit: `{ plan, limit }`). */
export const errorParamsSchema = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]));

/** Every failed answer of the API. `errors` lists field-level problems of a 400; `params` the refusal's figures. */
export const errorEnvelopeSchema = z
  .object({
    success: z.literal(false),
    message: z.string(),
    code: z.enum(ERROR_CODES),
    errors: z.array(fieldErrorSchema).optional(),
    params: errorParamsSchema.optional(),
  })
  .meta({ id: 'ErrorEnvelope' });

export type FieldError = z.infer<typeof fieldErrorSchema>;
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;
export type ErrorParams = z.infer<typeof errorParamsSchema>;
export type SuccessEnvelope<T> = { success: true; data: T };
