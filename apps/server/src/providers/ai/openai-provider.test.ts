import { createRuleRequestSchema } from '@adpilot/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AiSettings } from './ai-provider-factory.ts';
import { AppError } from '../../lib/app-error.ts';
import { FakeOpenAi, OPENAI_ERRORS } from '../../test/fake-openai.ts';
import { createAiProviderResolver } from './ai-provider-factory.ts';
import { OpenAiProvider } from './openai-provider.ts';

let fake: FakeOpenAi;
let settings: AiSettings;
let provider: OpenAiProvider;

beforeAll(async () => {
  fake = await FakeOpenAi.start();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.reset();
  settings = { provider: 'openai', apiKey: 'sk-test-key', baseUrl: fake.baseUrl, model: 'test-model', timeoutMs: 500 };
  provider = new OpenAiProvider(settings);
});

const analysis = JSON.stringify({
  items: [{ type: 'warning', title: 'Low CTR', description: 'CTR is 0.50%, below 0.90%.' }],
});
const campaign = { spend: 1000, impressions: 200000, clicks: 1000 };

async function refusal(work: Promise<unknown>): Promise<AppError> {
  const error = await work.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('the request', () => {
  it('is a chat completion with the model, the messages and a strict JSON schema response format', async () => {
    fake.reply({ content: analysis });
    const items = await provider.analyzePerformance(campaign);
    expect(items).toEqual([{ type: 'warning', title: 'Low CTR', description: 'CTR is 0.50%, below 0.90%.' }]);

    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe('Bearer sk-test-key');
    expect(request?.body.model).toBe('test-model');
    expect(request?.body.messages?.map((message) => message.role)).toEqual(['system', 'user']);
    expect(request?.body.messages?.[1]?.content).toContain('"impressions":200000');
    expect(request?.body.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: {
        name: 'performance_analysis',
        strict: true,
        schema: {
          type: 'object',
          required: ['items'],
          additionalProperties: false,
          properties: {
            items: {
              type: 'array',
              items: {
                type: 'object',
                required: ['type', 'title', 'description'],
                properties: { type: { enum: ['optimization', 'warning', 'success'] } },
              },
            },
          },
        },
      },
    });
  });

  it('builds a new client when the settings change, without a restart', async () => {
    const current = { ...settings };
    const resolver = createAiProviderResolver(() => current);
    fake.reply({ content: analysis }, { content: analysis });
    await (await resolver.current()).analyzePerformance(campaign);
    current.model = 'other-model';
    current.apiKey = 'sk-second-key';
    await (await resolver.current()).analyzePerformance(campaign);
    expect(fake.requests.map((request) => [request.body.model, request.headers.authorization])).toEqual([
      ['test-model', 'Bearer sk-test-key'],
      ['other-model', 'Bearer sk-second-key'],
    ]);
    current.provider = 'builtin';
    expect((await resolver.current()).kind).toBe('builtin');
  });
});

describe('structured replies', () => {
  it('retries a reply that is not JSON once, telling the model what was wrong', async () => {
    fake.reply({ content: 'Sure! Here is your analysis: CTR is low.' }, { content: analysis });
    const items = await provider.analyzePerformance(campaign);
    expect(items).toHaveLength(1);
    expect(fake.requests).toHaveLength(2);
    const second = fake.requests[1]?.body.messages ?? [];
    expect(second.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(second[2]?.content).toBe('Sure! Here is your analysis: CTR is low.');
    expect(second[3]?.content).toContain('not JSON');
  });

  it('refuses with a clear error after a second malformed reply', async () => {
    fake.reply({ content: '{"items": "oops"}' }, { content: '{"items": [{"type": "great"}]}' });
    const error = await refusal(provider.analyzePerformance(campaign));
    expect(error).toMatchObject({ code: 'AI_INVALID_REPLY', statusCode: 502 });
    expect(error.message).toBe('The AI provider answered in an unexpected format twice. Try again.');
    expect(fake.requests).toHaveLength(2);
  });

  it("checks the contract's own rules too: copy over the platform's limits is sent back", async () => {
    const long = 'x'.repeat(126);
    const tooLong = JSON.stringify({ variations: [{ headline: 'Fine', primaryText: long }] });
    const fits = JSON.stringify({ variations: [{ headline: 'Fresh coffee', primaryText: 'Roasted this week.' }] });
    fake.reply({ content: tooLong }, { content: fits });
    expect(await provider.generateAdCopy({ name: 'Coffee' }, 'facebook')).toEqual([
      { headline: 'Fresh coffee', primaryText: 'Roasted this week.' },
    ]);
    expect(fake.requests[1]?.body.messages?.[3]?.content).toContain('facebook length limits');
  });

  it('turns a structured rule draft into a rule body the rules contract accepts, switched off', async () => {
    fake.reply({
      content: JSON.stringify({
        understood: true,
        name: 'Pause expensive ads',
        level: 'ad',
        match: 'all',
        conditions: [{ metric: 'cpa', operator: 'gt', value: 500, window: 'last_7d' }],
        action: { type: 'pause', percent: null, amount: null },
        explanation: 'Pauses ads whose CPA is over 500 in the last 7 days.',
      }),
    });
    const draft = await provider.draftRule('pause ads with CPA over 500 baht in the last 7 days', {
      fastestCheckMinutes: 60,
    });
    expect(createRuleRequestSchema.parse(draft.rule)).toEqual(draft.rule);
    expect(draft.rule).toMatchObject({
      isActive: false,
      schedule: { everyMinutes: 60 },
      scope: { level: 'ad' },
      conditions: { match: 'all', items: [{ metric: 'cpa', operator: 'gt', value: 500, window: 'last_7d' }] },
      actions: [{ type: 'pause' }],
    });
    expect(fake.requests[0]?.body.response_format).toMatchObject({ json_schema: { name: 'rule_draft', strict: true } });
    expect(draft.explanation).toBe('Pauses ads whose CPA is over 500 in the last 7 days.\nChecked every 60 minutes.');
  });

  it("fits the schedule the request names to the plan, in the request's language", async () => {
    const reply = JSON.stringify({
      understood: true,
      name: 'หยุดโฆษณาแพง',
      level: 'ad',
      match: 'all',
      conditions: [{ metric: 'cpa', operator: 'gt', value: 500, window: 'today' }],
      action: { type: 'pause', percent: null, amount: null },
      explanation: 'หยุดโฆษณาที่ CPA เกิน 500',
    });
    fake.reply({ content: reply }, { content: reply });
    const fast = await provider.draftRule('หยุดโฆษณาที่ CPA มากกว่า 500 วันนี้ ทุก 5 นาที', { fastestCheckMinutes: 15 });
    expect(fast.rule.schedule).toEqual({ everyMinutes: 15 });
    expect(fast.explanation.split('\n')).toEqual([
      'หยุดโฆษณาที่ CPA เกิน 500',
      'ตรวจทุก 15 นาที',
      'แผนของคุณตรวจกฎได้ถี่สุดทุก 15 นาที จึงตั้งให้ตรวจทุก 15 นาทีแทนทุก 5 นาที อัพเกรดแผนได้ที่หน้าแผนการใช้งาน',
    ]);
    const daily = await provider.draftRule('หยุดโฆษณาที่ CPA มากกว่า 500 ทุกวัน 9 น.', { fastestCheckMinutes: 15 });
    expect(daily.rule.schedule).toEqual({ dailyAt: '09:00' });
  });

  it('sends back a draft the rules contract refuses, and says when the model did not understand', async () => {
    const draft = (level: string) =>
      JSON.stringify({
        understood: true,
        name: 'Scale',
        level,
        match: 'all',
        conditions: [{ metric: 'roas', operator: 'gt', value: 4, window: 'last_7d' }],
        action: { type: 'increase_budget', percent: 20, amount: null },
        explanation: 'Raise budgets.',
      });
    fake.reply({ content: draft('ad') }, { content: draft('adset') });
    const scaled = await provider.draftRule('raise budget 20% when roas over 4', { fastestCheckMinutes: 5 });
    expect(scaled.rule.actions).toEqual([{ type: 'increase_budget', by: 20, unit: 'percent' }]);
    expect(fake.requests[1]?.body.messages?.[3]?.content).toContain('Ads have no budget');

    fake.reply({
      content: JSON.stringify({
        understood: false,
        name: '',
        level: 'ad',
        match: 'all',
        conditions: [],
        action: { type: 'notify', percent: null, amount: null },
        explanation: '',
      }),
    });
    expect(await refusal(provider.draftRule('make me a sandwich', { fastestCheckMinutes: 5 }))).toMatchObject({
      code: 'AI_DRAFT_NOT_UNDERSTOOD',
      statusCode: 422,
    });
  });

  it("reports the model's refusal", async () => {
    fake.reply({ content: null as unknown as string, refusal: "I'm sorry, I can't help with that." });
    expect(await refusal(provider.chat('hello', null))).toMatchObject({ code: 'AI_REFUSED' });
  });
});

describe('failures', () => {
  it('401: the key was refused', async () => {
    fake.reply(OPENAI_ERRORS.invalidKey);
    const error = await refusal(provider.chat('hello', null));
    expect(error).toMatchObject({ code: 'AI_PROVIDER_AUTH', statusCode: 502 });
    expect(error.message).toBe('The AI provider refused the API key (401). Check the OpenAI API key in Settings.');
    expect(error.message).not.toContain('sk-test');
    expect(fake.requests).toHaveLength(1);
  });

  it('429 insufficient_quota: the quota is exhausted, and it is not retried', async () => {
    fake.reply(OPENAI_ERRORS.insufficientQuota);
    const error = await refusal(provider.chat('hello', null));
    expect(error).toMatchObject({ code: 'AI_PROVIDER_QUOTA', statusCode: 503 });
    expect(error.message).toContain('quota is exhausted (429)');
    expect(fake.requests).toHaveLength(1);
  });

  it('429 rate limit: retried once, then answered', async () => {
    fake.reply(OPENAI_ERRORS.rateLimited, { content: JSON.stringify({ response: 'Hi!' }) });
    expect(await provider.chat('hello', null)).toBe('Hi!');
    expect(fake.requests).toHaveLength(2);
  });

  it('5xx: retried once, then a clear error', async () => {
    fake.reply(OPENAI_ERRORS.serverError, OPENAI_ERRORS.serverError);
    expect(await refusal(provider.chat('hello', null))).toMatchObject({ code: 'AI_UNAVAILABLE', statusCode: 502 });
    expect(fake.requests).toHaveLength(2);
  });

  it('404: the model is unknown, and the message names it', async () => {
    fake.reply(OPENAI_ERRORS.modelNotFound);
    const error = await refusal(provider.chat('hello', null));
    expect(error).toMatchObject({ code: 'AI_MODEL_UNKNOWN', statusCode: 502 });
    expect(error.message).toContain('(404)');
    expect(error.message).toContain('test-model');
  });

  it('timeout: a server that does not answer gives the timeout message', async () => {
    fake.reply({ hang: true });
    const started = Date.now();
    const error = await refusal(provider.chat('hello', null));
    expect(error).toMatchObject({ code: 'AI_TIMEOUT', statusCode: 504 });
    expect(error.message).toBe('The AI provider did not answer in time. Try again.');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(fake.requests).toHaveLength(1);
  });

  it('a server that cannot be reached is unavailable', async () => {
    const gone = new OpenAiProvider({ ...settings, baseUrl: 'http://127.0.0.1:9/v1' });
    expect(await refusal(gone.chat('hello', null))).toMatchObject({ code: 'AI_UNAVAILABLE', statusCode: 503 });
  });
});
