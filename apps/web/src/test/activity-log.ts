import type { ActivityLog } from '@adpilot/contracts';

// Starts above the small sequence numbers tests give live entries by hand (a streamed `seq: 42`), so a built entry
// never shares one with them.
let seq = 100;

/** An activity entry as GET /api/logs answers it: a plain info note with its own id and sequence number. */
export function buildActivityLog(overrides: Partial<ActivityLog> = {}): ActivityLog {
  seq += 1;
  return {
    _id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
    seq,
    level: 'info',
    type: 'note',
    code: null,
    params: {},
    description: `entry ${seq}`,
    adAccountId: null,
    ruleId: null,
    metadata: {},
    actor: null,
    createdAt: new Date().toISOString(),
    ...overrides,
  };
}
