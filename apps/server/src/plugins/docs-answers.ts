/**
 * What the API document says about each operation beyond its zod schemas (ADR 0062): who may call it, and which
 * error answers it gives. Keys are `METHOD /path` as the document writes them. `openapi.test.ts` holds this table
 * to the server: every key names an operation, every operation without a bearer requirement answers a request
 * without a token, and every other one refuses it with a 401.
 */

/**
 * Operations anyone may call (no bearer token): signing in, recovery, health and readiness, Stripe's deliveries. The
 * Test page's are not among them: they are open only until the instance has an administrator (ADR 0086), and
 * documented as theirs.
 */
export const PUBLIC_OPERATIONS: ReadonlySet<string> = new Set([
  'GET /api/health',
  'GET /api/ready',
  'POST /api/auth/login',
  'POST /api/auth/register',
  'POST /api/auth/refresh',
  'POST /api/auth/forgot-password',
  'POST /api/auth/login-code',
  'POST /api/auth/reset-password',
  // Watch Demo: a read-only demo session without signing up (ADR 0185).
  'POST /api/demo/session',
  'POST /api/email-verification/confirm',
  'POST /api/billing/webhook',
  'GET /api/invitations/preview',
  'GET /api/proposal-links/{token}',
  'POST /api/proposal-links/{token}',
  'GET /api/mail/link',
  'POST /api/mail/confirm',
  'POST /api/mail/unsubscribe',
  // "Export my data": the e-mailed link's token is the credential (one download, 24 hours).
  'GET /api/account/export/{token}',
]);

/** Operations that take a token when there is one and work without it (logout ends the refresh token's session). */
export const OPTIONAL_AUTH_OPERATIONS: ReadonlySet<string> = new Set(['POST /api/auth/logout']);

/**
 * Subtrees that act on the current workspace (ADR 0070): the `X-Workspace-Id` header picks it, a workspace the user is
 * not a member of answers 404, and a role below the route's answers 403.
 */
export const WORKSPACE_PREFIXES: readonly string[] = [
  '/api/ad-accounts/',
  '/api/rules/',
  '/api/proposals/',
  '/api/logs/',
  '/api/reports/',
  '/api/ai/',
  '/api/subscription/',
  '/api/tokens/',
  '/api/entities/',
];

/**
 * Subtrees only the instance administrator may use: 403 for anyone else. The metrics also take the scraper's
 * METRICS_TOKEN (ADR 0084); they are no workspace's.
 */
export const ADMIN_PREFIXES: readonly string[] = ['/api/admin/', '/api/settings/', '/api/metrics/'];

/**
 * Error answers an operation gives beyond those its shape implies (the document adds 400 for any input, 401 behind a
 * token, 404 for an id in the path, 413 and 415 for a body, 429 for the request budget): refusals by the plan,
 * conflicts with the current state, a model's or Meta's or Stripe's failure.
 */
export const OPERATION_ERRORS: Readonly<Record<string, readonly number[]>> = {
  'POST /api/auth/register': [409],
  'POST /api/demo/session': [502, 503],
  'POST /api/auth/login': [401],
  'POST /api/auth/refresh': [401, 409],
  'POST /api/account/password': [403],
  'DELETE /api/account/': [403, 409],
  'POST /api/ad-accounts/connect': [403, 409, 502],
  'POST /api/ad-accounts/facebook/callback': [403, 409, 502],
  'POST /api/ad-accounts/{id}/sync': [409],
  'POST /api/rules/': [403],
  'PATCH /api/rules/{id}': [403],
  'POST /api/rules/{id}/toggle': [403],
  'POST /api/rules/{id}/run': [403, 409],
  'POST /api/rules/actions/{actionId}/revert': [403, 409, 502],
  'POST /api/rules/holds/{actionId}/resume': [403, 409],
  'POST /api/rules/runs/{runId}/approve-all': [502],
  'POST /api/proposals/{id}/approve': [409, 502],
  'POST /api/proposals/{id}/reject': [409],
  'POST /api/notifications/email/verification': [409],
  'POST /api/notifications/test': [409],
  'POST /api/email-verification/confirm': [409],
  'GET /api/diagnostics/': [403],
  'POST /api/diagnostics/tests/{test}': [403],
  'POST /api/reports/schedules/': [409],
  'POST /api/ai/analyze-performance': [502],
  'POST /api/ai/generate-strategy': [502],
  'POST /api/ai/generate-ad-copy': [502],
  'POST /api/ai/chat': [502],
  'POST /api/ai/draft-rule': [422, 502],
  'POST /api/subscription/upgrade': [403, 409, 502],
  'POST /api/subscription/portal': [409, 502],
  'POST /api/subscription/cancel': [403, 409, 502],
  'PUT /api/admin/workspaces/{workspaceId}/plan': [409],
  'POST /api/workspaces/': [409],
  'PATCH /api/workspaces/{id}': [403],
  'DELETE /api/workspaces/{id}': [403, 409],
  'PATCH /api/workspaces/{id}/members/{userId}': [403, 409],
  'DELETE /api/workspaces/{id}/members/{userId}': [403, 409],
  'POST /api/workspaces/{id}/invitations': [403, 409],
  'GET /api/workspaces/{id}/invitations': [403],
  'DELETE /api/workspaces/{id}/invitations/{invitationId}': [403],
  'PUT /api/workspaces/{id}/agent-policy': [403],
  'POST /api/tokens/': [409],
  'POST /api/workspaces/{id}/invitations/{invitationId}/resend': [403, 409],
  'GET /api/invitations/preview': [404, 409],
  'POST /api/invitations/accept': [404, 409],
  'GET /api/proposal-links/{token}': [403, 404],
  'POST /api/proposal-links/{token}': [403, 404, 409, 502],
  // Not configured on this instance: no such endpoint.
  'POST /api/billing/webhook': [404],
};

const DESCRIPTIONS: Record<number, string> = {
  400: 'The request is not valid: a field, the JSON itself, or a body nested too deep (`errors` names the fields)',
  401: 'No valid session: sign in, or refresh the access token',
  403: 'Not allowed: the workspace role needed, the plan’s limit, a read-only account, or an administrator’s operation',
  404: 'Not found, or not yours (an id of another workspace, or a workspace you are not a member of)',
  409: 'Conflicts with the current state',
  413: 'The body is larger than 1 MB',
  414: 'A path parameter is longer than any id or token (512 characters)',
  415: 'The body is not JSON',
  422: 'Understood, but the model could not use it',
  429: 'Too many requests (the request budget, sign-in attempts, or the plan’s AI requests); see Retry-After',
  502: 'An outside service (Meta, Stripe, the AI model) failed to answer',
};

export function errorDescription(status: number): string {
  return DESCRIPTIONS[status] ?? 'Error';
}
