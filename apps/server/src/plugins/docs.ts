import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { JSON_DEPTH_MAX } from '@adpilot/contracts';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { APP_VERSION } from '../version.ts';
import { routeRole } from './authenticate.ts';
import { demoRefuses } from './demo-guard.ts';
import {
  ADMIN_PREFIXES,
  WORKSPACE_PREFIXES,
  OPERATION_ERRORS,
  OPTIONAL_AUTH_OPERATIONS,
  PUBLIC_OPERATIONS,
  errorDescription,
} from './docs-answers.ts';

const BEARER = [{ bearer: [] }];
/** Registered under this id in the contracts (`errorEnvelopeSchema`), so every error answer refers to one schema. */
const ERROR_ENVELOPE = { $ref: '#/components/schemas/ErrorEnvelope' };

type Transform = typeof jsonSchemaTransform;
type TransformObject = typeof jsonSchemaTransformObject;
type TransformInput = Parameters<Transform>[0] & { route?: RouteOptions };
type Answers = Record<string, unknown>;

/**
 * Who may call an operation and what it answers besides success (ADR 0062). Outside /api (the Meta sandbox) there is
 * no bearer token of ours; under it, a token unless `docs-answers.ts` lists the operation as public. Error answers
 * come from the operation's shape (any request → 400, token → 401, id in the path → 404 and 414, body → 413, a
 * method that carries one → 415, request budget → 429) and the table's refusals, each in the envelope.
 */
function documentOperation(input: TransformInput): ReturnType<Transform> {
  const transformed = jsonSchemaTransform(input);
  const schema = { ...(transformed.schema as Record<string, unknown>) };
  const { url } = transformed;
  const method = String(input.route?.method ?? '').toUpperCase();
  const key = `${method} ${url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`;
  if (schema.hide) return { schema, url };
  // A route of several methods (the sandbox's catch-all) is documented once for all of them.
  const methods = [input.route?.method ?? []].flat().map((one) => String(one).toUpperCase());
  const carriesBody = methods.some((one) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(one));
  const hasParams = /\/[:*]/.test(url);
  // The Meta sandbox stands in for Meta: its Graph tokens are not ours to document; its refusals are Meta's shapes.
  if (!url.startsWith('/api/')) {
    const sandbox = new Set([400, 404]);
    if (url.includes('/adsmanager')) sandbox.add(403);
    if (carriesBody) sandbox.add(415);
    const response = withErrors(schema.response, sandbox);
    if (!Object.keys(response).some((status) => status.startsWith('2')))
      response[200] = { description: 'What Meta would answer: a Graph object, a page or a file' };
    return { schema: { ...schema, security: [], response }, url };
  }

  const open = PUBLIC_OPERATIONS.has(key);
  const optional = OPTIONAL_AUTH_OPERATIONS.has(key);
  schema.security = open ? [] : optional ? [{}, ...BEARER] : BEARER;

  const statuses = new Set<number>(OPERATION_ERRORS[key] ?? []);
  // Any request may carry a body Fastify cannot read (broken JSON, too deep), whatever the operation's input.
  statuses.add(400);
  if (!open && !optional) statuses.add(401);
  if (ADMIN_PREFIXES.some((prefix) => `${url}/`.startsWith(prefix))) statuses.add(403);
  // A demo session's write, export or own-account read is refused whatever the route (ADR 0185).
  if (methods.some((one) => demoRefuses(one, url))) statuses.add(403);
  if (hasParams) {
    statuses.add(404);
    // A path parameter longer than the router's limit (errors.ts, 512 characters) is refused before the route.
    statuses.add(414);
  }
  if (WORKSPACE_PREFIXES.some((prefix) => `${url}/`.startsWith(prefix))) {
    statuses.add(404);
    if (routeRole(method, input.route?.config?.role) !== 'viewer') statuses.add(403);
  }
  if (schema.body !== undefined) statuses.add(413);
  // Fastify reads a body sent with any of these methods, and refuses one that is not JSON.
  if (carriesBody) statuses.add(415);
  if (input.route?.config?.rateLimit !== false) statuses.add(429);

  schema.response = withErrors(schema.response, statuses);
  return { schema, url };
}

/** The operation's answers with each of `statuses` added, in the envelope, where it does not describe it already. */
function withErrors(declared: unknown, statuses: Set<number>): Answers {
  const response: Answers = { ...(declared as Answers | undefined) };
  for (const status of [...statuses].sort((a, b) => a - b)) {
    response[status] ??= {
      description: errorDescription(status),
      content: { 'application/json': { schema: ERROR_ENVELOPE } },
    };
  }
  return response;
}

/**
 * OpenAPI 3.0 has no `null` type: zod's "always absent" (`z.undefined()`, a condition's `match` that tells it from a
 * group) comes out as one on the answers' side. Said as 3.0 says it: a property that never holds a value.
 */
function withoutNullTypes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNullTypes);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).map(([key, child]) => [key, withoutNullTypes(child)] as const);
  const object = Object.fromEntries(entries) as Record<string, unknown>;
  if (object.type !== 'null') return object;
  const { type: _null, ...rest } = object;
  return { ...rest, not: {} };
}

/** OpenAPI generated from the zod route schemas, browsable at /api/docs. */
export async function registerDocs(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'AdPilot API',
        version: APP_VERSION,
        description:
          'Every answer is `{ success, data }` or `{ success: false, message, code, errors? }`. A JSON body nested ' +
          `deeper than ${JSON_DEPTH_MAX} levels is refused with 400 \`BODY_TOO_DEEP\` before it is parsed.`,
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: BEARER,
    },
    transform: documentOperation,
    // Emits the schemas the contracts name (the recursive rule conditions and traces, the error envelope).
    transformObject: (input) => withoutNullTypes(jsonSchemaTransformObject(input)) as ReturnType<TransformObject>,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
}
