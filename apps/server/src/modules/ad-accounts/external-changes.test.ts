import type { GraphActivity } from '@adpilot/meta';
import { describe, expect, it } from 'vitest';
import type { EntityInput } from './ad-accounts.repository.ts';
import { diffMirror, externalChanges, type OwnWrite } from './external-changes.ts';
import type { MirrorValue } from './external-changes.repository.ts';

const mirror: MirrorValue[] = [
  { externalId: 's-1', level: 'adset', name: 'Ad set 1', status: 'ACTIVE', dailyBudget: 50_000, lifetimeBudget: null },
  { externalId: 'a-1', level: 'ad', name: 'Ad 1', status: 'ACTIVE', dailyBudget: null, lifetimeBudget: null },
];
const pulled = (overrides: Partial<EntityInput> & { externalId: string }): EntityInput => ({
  level: 'adset',
  name: 'Ad set 1',
  status: 'ACTIVE',
  effectiveStatus: 'ACTIVE',
  campaignExternalId: 'c-1',
  adsetExternalId: null,
  dailyBudget: 50_000,
  lifetimeBudget: null,
  createdTime: null,
  updatedTime: null,
  ...overrides,
});
const FOUND = new Date('2026-03-10T03:00:00Z');
const budgetChange = diffMirror(mirror, [pulled({ externalId: 's-1', dailyBudget: 80_000 })]);

describe('the watchdog', () => {
  it('finds each status and budget field Meta holds differently, for entities the mirror knew', () => {
    const changes = diffMirror(mirror, [
      pulled({ externalId: 's-1', status: 'PAUSED', dailyBudget: 60_000 }),
      pulled({ externalId: 'a-1', level: 'ad', dailyBudget: null }),
      pulled({ externalId: 'new', status: 'PAUSED' }),
    ]);
    expect(changes.map(({ entity, field, from, to }) => [entity.externalId, field, from, to])).toEqual([
      ['s-1', 'status', 'ACTIVE', 'PAUSED'],
      ['s-1', 'daily_budget', 50_000, 60_000],
    ]);
  });

  it("leaves out what the ledger wrote, and Meta read just before AdPilot's write landed", () => {
    const write: OwnWrite = { externalId: 's-1', field: 'daily_budget', before: 50_000, after: 80_000 };
    expect(externalChanges(budgetChange, [write], [], 'app', FOUND)).toEqual([]);
    // The mirror already holds 80,000 (our write), Meta was read at 50,000: a stale read, not a change.
    const stale = diffMirror([{ ...mirror[0]!, dailyBudget: 80_000 }], [pulled({ externalId: 's-1' })]);
    expect(externalChanges(stale, [write], [], 'app', FOUND)).toEqual([]);
    const other: OwnWrite = { ...write, after: 70_000 };
    expect(externalChanges(budgetChange, [other], [], 'app', FOUND)).toHaveLength(1);
  });

  it("names who and which app from the newest matching history entry, but not our own app's", () => {
    const entry = (applicationId: string): GraphActivity => ({
      event_type: 'update_ad_set_budget',
      event_time: '2026-03-10T09:55:00+0700',
      actor_name: 'Nok Colleague',
      application_id: applicationId,
      application_name: applicationId === 'app' ? 'AdPilot' : 'Ads Manager',
      object_id: 's-1',
    });
    const status: GraphActivity = { ...entry('other'), event_type: 'update_ad_set_run_status', actor_name: 'Someone' };
    const [named] = externalChanges(budgetChange, [], [status, entry('other')], 'app', FOUND);
    expect(named).toMatchObject({ actor: 'Nok Colleague', app: 'Ads Manager', at: new Date('2026-03-10T02:55:00Z') });
    const [ours] = externalChanges(budgetChange, [], [entry('app')], 'app', FOUND);
    expect(ours).toMatchObject({ actor: null, app: null, at: new Date('2026-03-10T02:55:00Z') });
    const [unknown] = externalChanges(budgetChange, [], [], 'app', FOUND);
    expect(unknown).toMatchObject({ actor: null, app: null, at: FOUND });
  });
});
