import { afterEach, describe, expect, it } from 'vitest';
import { exportFileName } from './activity-logs.ts';

const realZone = process.env.TZ;

afterEach(() => {
  if (realZone === undefined) delete process.env.TZ;
  else process.env.TZ = realZone;
});

describe('exportFileName', () => {
  it("names the file by the reader's local day, not the UTC day", () => {
    // 23:30 UTC on the 26th is already 06:30 on the 27th in Bangkok.
    const now = new Date('2026-11-26T23:30:00Z');
    process.env.TZ = 'Asia/Bangkok';
    expect(exportFileName('csv', now)).toBe('adpilot-activity-2026-11-27.csv');
    process.env.TZ = 'America/Los_Angeles';
    expect(exportFileName('json', now)).toBe('adpilot-activity-2026-11-26.json');
  });
});
