import type { ErrorCode, ErrorParams, FieldError } from '@adpilot/contracts';

/** The one error type services throw; the error handler turns it into the envelope. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly statusCode: number,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
    /** The refusal's figures, answered as the envelope's `params` (e.g. a plan limit's plan and limit). */
    readonly params?: ErrorParams,
  ) {
    super(message);
    this.name = 'AppError';
  }

  static badRequest(message: string, code: ErrorCode = 'BAD_REQUEST') {
    return new AppError(code, message, 400);
  }
  static unauthorized(message = 'Authentication required', code: ErrorCode = 'UNAUTHORIZED') {
    return new AppError(code, message, 401);
  }
  static forbidden(message = 'You do not have access to this resource') {
    return new AppError('FORBIDDEN', message, 403);
  }
  static notFound(message = 'Not found') {
    return new AppError('NOT_FOUND', message, 404);
  }
  static conflict(message: string, code: ErrorCode = 'CONFLICT') {
    return new AppError(code, message, 409);
  }
  static tooManyRequests(message: string, retryAfterSeconds: number, code: ErrorCode = 'RATE_LIMITED') {
    return new AppError(code, message, 429, undefined, {
      'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))),
    });
  }
}
