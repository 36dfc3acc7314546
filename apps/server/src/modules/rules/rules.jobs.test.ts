import { describe, expect, it } from 'vitest';
import type { JobDefinition, JobQueue } from '../../jobs/job-queue.ts';
import type { RuleRunner } from './runs/rule-runner.ts';
import { defineRuleJobs, RULE_HOLD_JOB, RULE_TICK_JOB } from './rules.jobs.ts';

/** A queue that keeps the definitions and what was sent, so a handler can be called by hand. */
function fakeQueue() {
  const definitions = new Map<string, JobDefinition>();
  const sent: { name: string; data: object; options: object }[] = [];
  const queue = {
    define: (definition: JobDefinition) => definitions.set(definition.name, definition),
    send: async (name: string, data: object, options: object = {}) => {
      sent.push({ name, data, options });
      return String(sent.length);
    },
  } as unknown as JobQueue;
  return { queue, definitions, sent };
}

describe('the rule jobs', () => {
  it('the minute tick sends one rule-hold job per resume due, keyed by its ledger row', async () => {
    const { queue, definitions, sent } = fakeQueue();
    const due = [
      { workspaceId: '00000000-0000-4000-8000-000000000001', id: '00000000-0000-4000-8000-0000000000a1' },
      { workspaceId: '00000000-0000-4000-8000-000000000002', id: '00000000-0000-4000-8000-0000000000a2' },
    ];
    const ran: object[] = [];
    const now = new Date('2026-11-26T17:00:00Z');
    defineRuleJobs(queue, {
      runner: {} as RuleRunner,
      tick: { due: async () => [] },
      expiry: { expireDue: async () => 0, resumeStranded: async () => 0 },
      holds: {
        due: async (at) => (at.getTime() === now.getTime() ? due : []),
        run: async (request) => {
          ran.push(request);
        },
      },
      now: () => now,
    });
    await definitions.get(RULE_TICK_JOB)?.handler({}, { id: 'tick', retryCount: 0 });
    expect(sent).toEqual(
      due.map((hold) => ({ name: RULE_HOLD_JOB, data: hold, options: { singletonKey: `hold:${hold.id}` } })),
    );
    await definitions.get(RULE_HOLD_JOB)?.handler(due[0], { id: '1', retryCount: 0 });
    expect(ran).toEqual([due[0]]);
  });
});
