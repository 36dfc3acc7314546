import { AI_MESSAGES, JSON_DEPTH_MAX, RULE_LIMITS, errorEnvelopeSchema, nestedDeeperThan } from '@adpilot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRule } from '../test/rule-factories.ts';
import { createTestApp, registerUser, type TestApp } from '../test/test-app.ts';
import { BODY_TOO_DEEP_MESSAGE } from './body-depth.ts';

describe('nestedDeeperThan', () => {
  it('counts arrays and objects inside one another, not brackets inside strings', () => {
    expect(nestedDeeperThan('[[[]]]', 3)).toBe(false);
    expect(nestedDeeperThan('[[[[]]]]', 3)).toBe(true);
    expect(nestedDeeperThan('{"a":{"b":[1,{"c":2}]}}', 4)).toBe(false);
    expect(nestedDeeperThan('{"a":{"b":[1,{"c":{}}]}}', 4)).toBe(true);
    // Siblings do not add up; brackets in strings, escaped quotes included, are text.
    expect(nestedDeeperThan('[[],[],[],[]]', 2)).toBe(false);
    expect(nestedDeeperThan(`["${'[['.repeat(100)}", "\\"[[[[", {"k[[[": "}}}"}]`, 2)).toBe(false);
    expect(nestedDeeperThan(`["\\\\", [[[]]]]`, 3)).toBe(true);
  });
});

let t: TestApp;
let auth: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_MAX: '0' });
  auth = (await registerUser(t.app)).auth;
});
afterAll(() => t.close());

/** `depth` arrays or condition groups inside one another, as text: the server must not need to parse it to refuse. */
const nestedArrays = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
function nestedGroups(depth: number): string {
  const leaf = JSON.stringify({ metric: 'cpa', operator: 'gt', value: 500, window: 'last_7d' });
  let group = leaf;
  for (let level = 0; level < depth; level += 1) group = `{"match":"all","items":[${group}]}`;
  return group;
}
function ruleBody(conditions: string): string {
  const rule = JSON.stringify(buildRule({ conditions: { match: 'all', items: [] } }));
  return rule.replace('{"match":"all","items":[]}', conditions);
}

const send = (method: 'POST' | 'PUT', url: string, payload: string, headers: Record<string, string> = auth) =>
  t.app.inject({ method, url, headers: { ...headers, 'content-type': 'application/json' }, payload });

function expectTooDeep(answer: Awaited<ReturnType<typeof send>>) {
  expect(answer.statusCode, answer.body.slice(0, 200)).toBe(400);
  const body: unknown = answer.json();
  expect(errorEnvelopeSchema.parse(body)).toEqual({
    success: false,
    code: 'BODY_TOO_DEEP',
    message: BODY_TOO_DEEP_MESSAGE,
  });
}

describe('a JSON body nested past the limit', () => {
  it.each([800, 5_000])(
    'is a 400 BODY_TOO_DEEP at %i levels on every route, before anything is parsed',
    async (depth) => {
      expectTooDeep(await send('POST', '/api/rules/preview', ruleBody(nestedGroups(depth))));
      expectTooDeep(await send('POST', '/api/rules', ruleBody(nestedGroups(depth))));
      expectTooDeep(await send('POST', '/api/ai/analyze-performance', `{"campaignData":${nestedArrays(depth)}}`));
      expectTooDeep(await send('PUT', '/api/notifications', `{"webhookUrl":${nestedArrays(depth)}}`));
      // A public route too: the parser runs for every route.
      expectTooDeep(await send('POST', '/api/auth/login', `{"email":${nestedArrays(depth)}}`, {}));
    },
  );

  it('stops exactly at the limit: one level less reaches validation', async () => {
    const within = await send(
      'POST',
      '/api/ai/analyze-performance',
      `{"campaignData":${nestedArrays(JSON_DEPTH_MAX - 1)}}`,
    );
    expect(within.json().code).not.toBe('BODY_TOO_DEEP');
    expect(within.statusCode).toBeLessThan(500);
    expectTooDeep(
      await send('POST', '/api/ai/analyze-performance', `{"campaignData":${nestedArrays(JSON_DEPTH_MAX)}}`),
    );
  });

  it('refuses pasted JSON nested past the limit inside a string field, with the field’s message', async () => {
    const answer = await send(
      'POST',
      '/api/ai/analyze-performance',
      JSON.stringify({ campaignData: nestedArrays(5_000) }),
    );
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      errors: [{ field: 'campaignData', message: AI_MESSAGES.jsonTooDeep }],
    });
  });
});

describe('a rule nested as deep as the rule format allows', () => {
  it('is created and previewed as before', async () => {
    const body = ruleBody(nestedGroups(RULE_LIMITS.groupDepthMax));
    const created = await send('POST', '/api/rules', body);
    expect(created.statusCode, created.body.slice(0, 300)).toBe(201);
    const preview = await send('POST', '/api/rules/preview', body);
    expect(preview.statusCode, preview.body.slice(0, 300)).toBe(200);
    // One level more is the rule format's own refusal, not the body's.
    const tooDeep = await send('POST', '/api/rules', ruleBody(nestedGroups(RULE_LIMITS.groupDepthMax + 1)));
    expect(tooDeep.statusCode).toBe(400);
    expect(tooDeep.json().code).toBe('VALIDATION_ERROR');
  });
});
