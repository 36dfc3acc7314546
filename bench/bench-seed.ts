// The Meta benchmarks' sandbox world: accounts × 500 ads, alternately THB in Bangkok and USD in New York. Its own
// module, so the sandbox's own process (bench/sandbox-process.ts) seeds it without loading the server.
import { defaultSeed, type SandboxSeed } from '@adpilot/meta-sandbox';

/** 10 accounts (THB in Bangkok and USD in New York, alternately), each 10 campaigns × 5 ad sets × 10 ads. */
export const BENCH_ACCOUNTS = 10;

export const seedOf = (accounts: number): SandboxSeed => ({
  ...defaultSeed(),
  personas: [
    {
      name: 'Benchmark advertiser',
      accounts: Array.from({ length: accounts }, (_, i) => ({
        name: `Bench account ${i + 1}`,
        currency: i % 2 ? 'USD' : 'THB',
        timezone: i % 2 ? 'America/New_York' : 'Asia/Bangkok',
        campaigns: 10,
        adSetsPerCampaign: 5,
        adsPerAdSet: 10,
        cboCampaigns: 0,
      })),
    },
  ],
});
