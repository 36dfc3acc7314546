import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { JOBS_END, JOBS_START, withJobsTable } from '../../../../scripts/docs-jobs.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { JobQueue } from './job-queue.ts';
import { JOB_REGISTRY, registeredJob } from './job-registry.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..', '..');

describe('the job registry (jobs/job-registry.ts)', () => {
  it("is ARCHITECTURE.md's Jobs table: the docs list equals the generated one (npm run docs:jobs)", () => {
    const architecture = readFileSync(path.join(ROOT, 'docs/ARCHITECTURE.md'), 'utf8');
    const section = architecture.slice(architecture.indexOf('\n## Jobs\n'), architecture.indexOf(JOBS_END));
    expect(section).toContain(JOBS_START);
    expect(architecture).toBe(withJobsTable(architecture));
    for (const job of JOB_REGISTRY) expect(section).toContain(`| \`${job.name}\` | ${job.owner} |`);
  });

  it('names each job once, owned by a module that exists', () => {
    const names = JOB_REGISTRY.map((job) => job.name);
    expect(names.filter((name, at) => names.indexOf(name) !== at)).toEqual([]);
    for (const job of JOB_REGISTRY) {
      expect(existsSync(path.join(ROOT, 'apps/server/src/modules', job.owner, `${job.owner}.module.ts`))).toBe(true);
    }
    expect(() => registeredJob('no-such-job')).toThrow(/not in jobs\/job-registry\.ts/);
  });

  describe("the server's wiring", () => {
    const define = vi.spyOn(JobQueue.prototype, 'define');
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(async () => {
      define.mockRestore();
      await t?.close();
    });

    it("defines exactly the registry's jobs, each with the registry's schedule and policy", () => {
      const defined = define.mock.calls.map(([definition]) => ({
        name: definition.name,
        cron: definition.cron,
        policy: definition.policy,
      }));
      const expected = JOB_REGISTRY.map((job) => ({ name: job.name, cron: job.cron, policy: job.policy }));
      const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
      expect(defined.sort(byName)).toEqual(expected.sort(byName));
    });
  });
});
