import { formatMoney } from '@adpilot/contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, readOnly, ToolRegistry } from '../../../lib/tool-registry.ts';
import { daysOf, intentOf, levelOf, safeName } from './analyst.ts';
import { ASSISTANT_RESULT_MAX_BYTES, AssistantTools } from './assistant-tools.ts';
import { answerLanguage, citationsOf } from './assistant.service.ts';

const scope = { workspaceId: '00000000-0000-4000-8000-000000000001', userId: '00000000-0000-4000-8000-000000000002' };

describe('what the analyst reads from a question', () => {
  it.each([
    ['Which of my campaigns is wasting the most money?', 'wasted'],
    ['แคมเปญไหนเสียเงินเปล่ามากที่สุด', 'wasted'],
    ['Why did CPA rise yesterday?', 'changes'],
    ['ทำไมต้นทุนต่อผลลัพธ์เมื่อวานสูงขึ้น', 'changes'],
    ['How is my budget pacing this month?', 'pacing'],
    ['What did my rules do?', 'rules'],
    ['กฎของฉันทำอะไรไปบ้าง', 'rules'],
    ['What are my worst ad sets?', 'worst'],
    ['Top campaigns by ROAS', 'best'],
    ['สรุปภาพรวมบัญชี', 'overview'],
    ['Book me a flight', null],
  ])('%s → %s', (question, intent) => {
    expect(intentOf(question)).toBe(intent);
  });

  it('reads the level and the days asked about', () => {
    expect(levelOf('worst ad sets')).toBe('adset');
    expect(levelOf('which ads waste money')).toBe('ad');
    expect(levelOf('which campaigns')).toBe('campaign');
    expect(daysOf('yesterday')).toEqual({ days: 1, label: 'yesterday' });
    expect(daysOf('over the last 30 days')).toEqual({ days: 30, label: 'days' });
    expect(daysOf('ใน 14 วัน')).toEqual({ days: 14, label: 'days' });
    expect(daysOf('this month').label).toBe('month');
    expect(daysOf('what happened')).toEqual({ days: 7, label: 'days' });
  });

  it('answers in the question’s script, else the chosen language', () => {
    expect(answerLanguage('แคมเปญไหนดี', 'en')).toBe('th');
    expect(answerLanguage('best campaigns', 'th')).toBe('en');
    expect(answerLanguage('???', 'th')).toBe('th');
  });

  it('flattens a name so it can never make its own link or formatting', () => {
    expect(safeName('[Click](https://evil.example) **now**\nignore')).toBe('Click https://evil.example now ignore');
    expect([...safeName('ก'.repeat(200))]).toHaveLength(80);
  });
});

describe('the assistant’s tool box', () => {
  const big = defineTool({
    name: 'list_rules',
    title: 't',
    description: 'd',
    scope: 'read',
    input: z.strictObject({ size: z.number().int().min(1).max(100_000) }),
    annotations: readOnly,
    run: async (_context, input) => ({ text: 'x'.repeat(input.size) }),
  });
  const write = defineTool({
    name: 'list_activity',
    title: 't',
    description: 'd',
    scope: 'write',
    input: z.strictObject({}),
    annotations: { ...readOnly, readOnlyHint: false },
    run: async () => ({}),
  });
  const tools = new AssistantTools(new ToolRegistry([big, write]), []);

  it('offers only read-only tools of its list', () => {
    expect(tools.names()).toEqual(['list_rules']);
  });

  it('bounds each answer and refuses bad arguments in words', async () => {
    expect((await tools.call(scope, 'list_rules', { size: 10 })).ok).toBe(true);
    const large = await tools.call(scope, 'list_rules', { size: ASSISTANT_RESULT_MAX_BYTES + 1 });
    expect(large).toMatchObject({ ok: false, text: expect.stringMatching(/too large/) });
    expect(await tools.call(scope, 'list_rules', { size: 'x' })).toMatchObject({ ok: false });
    expect(await tools.call(scope, 'list_activity', {})).toMatchObject({ ok: false, text: /Unknown tool/ });
  });
});

describe('citations of a model’s answer', () => {
  it('cites the entities read that the answer names or links, once each', () => {
    const results = [
      {
        entities: [
          { id: 'a', name: 'Summer Sale', href: '/campaigns/a', spend: 1200, currency: 'THB' },
          { id: 'b', name: 'Winter', href: '/campaigns/b', spend: 5, currency: 'THB' },
          { id: 'c', name: 'Elsewhere', href: 'https://evil.example/c' },
        ],
      },
      { entity: { id: 'a', name: 'Summer Sale', href: '/campaigns/a' } },
    ];
    const cited = citationsOf('[Summer Sale](/campaigns/a) spent the most; Elsewhere too.', results, 'en');
    expect(cited).toEqual([
      { entityId: 'a', name: 'Summer Sale', figure: formatMoney(1200, 'THB', 'en'), href: '/campaigns/a' },
    ]);
  });
});
