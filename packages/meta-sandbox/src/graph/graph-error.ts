/** A Graph API error answer: what Meta puts under `error`, plus the HTTP status and extra headers. */
export class GraphError extends Error {
  readonly status: number;
  readonly code: number;
  readonly subcode: number | undefined;
  readonly type: string;
  readonly userTitle: string | undefined;
  readonly userMessage: string | undefined;
  readonly isTransient: boolean;
  readonly headers: Record<string, string>;

  constructor(init: {
    message: string;
    code: number;
    subcode?: number;
    type?: string;
    status?: number;
    userTitle?: string;
    userMessage?: string;
    isTransient?: boolean;
    headers?: Record<string, string>;
  }) {
    super(init.message);
    this.name = 'GraphError';
    this.status = init.status ?? 400;
    this.code = init.code;
    this.subcode = init.subcode;
    this.type = init.type ?? 'OAuthException';
    this.userTitle = init.userTitle;
    this.userMessage = init.userMessage;
    this.isTransient = init.isTransient ?? false;
    this.headers = init.headers ?? {};
  }

  toBody(fbtraceId: string): { error: Record<string, unknown> } {
    const error: Record<string, unknown> = { message: this.message, type: this.type, code: this.code };
    if (this.subcode !== undefined) error.error_subcode = this.subcode;
    error.is_transient = this.isTransient;
    if (this.userTitle) error.error_user_title = this.userTitle;
    if (this.userMessage) error.error_user_msg = this.userMessage;
    error.fbtrace_id = fbtraceId;
    return { error };
  }
}

export function invalidParameter(message: string, subcode?: number, userMessage?: string): GraphError {
  return new GraphError({
    message: `(#100) ${message}`,
    code: 100,
    ...(subcode !== undefined ? { subcode } : {}),
    ...(userMessage ? { userMessage } : {}),
  });
}

/** Meta answers the same for an id that does not exist and one the caller may not see, so nothing leaks. */
export function unsupportedRequest(method: string, id: string): GraphError {
  return new GraphError({
    message: `Unsupported ${method.toLowerCase()} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api`,
    code: 100,
    subcode: 33,
    type: 'GraphMethodException',
  });
}

export function nonexistingField(field: string, nodeType: string): GraphError {
  return invalidParameter(`Tried accessing nonexisting field (${field}) on node type (${nodeType})`);
}

export function missingPermission(permission: string): GraphError {
  return new GraphError({ message: `(#200) Requires ${permission} permission to manage the object`, code: 200 });
}

/**
 * The Graph protocol features Meta closed to apps created from 4 November 2026 on every version (Graph API v27.0
 * changelog): multi-ID reads, field aliases, HTTP method override, JSONP callbacks and date/time formatting. The
 * sandbox behaves as such a new app, so a client that brings one back fails its tests. Meta refuses a retired
 * feature with code 12 (its "deprecated" code, HTTP 400, OAuthException); the wording is the sandbox's (ADR 0120).
 */
export type LegacyFeature = 'multi_id' | 'field_alias' | 'method_override' | 'jsonp' | 'date_format';

const LEGACY_FEATURE_NAMES: Record<LegacyFeature, string> = {
  multi_id: 'Multi-ID requests (ids)',
  field_alias: 'Field aliases (.as)',
  method_override: 'HTTP method override (method)',
  jsonp: 'JSONP callbacks (callback)',
  date_format: 'Date/time formatting (date_format)',
};

export function legacyFeatureRefused(feature: LegacyFeature): GraphError {
  return new GraphError({
    message: `(#12) ${LEGACY_FEATURE_NAMES[feature]} are not available to apps created on or after November 4, 2026, on any Graph API version. Request each object on its own or in a batch request.`,
    code: 12,
  });
}
