import { REDACTED, SECRET_PARAMS, isSecretName, redactUrl } from '@adpilot/contracts';
import type { DestinationStream, LoggerOptions } from 'pino';

/**
 * Everything the server logs goes through these serializers: request URLs lose the values of secret parameters, and
 * errors lose parameter values (a failed query's parameters are e-mails, password hashes, tokens, mail bodies).
 */

const names = SECRET_PARAMS.join('|');
/** `name=value` in free text (a URL or a form body echoed in a message). */
const PARAM_IN_TEXT = new RegExp(`((?:^|[?&\\s])(?:${names})=)[^&#\\s"']*`, 'gi');
/** `"name":"value"` in free text (a JSON body echoed in a message). */
const JSON_IN_TEXT = new RegExp(`("(?:${names})"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, 'gi');
/** The parameter line Drizzle appends to a failed query's message. */
const QUERY_PARAMS_LINE = /\nparams: [^\n]*/g;
/** Postgres quotes the offending value at the end of some messages (`invalid input syntax for type uuid: "…"`). */
const TRAILING_VALUE = /: "(?:[^"]|"")*"$/;
/** The password in a URL's user information (`smtp://user:password@host`, a database URL). */
const URL_PASSWORD = /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/?#@]*:)[^\s/?#@]+@/gi;

export function redactSecretsInText(text: string): string {
  return text
    .replace(QUERY_PARAMS_LINE, '')
    .replace(URL_PASSWORD, `$1${REDACTED}@`)
    .replace(PARAM_IN_TEXT, `$1${REDACTED}`)
    .replace(JSON_IN_TEXT, `$1"${REDACTED}"`);
}

interface QueryError extends Error {
  query: string;
  params: unknown[];
}

/** Drizzle's wrapper around a failed statement: it carries the SQL and every parameter value. */
function isQueryError(error: Error): error is QueryError {
  return typeof (error as Partial<QueryError>).query === 'string' && Array.isArray((error as QueryError).params);
}

/** The driver's error (pg or PGlite): fields that name what failed, never the values that made it fail. */
function isDriverError(error: Error): boolean {
  return typeof (error as { severity?: unknown }).severity === 'string' && 'code' in error;
}
const DRIVER_FIELDS = ['code', 'severity', 'schema', 'table', 'column', 'dataType', 'constraint', 'routine'] as const;

const MAX_DEPTH = 4;

function redactValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return redactSecretsInText(value);
  if (value instanceof Error) return serializeError(value, depth + 1);
  if (!value || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[object]';
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, isSecretName(key) ? REDACTED : redactValue(item, depth + 1)]),
  );
}

function serializeError(error: Error, depth = 0): Record<string, unknown> {
  const type = error.constructor?.name ?? error.name;
  // Checked first: PGlite's driver errors carry `query` and `params` too.
  if (isDriverError(error)) {
    const out: Record<string, unknown> = { type, message: error.message.replace(TRAILING_VALUE, `: "${REDACTED}"`) };
    for (const field of DRIVER_FIELDS) {
      const value = (error as unknown as Record<string, unknown>)[field];
      if (value !== undefined) out[field] = value;
    }
    return out;
  }
  const message = isQueryError(error) ? `Failed query: ${error.query}` : redactSecretsInText(error.message);
  const out: Record<string, unknown> = { type, message };
  if (error.stack) out.stack = redactSecretsInText(error.stack.replace(error.message, message));
  if (!isQueryError(error)) {
    for (const [key, value] of Object.entries(error)) {
      if (key !== 'cause' && !(key in out)) out[key] = isSecretName(key) ? REDACTED : redactValue(value, depth);
    }
  }
  if (error.cause !== undefined && depth < MAX_DEPTH) {
    out.cause = error.cause instanceof Error ? serializeError(error.cause, depth + 1) : redactValue(error.cause, depth);
  }
  return out;
}

export const logSerializers = {
  req: (req: { method: string; url: string; ip?: string }) => ({
    method: req.method,
    url: redactUrl(req.url),
    ip: req.ip,
  }),
  err: redactError,
  error: redactError,
};

function redactError(error: unknown): unknown {
  return error instanceof Error ? serializeError(error) : redactValue(error, 0);
}

/** The options of every logger of the process (the server's and the jobs'), so each one redacts alike. */
export function logOptions(level: string, stream?: DestinationStream): LoggerOptions & { stream?: DestinationStream } {
  return { level, serializers: logSerializers, ...(stream ? { stream } : {}) };
}

/**
 * An error safe to keep: pg-boss stores a failed job's error (message, stack, its properties, its cause) in its own
 * table, where no log serializer sees it. The same redaction as the logs' `err`, as an Error pg-boss serializes.
 */
export function redactedError(error: unknown): Error {
  if (!(error instanceof Error))
    return Object.assign(new Error('The job failed with a value that is not an Error'), {
      value: redactValue(error, 0),
    });
  const { type: _type, message, stack, ...rest } = serializeError(error);
  const safe = new Error(String(message));
  safe.name = error.name;
  // A driver error is serialized without its stack: say what it was rather than point at this function.
  safe.stack = typeof stack === 'string' ? stack : `${error.name}: ${String(message)}`;
  return Object.assign(safe, rest);
}
