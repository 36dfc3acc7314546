import { MetaClient, type MetaClientOptions } from '@adpilot/meta';
import { startSandboxServer, type RunningSandbox, type StartSandboxOptions } from '../src/http/server.ts';
import type { SandboxSeed } from '../src/world/seed.ts';

/** A clock shared by the sandbox and the client, so an injected sleep really lets time pass. */
export class TestClock {
  private ms: number;

  constructor(iso: string) {
    this.ms = Date.parse(iso);
  }

  readonly now = (): number => this.ms;
  readonly date = (): Date => new Date(this.ms);

  advance(ms: number): void {
    this.ms += ms;
  }
}

export interface Fixture extends RunningSandbox {
  clock: TestClock;
  /** Every wait the client asked for, in order. */
  sleeps: number[];
  /** A long-lived token of the first sandbox user with all scopes. */
  token: string;
  client(overrides?: Partial<MetaClientOptions>): MetaClient;
}

/** 10:00 in Bangkok, 22:00 the evening before in New York. */
export const FIXTURE_TIME = '2026-03-10T03:00:00Z';

export async function startFixture(options: StartSandboxOptions & { at?: string } = {}): Promise<Fixture> {
  const { at = FIXTURE_TIME, ...sandboxOptions } = options;
  const clock = new TestClock(at);
  const running = await startSandboxServer({ now: clock.date, ...sandboxOptions });
  const sleeps: number[] = [];
  const sleep = async (ms: number): Promise<void> => {
    sleeps.push(ms);
    clock.advance(ms);
  };
  return {
    ...running,
    clock,
    sleeps,
    token: running.sandbox.issueToken(),
    client: (overrides = {}) =>
      new MetaClient({
        graphBaseUrl: running.url,
        dialogBaseUrl: running.url,
        appId: running.sandbox.appId,
        appSecret: running.sandbox.appSecret,
        sleep,
        now: clock.now,
        random: () => 0.5,
        ...overrides,
      }),
  };
}

/** One sandbox user with one account of 500 ads (10 campaigns × 5 ad sets × 10 ads). */
export const BIG_ACCOUNT_SEED: SandboxSeed = {
  seed: 'big-account',
  personas: [
    {
      name: 'Benchmark User',
      accounts: [
        {
          id: '500500500500',
          name: 'Big Catalog Store',
          currency: 'USD',
          timezone: 'America/New_York',
          campaigns: 10,
          adSetsPerCampaign: 5,
          adsPerAdSet: 10,
        },
      ],
    },
  ],
};
