import SwaggerParser from '@apidevtools/swagger-parser';
import { errorEnvelopeSchema } from '@adpilot/contracts';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerUser, type TestApp } from '../test/test-app.ts';
import { OPERATION_ERRORS, OPTIONAL_AUTH_OPERATIONS, PUBLIC_OPERATIONS } from './docs-answers.ts';

interface DocumentedOperation {
  security?: Record<string, string[]>[];
  requestBody?: unknown;
  parameters?: { in: string; name: string; required?: boolean; schema?: Record<string, unknown> }[];
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, DocumentedOperation>>;
  components: { schemas: Record<string, unknown> };
}

let t: TestApp;
let auth: Record<string, string>;
let document: Document;
beforeAll(async () => {
  // The request budget is off, so every request reaches the route it is meant for.
  t = await createTestApp({ RATE_LIMIT_MAX: '0' });
  await registerUser(t.app); // the first user is the administrator; the operations are driven as a member
  auth = (await registerUser(t.app)).auth;
  document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
});
afterAll(() => t.close());

/** Every operation of the API (the Meta sandbox stands in for Meta and is fuzzed, not documented as ours). */
function apiOperations() {
  return Object.entries(document.paths)
    .flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({
        key: `${method.toUpperCase()} ${path}`,
        method,
        path,
        operation,
      })),
    )
    .filter((entry) => entry.path.startsWith('/api/'));
}

const isSecured = (operation: DocumentedOperation) =>
  operation.security !== undefined &&
  operation.security.length > 0 &&
  !operation.security.some((s) => Object.keys(s).length === 0);

describe('GET /api/docs/json', () => {
  it('validates as OpenAPI 3 with no dangling reference', async () => {
    expect(document.openapi).toMatch(/^3\./);
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
    // The recursions the rules use are defined, once, under their names.
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(['RuleConditionItemInput', 'RuleConditionItem', 'GroupTrace', 'ErrorEnvelope']),
    );
  });

  it('names only operations it has in the table of public operations and refusals', () => {
    const keys = new Set(apiOperations().map((entry) => entry.key));
    for (const key of [...PUBLIC_OPERATIONS, ...OPTIONAL_AUTH_OPERATIONS, ...Object.keys(OPERATION_ERRORS)]) {
      expect(keys, key).toContain(key);
    }
  });

  it('says what the server enforces: e-mail format, control characters, the years a date may have', () => {
    const register = document.paths['/api/auth/register']?.post?.requestBody as {
      content: {
        'application/json': { schema: { properties: Record<string, { format?: string; pattern?: string }> } };
      };
    };
    const { email, name } = register.content['application/json'].schema.properties;
    expect(email?.format).toBe('email');
    expect(new RegExp(name?.pattern ?? '').test('a\u0000b')).toBe(false);
    expect(new RegExp(name?.pattern ?? '').test('Ådpilot ไทย')).toBe(true);
    const from = document.paths['/api/reports/']?.get?.parameters?.find((parameter) => parameter.name === 'from')
      ?.schema as { format: string; allOf: { pattern: string }[] };
    expect(from.format).toBe('date');
    expect(from.allOf.map((part) => new RegExp(part.pattern).test('1999-12-31'))).toContain(false);
  });

  it('describes the log export as a CSV text or a JSON array of entries, as it is sent', () => {
    const answer = document.paths['/api/logs/export']?.get?.responses['200'];
    expect(answer?.content?.['text/csv']?.schema).toMatchObject({ type: 'string' });
    expect(answer?.content?.['application/json']?.schema).toMatchObject({
      type: 'array',
      items: { type: 'object', properties: { _id: expect.anything(), code: expect.anything() } },
    });
  });

  it('every error answer is the envelope', () => {
    for (const { key, operation } of apiOperations()) {
      for (const [status, answer] of Object.entries(operation.responses)) {
        // A degraded health check (503) is its own answer, the health report; every refusal is the envelope.
        if (Number(status) < 400 || status === '503') continue;
        expect(answer.content?.['application/json']?.schema, `${key} ${status}`).toEqual({
          $ref: '#/components/schemas/ErrorEnvelope',
        });
      }
    }
  });
});

/** The operation's path with every parameter replaced, and the request without a session or with the member's. */
function requestOf(path: string, method: string, headers: Record<string, string>, payload?: string): InjectOptions {
  return {
    method: method.toUpperCase() as InjectOptions['method'],
    url: path.replace(/\{[^}]+\}/g, 'not-an-id'),
    headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    ...(payload === undefined ? {} : { payload }),
  };
}

/** The probes answer their report in the success envelope whatever their status: a 503 names what is down. */
const PROBES = new Set(['GET /api/health', 'GET /api/ready']);

describe('every operation, driven from the document', () => {
  it('asks for a bearer token exactly where the document says so', async () => {
    const wrong: string[] = [];
    for (const { key, method, path, operation } of apiOperations()) {
      const answer = await t.app.inject(requestOf(path, method, {}, operation.requestBody ? '{}' : undefined));
      if (isSecured(operation) !== (answer.statusCode === 401)) wrong.push(`${key}: ${answer.statusCode}`);
    }
    expect(wrong).toEqual([]);
  });

  it('answers a minimal invalid request in the envelope with one of its documented statuses', async () => {
    const wrong: string[] = [];
    for (const { key, method, path, operation } of apiOperations()) {
      const hasParams = /\{[^}]+\}/.test(path);
      // A body that is not an object, else an id that is none, else no session; a public operation without input
      // is asked as it is.
      const request = operation.requestBody
        ? requestOf(path, method, auth, '[]')
        : hasParams
          ? requestOf(path, method, auth)
          : requestOf(path, method, isSecured(operation) ? {} : auth);
      const answer = await t.app.inject({ ...request, payloadAsStream: false });
      const documented = Object.keys(operation.responses);
      if (!documented.includes(String(answer.statusCode))) {
        wrong.push(`${key}: ${answer.statusCode} not in ${documented.join(',')}`);
        continue;
      }
      const body: unknown = answer.json();
      const envelope =
        answer.statusCode >= 400 && !PROBES.has(key)
          ? errorEnvelopeSchema.safeParse(body).success
          : typeof body === 'object' && body !== null && 'success' in body && body.success === true;
      if (!envelope) wrong.push(`${key}: ${answer.statusCode} ${answer.body.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
  });
});
