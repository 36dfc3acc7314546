// The Meta benchmarks' sandbox world: accounts × 500 ads, alternately THB in Bangkok and USD in New York. Its own
// module, so the sandbox's own process (bench/sandbox-process.ts) seeds it without loading the server.
import { defaultSeed, type SandboxSeed } from '@adpilot/meta-sandbox';

/** 10 accounts (THB in Bangkok and USD in New York, alternately), each 10 campaigns × 5 ad sets × 10 ads. */
export const BENCH_ACCOUNTS = 10;

/**
 * `accounts` accounts of `ads` ads each (500 by default): 10 campaigns × 5 ad sets × `ads / 50` ads (a multiple of 50),
 * with `historyDays` of history (the sandbox's default, 60, unless given).
 */
export const seedOf = (accounts: number, ads = 500, historyDays?: number): SandboxSeed => {
  if (!Number.isInteger(ads / 50) || ads < 50) throw new Error('ads per account: a multiple of 50');
  return {
    ...defaultSeed(),
    ...(historyDays === undefined ? {} : { historyDays }),
    personas: [
      {
        name: 'Benchmark advertiser',
        accounts: Array.from({ length: accounts }, (_, i) => ({
          name: `Bench account ${i + 1}`,
          currency: i % 2 ? 'USD' : 'THB',
          timezone: i % 2 ? 'America/New_York' : 'Asia/Bangkok',
          campaigns: 10,
          adSetsPerCampaign: 5,
          adsPerAdSet: ads / 50,
          cboCampaigns: 0,
        })),
      },
    ],
  };
};
