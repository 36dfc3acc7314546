import type { ErrorEnvelope, FieldError } from '@adpilot/contracts';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError } from '../lib/app-error.ts';

/** The first problem per field, in order: the form under it shows one message per field. */
function toFieldErrors(
  validation: { instancePath: string; message?: string; keyword: string; params: unknown }[],
): FieldError[] {
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  for (const issue of validation) {
    const keys = issue.keyword === 'unrecognized_keys' ? (issue.params as { keys?: string[] }).keys : undefined;
    const field = keys?.join(',') || issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || 'body';
    if (seen.has(field)) continue;
    seen.add(field);
    errors.push({ field, message: issue.message ?? 'Invalid value' });
  }
  return errors;
}

/** Fastify's own client errors, by code: the status is right, the envelope and message are ours. */
const FASTIFY_CLIENT_ERRORS: Record<string, { code: ErrorEnvelope['code']; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'PAYLOAD_TOO_LARGE', message: 'Request body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Unsupported content type' },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    code: 'BAD_REQUEST',
    message: 'Request body must not be empty when the content type is JSON',
  },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'BAD_REQUEST', message: 'Request body is not valid JSON' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'BAD_REQUEST', message: 'Invalid Content-Length' },
};

/** One handler turns every error into the envelope; 5xx answers never carry internals. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      const body: ErrorEnvelope = {
        success: false,
        message: error.message,
        code: error.code,
        ...(error.errors ? { errors: error.errors } : {}),
      };
      return reply.status(error.statusCode).send(body);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = toFieldErrors(error.validation);
      return reply.status(400).send({
        success: false,
        message: errors[0]?.message ?? 'Invalid request',
        code: 'VALIDATION_ERROR',
        errors,
      } satisfies ErrorEnvelope);
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
      return reply
        .status(500)
        .send({ success: false, message: 'Internal server error', code: 'INTERNAL_ERROR' } satisfies ErrorEnvelope);
    }
    const status = error.statusCode ?? 500;
    if (status === 429) {
      return reply.status(429).send({
        success: false,
        message: 'Too many requests, please try again later',
        code: 'RATE_LIMITED',
      } satisfies ErrorEnvelope);
    }
    if (status >= 400 && status < 500) {
      const known = error.code ? FASTIFY_CLIENT_ERRORS[error.code] : undefined;
      const fallbackCode: ErrorEnvelope['code'] =
        status === 404
          ? 'NOT_FOUND'
          : status === 413
            ? 'PAYLOAD_TOO_LARGE'
            : status === 415
              ? 'UNSUPPORTED_MEDIA_TYPE'
              : 'BAD_REQUEST';
      const message =
        known?.message ?? (error instanceof SyntaxError ? 'Request body is not valid JSON' : error.message);
      return reply
        .status(status)
        .send({ success: false, message, code: known?.code ?? fallbackCode } satisfies ErrorEnvelope);
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply
      .status(status >= 500 && status < 600 ? status : 500)
      .send({ success: false, message: 'Internal server error', code: 'INTERNAL_ERROR' } satisfies ErrorEnvelope);
  });
}

/** The envelope of a 404 for an unknown route. */
export function notFoundEnvelope(method: string, url: string): ErrorEnvelope {
  return {
    success: false,
    message: `Route ${method} ${url.split('?')[0]?.slice(0, 200)} not found`,
    code: 'NOT_FOUND',
  };
}
