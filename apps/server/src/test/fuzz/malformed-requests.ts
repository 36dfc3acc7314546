import type { InjectOptions } from 'fastify';
import type { JsonSchema, Operation } from './openapi.ts';
import type { Random } from './random.ts';

/** What a request may carry that the fuzzer cannot make up: real ids and live sessions. */
export interface FuzzContext {
  ownedIds: string[];
  /** Authorization headers of live sessions (a member, an admin). */
  sessions: Record<string, string>[];
}

const HUGE = 'x'.repeat(100_000);

/** Strings that have broken servers: control characters, broken UTF-16, odd unicode, injection and path tricks. */
const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0007\u001b[31mred\u001b[0m',
  '\r\n\t',
  '\ud800',
  'x\udfffy',
  '\u202eevil',
  '\ufeffbom',
  '\uffff\ufffe',
  'z\u0301\u0302\u0303\u0304\u0305\u0306\u0307\u0308',
  '🚀'.repeat(300),
  'ไทย ภาษา',
  '\u200b\u200c\u200d',
  '%00',
  '%ZZ',
  '../../../etc/passwd',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '__proto__',
  '9'.repeat(400),
  '1e999',
  '-0',
  'NaN',
  '0000-01-01',
  '9999-12-31',
  '2023-02-30',
  '00000000-0000-0000-0000-000000000000',
  'x'.repeat(5_000),
];

const NASTY_VALUES: unknown[] = [
  ...NASTY_STRINGS,
  HUGE,
  null,
  0,
  -1,
  1.5,
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER + 2,
  true,
  false,
  [],
  [1, 'two', null],
  {},
  { $gt: '' },
  JSON.parse('{"__proto__":{"polluted":true}}'),
];

/** Bodies no JSON schema describes: broken, empty, hostile, or not JSON at all. */
const RAW_BODIES: (string | Buffer)[] = [
  '',
  '{',
  '{"a":',
  '}',
  'null',
  '[]',
  '"text"',
  '42',
  'true',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"a":1,"a":2}',
  '\ufeff{}',
  '{"\\u0000":"\\u0000"}',
  '{"x":"\\ud800"}',
  '['.repeat(20_000) + ']'.repeat(20_000),
  `{"x":${'1'.repeat(5_000)}}`,
  Buffer.from([0xff, 0xfe, 0x7b, 0x7d]),
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]),
];

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'application/json;;;',
  'APPLICATION/JSON',
  'text/plain',
  'text/html',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=fuzz',
  'application/xml',
  'application/octet-stream',
  'application/vnd.api+json',
  '*/*',
  'fuzz',
];

/** Path parameter values, already in their on-the-wire form. */
const BAD_PATH_VALUES = [
  'not-a-uuid',
  '%ZZ',
  '%',
  '%E0%A4%A',
  '%00',
  '%C0%AF',
  '%ED%A0%80',
  '%F0%9F%9A%80',
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e',
  'a'.repeat(101),
  'a'.repeat(600),
  '1'.repeat(40),
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  'DROP%20TABLE%20users',
  '%3Cscript%3E',
  '__proto__',
  'constructor',
];

const BAD_QUERY_VALUES = [...NASTY_STRINGS, '-1', '0', '1.5', '1e3', '201', '50x', 'true', '[]', '{}'];

/** Percent-encodes text; broken UTF-16 cannot be, so it goes as the bytes of an encoded surrogate. */
function encode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return encodeURIComponent(value.replace(/[\ud800-\udfff]/g, '')) + '%ED%A0%80';
  }
}

/** A value that satisfies the schema as far as is cheap to tell: mutations of it reach deeper than pure noise. */
export function plausibleValue(schema: JsonSchema, name: string, random: Random, context: FuzzContext): unknown {
  const variant = schema.anyOf?.[0] ?? schema.oneOf?.[0];
  if (variant) return plausibleValue(variant, name, random, context);
  if (schema.enum?.length) return random.pick(schema.enum);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([key, value]) => [
          key,
          plausibleValue(value, key, random, context),
        ]),
      );
    case 'array':
      return schema.items ? [plausibleValue(schema.items, name, random, context)] : [];
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return random.chance(0.5);
    default:
      if (schema.format === 'uuid') return random.pick([...context.ownedIds, random.uuid()]);
      if (schema.format === 'date') return '2024-01-31';
      if (/e-?mail/i.test(name)) return `fuzz${random.int(1_000_000)}@example.com`;
      if (/password/i.test(name)) return 'Sup3rSecret!';
      return 'fuzz'.padEnd(Math.max(schema.minLength ?? 1, 4), 'z');
  }
}

function mutateBody(schema: JsonSchema | undefined, random: Random, context: FuzzContext): unknown {
  const base = schema ? plausibleValue(schema, 'body', random, context) : {};
  if (typeof base !== 'object' || base === null || Array.isArray(base)) return random.pick(NASTY_VALUES);
  const body = { ...(base as Record<string, unknown>) };
  const keys = Object.keys(body);
  // One field wrong is the likeliest: it is what gets past the schema into services and the database.
  switch (random.pick(['one', 'one', 'several', 'missing', 'extra'] as const)) {
    case 'one':
      body[keys.length ? random.pick(keys) : 'field'] = random.pick(NASTY_VALUES);
      return body;
    case 'several':
      for (const key of keys) if (random.chance(0.5)) body[key] = random.pick(NASTY_VALUES);
      return body;
    case 'missing':
      if (keys.length) delete body[random.pick(keys)];
      return body;
    case 'extra':
      body[random.pick(['isAdmin', 'role', 'userId', '__proto__', 'constructor', random.pick(NASTY_STRINGS)])] =
        random.pick(NASTY_VALUES);
      return body;
  }
}

function pathOf(operation: Operation, random: Random, context: FuzzContext): string {
  return operation.path.replace(/\{([^}]+)\}/g, () =>
    random.chance(0.3)
      ? random.pick([...context.ownedIds, random.uuid()])
      : random.chance(0.8)
        ? random.pick(BAD_PATH_VALUES)
        : encode(random.pick(NASTY_STRINGS)) || 'empty',
  );
}

function queryOf(operation: Operation, random: Random): string {
  const names = Object.keys(operation.query);
  const pairs: string[] = [];
  for (const name of names) {
    if (random.chance(0.3)) continue;
    const value = random.pick(BAD_QUERY_VALUES);
    pairs.push(`${name}=${random.chance(0.9) ? encode(value) : value}`);
    if (random.chance(0.1)) pairs.push(`${name}=${encode(random.pick(BAD_QUERY_VALUES))}`);
  }
  if (random.chance(0.3)) {
    pairs.push(
      random.pick([
        'unknown=1',
        '__proto__[polluted]=1',
        'constructor[prototype][polluted]=1',
        `${names[0] ?? 'limit'}[]=1`,
        `${names[0] ?? 'limit'}[a]=1`,
        '%ZZ=%ZZ',
        `q=${'a'.repeat(8_000)}`,
        '&&&==',
      ]),
    );
  }
  return pairs.length ? `?${pairs.join('&')}` : '';
}

function authorizationOf(random: Random, context: FuzzContext): Record<string, string> {
  const forged = (claims: object) =>
    [{ alg: 'none', typ: 'JWT' }, claims].map((part) => Buffer.from(JSON.stringify(part)).toString('base64url'));
  const roll = random.int(10);
  if (roll < 4 && context.sessions.length) return random.pick(context.sessions);
  if (roll < 7) return {};
  return {
    authorization: random.pick([
      'Bearer garbage',
      'Bearer a.b.c',
      'Bearer ',
      'Bearer',
      `Bearer ${'x'.repeat(5_000)}`,
      'Basic Zm9vOmJhcg==',
      `Bearer ${forged({ sub: random.uuid(), role: 'admin' }).join('.')}.`,
      `Bearer ${forged({ sub: random.uuid(), role: 'admin', exp: 9_999_999_999 }).join('.')}.c2ln`,
    ]),
  };
}

/**
 * Every nasty value in every body field, query parameter and path parameter, one at a time, with a live session,
 * a real id and the other fields plausible: the requests most likely to get past the schema and into the code.
 */
export function* sweepRequests(operation: Operation, random: Random, context: FuzzContext): Generator<InjectOptions> {
  let turn = 0;
  const headers = () => ({ ...(context.sessions[turn++ % context.sessions.length] ?? {}) });
  const plausiblePath = () =>
    operation.path.replace(/\{[^}]+\}/g, () => random.pick(context.ownedIds.length ? context.ownedIds : ['x']));
  for (const name of operation.pathParams) {
    for (const value of BAD_PATH_VALUES) {
      const url = operation.path.replace(/\{([^}]+)\}/g, (_placeholder, param: string) =>
        param === name ? value : random.pick(context.ownedIds.length ? context.ownedIds : ['x']),
      );
      yield { method: operation.method, url, headers: headers() };
    }
  }
  for (const name of Object.keys(operation.query)) {
    for (const value of BAD_QUERY_VALUES) {
      yield { method: operation.method, url: `${plausiblePath()}?${name}=${encode(value)}`, headers: headers() };
    }
  }
  const base = operation.body && plausibleValue(operation.body, 'body', random, context);
  if (typeof base !== 'object' || base === null || Array.isArray(base)) return;
  for (const key of Object.keys(base)) {
    for (const value of NASTY_VALUES) {
      yield {
        method: operation.method,
        url: plausiblePath(),
        headers: { ...headers(), 'content-type': 'application/json' },
        payload: JSON.stringify({ ...base, [key]: value }),
      };
    }
  }
}

/** One malformed request for an operation: a bad part or several, the rest as plausible as the schema allows. */
export function malformedRequest(operation: Operation, random: Random, context: FuzzContext): InjectOptions {
  const headers: Record<string, string> = { ...authorizationOf(random, context) };
  const request: InjectOptions = {
    method: random.chance(0.03) ? random.pick(['PUT', 'OPTIONS', 'PATCH', 'DELETE']) : operation.method,
    url: pathOf(operation, random, context) + queryOf(operation, random),
    headers,
  };
  const hasBody = operation.method !== 'GET' && operation.method !== 'DELETE';
  if (!hasBody && random.chance(0.85)) return request;
  const bodyKind = random.int(10);
  if (bodyKind < 6) {
    request.payload = JSON.stringify(mutateBody(operation.body, random, context));
    headers['content-type'] = random.chance(0.8) ? 'application/json' : random.pick(CONTENT_TYPES);
  } else if (bodyKind < 9) {
    request.payload = random.pick(RAW_BODIES);
    headers['content-type'] = random.chance(0.7) ? 'application/json' : random.pick(CONTENT_TYPES);
  } else {
    request.payload = random.pick(NASTY_STRINGS);
    if (random.chance(0.7)) headers['content-type'] = random.pick(CONTENT_TYPES);
  }
  return request;
}
