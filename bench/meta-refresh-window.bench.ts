// What a sync's insights refresh costs for a 500-ad account as the window widens: Graph calls, rows, time.
import { MetaClient } from '@adpilot/meta';
import { startSandboxServer, type SandboxSeed } from '@adpilot/meta-sandbox';

const WINDOWS = [3, 7, 14, 28];
const seed: SandboxSeed = {
  seed: 'refresh-window',
  personas: [
    {
      name: 'Benchmark advertiser',
      accounts: [
        {
          id: '700700700700',
          name: 'Bench account',
          currency: 'USD',
          timezone: 'America/New_York',
          campaigns: 10,
          adSetsPerCampaign: 5,
          adsPerAdSet: 10,
          cboCampaigns: 0,
        },
      ],
    },
  ],
};

const running = await startSandboxServer({ seed, now: () => new Date('2026-03-10T15:00:00Z') });
const token = running.sandbox.issueToken();
const client = new MetaClient({
  graphBaseUrl: running.url,
  appId: running.sandbox.appId,
  appSecret: running.sandbox.appSecret,
});
const figures: string[] = [];
for (const days of WINDOWS) {
  running.sandbox.stats.reset();
  const until = '2026-03-10';
  const since = new Date(Date.parse(`${until}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
  const started = performance.now();
  const rows = await client.getInsights(token, 'act_700700700700', {
    level: 'ad',
    timeRange: { since, until },
    timeIncrement: 1,
  });
  const ms = performance.now() - started;
  figures.push(
    `${days}+1 d: ${running.sandbox.stats.snapshot().total} calls, ${rows.length} rows, ${Math.round(ms)} ms`,
  );
}
console.log(`meta-refresh-window (500-ad account, level=ad daily, pages of 500): ${figures.join('; ')}`);
await running.close();
