import type { ErrorCode, ErrorEnvelope, FieldError } from '@adpilot/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
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

/** The envelope code of a 4xx that carries none of its own (Fastify's, a plugin's, the static files'). */
const CODE_BY_STATUS: Partial<Record<number, ErrorCode>> = {
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

/** Told of each 5xx the handler answers: an AppError's code, or an unhandled error (a bug). */
export type ServerErrorObserver = (event: { code: ErrorCode; unhandled: boolean }) => void;

/** One handler turns every error into the envelope; 5xx answers never carry internals. */
export function registerErrorHandling(app: FastifyInstance, onServerError: ServerErrorObserver = () => {}): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      if (error.statusCode >= 500) onServerError({ code: error.code, unhandled: false });
      if (error.headers) reply.headers(error.headers);
      const body: ErrorEnvelope = {
        success: false,
        message: error.message,
        code: error.code,
        ...(error.errors ? { errors: error.errors } : {}),
        ...(error.params ? { params: error.params } : {}),
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
      onServerError({ code: 'INTERNAL_ERROR', unhandled: true });
      request.log.error({ err: error }, 'response did not match its schema');
      return reply
        .status(500)
        .send({ success: false, message: 'Internal server error', code: 'INTERNAL_ERROR' } satisfies ErrorEnvelope);
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const known = error.code ? FASTIFY_CLIENT_ERRORS[error.code] : undefined;
      const message =
        known?.message ?? (error instanceof SyntaxError ? 'Request body is not valid JSON' : error.message);
      return reply.status(status).send({
        success: false,
        message,
        code: known?.code ?? CODE_BY_STATUS[status] ?? 'BAD_REQUEST',
      } satisfies ErrorEnvelope);
    }
    onServerError({ code: 'INTERNAL_ERROR', unhandled: true });
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

/** Fastify answers these before any route or hook runs; the envelope is ours all the same. */
function frameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
  reply.status(tooLong ? 414 : 400).send({
    success: false,
    message: tooLong ? 'The address is too long' : 'The address is not valid',
    code: 'BAD_REQUEST',
  } satisfies ErrorEnvelope);
}

/** Node's HTTP parser refused the request (headers too large, malformed, too slow): answer in the envelope, close. */
function clientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request headers are too large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request timed out']
        : [400, 'Malformed request'];
  const body = JSON.stringify({ success: false, message, code: 'BAD_REQUEST' } satisfies ErrorEnvelope);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/**
 * Server options that keep answers Fastify gives on its own in the envelope. Path parameters may be long enough to
 * reach their schema (a 120-character id is an invalid id, a 400), and only beyond that is the address too long.
 */
export const envelopeServerOptions = {
  routerOptions: { maxParamLength: 512 },
  frameworkErrors: frameworkError,
  clientErrorHandler: clientError,
} satisfies Partial<FastifyServerOptions>;
