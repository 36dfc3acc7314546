import type { RuleRunRequest } from './rule-run-scheduler.ts';
import { describe, expect, it } from 'vitest';
import { buildRule } from '../../../test/rule-factories.ts';
import { connectedUser, ledgerOf, mirrorEntities, rulesSandboxApp } from '../../../test/rules-sandbox.ts';

const { app, sandbox, createRule } = rulesSandboxApp({
  seed: {
    seed: 'dayparting',
    personas: [
      {
        name: 'Coffee Roaster',
        accounts: [
          {
            name: 'Brooklyn Coffee Co.',
            currency: 'USD',
            timezone: 'America/New_York',
            campaigns: 2,
            adSetsPerCampaign: 2,
            adsPerAdSet: 2,
          },
        ],
      },
    ],
  },
});
const MINUTE = 60_000;

/**
 * A dayparting rule on a New York account, active every day 08:00–20:00, with the clock moved from a Saturday
 * evening in daylight time (UTC−4) across the night the clocks go back (1 November 2026) to the Monday morning in
 * standard time (UTC−5), the scheduler's tick and the holds' tick run every ten minutes as the workers would.
 */
describe('dayparting on the sandbox', () => {
  it("pauses at each window's end and resumes at each start, once each, in New York's time across DST", async () => {
    app().clock.now = new Date('2026-10-31T22:00:00.000Z'); // Saturday 18:00 in New York (EDT)
    const { session, accounts } = await connectedUser(app());
    const account = accounts.find((row) => row.timezone === 'America/New_York');
    if (!account) throw new Error('no New York account');
    const active = (await mirrorEntities(app(), account, 'ad')).filter((ad) => ad.status === 'ACTIVE');
    expect(active.length).toBeGreaterThan(1);
    const rule = await createRule(
      session,
      buildRule({
        isActive: true,
        scope: { adAccountIds: [account.id], level: 'ad', statuses: ['ACTIVE'] },
        conditions: {
          match: 'all',
          items: [{ metric: 'hours_since_creation', operator: 'gte', value: 0, window: 'today' }],
        },
        actions: [{ type: 'pause' }],
        schedule: { windows: [{ days: [1, 2, 3, 4, 5, 6, 7], from: '08:00', to: '20:00' }] },
        safeguards: { cooldownHours: 0, maxActionsPerDay: 1000, minSpend: 0, minImpressions: 0, settleHours: 0 },
      }),
    );

    const slots: string[] = [];
    const end = Date.parse('2026-11-02T15:00:00.000Z'); // Monday 10:00 (EST)
    while (app().clock.now.getTime() < end) {
      app().clock.advance(10 * MINUTE);
      const due: RuleRunRequest[] = (await app().modules.rules.tick.due(app().clock.now)).filter(
        (request) => request.ruleId === rule.id,
      );
      for (const request of due) {
        slots.push(request.slot);
        await app().modules.rules.runner.run(request);
      }
      await app().modules.rules.holds.runDue();
    }

    // One run per window end, keyed by the local end: Saturday 20:00 EDT and Sunday 20:00 EST.
    expect(slots).toEqual(['w:2026-10-31T2000:America/New_York', 'w:2026-11-01T2000:America/New_York']);
    const ids = new Set(active.map((ad) => ad.externalId));
    const writes = sandbox().sandbox.mutations.filter((mutation) => ids.has(mutation.objectId));
    const moments = (status: string) => [
      ...new Set(writes.filter((write) => write.status === status).map((write) => new Date(write.at).toISOString())),
    ];
    // 20:00 EDT is 00:00 UTC; 08:00 and 20:00 EST are 13:00 and 01:00 UTC (not 12:00 and 00:00).
    expect(moments('PAUSED')).toEqual(['2026-11-01T00:00:00.000Z', '2026-11-02T01:00:00.000Z']);
    expect(moments('ACTIVE')).toEqual(['2026-11-01T13:00:00.000Z', '2026-11-02T13:00:00.000Z']);
    for (const ad of active) {
      expect(writes.filter((write) => write.objectId === ad.externalId).map((write) => write.status)).toEqual([
        'PAUSED',
        'ACTIVE',
        'PAUSED',
        'ACTIVE',
      ]);
    }
    // Each write went through the ledger: a pause and its resume per ad and night, every one applied.
    const ledger = await ledgerOf(app(), rule.id);
    expect(ledger.filter((row) => row.actionType === 'pause')).toHaveLength(2 * active.length);
    expect(ledger.filter((row) => row.actionType === 'resume')).toHaveLength(2 * active.length);
    expect(new Set(ledger.map((row) => row.state))).toEqual(new Set(['applied']));
  });
});
