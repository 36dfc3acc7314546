import type { QueuePolicy } from 'pg-boss';

/**
 * One job as the registry knows it: what the docs list and the queue's wiring read (ADR 0196). The module named
 * `owner` declares it in its `<module>.jobs.ts` with `queue.define({ ...registeredJob(name), payload, handler })`:
 * the payload, the handler and the retry tuning stay beside the work, the schedule and the policy come from here.
 */
export interface RegisteredJob {
  name: string;
  /** The server module (`modules/<owner>/`) whose `*.jobs.ts` declares it. */
  owner: string;
  /** Cron (UTC) on which pg-boss enqueues it; none for a job something sends. */
  cron?: string;
  /** pg-boss's queue policy; `standard` when absent. `stately`: at most one queued and one running per key. */
  policy?: QueuePolicy;
  /** What it does, as ARCHITECTURE.md's "Jobs" lists it (Markdown, one sentence or a few). */
  summary: string;
}

/** Every job the server runs, grouped by owner. `npm run docs:jobs` writes ARCHITECTURE.md's list from it. */
export const JOB_REGISTRY: readonly RegisteredJob[] = [
  {
    name: 'ad-account-sync',
    owner: 'ad-accounts',
    policy: 'stately',
    summary: 'One account: at most one queued and one running per account.',
  },
  {
    name: 'ad-account-sync-due',
    owner: 'ad-accounts',
    cron: '*/5 * * * *',
    summary: 'Enqueue the accounts due.',
  },
  {
    name: 'ad-account-backfill',
    owner: 'ad-accounts',
    policy: 'stately',
    summary:
      "One account's older daily insights back to its `backfill_days`, 30 days a step, each step landing whole and " +
      'moving `ad_accounts.history_from`, so a stopped run resumes; per account; asked for by a longer setting and ' +
      'by a sync that leaves days to read (ADR 0103).',
  },
  {
    name: 'maintenance-purge',
    owner: 'maintenance',
    cron: '17 * * * *',
    summary:
      'Spent or expired OAuth states, reset links, refresh tokens, closed limit windows and outbox mail whose link ' +
      'expired.',
  },
  {
    name: 'activity-log-retention',
    owner: 'activity',
    cron: '41 3 * * *',
    summary: 'Entries older than `LOG_RETENTION_DAYS`, default 90 (ADR 37).',
  },
  {
    name: 'account-export',
    owner: 'account',
    summary:
      'One person\'s "Export my data": the ZIP of their profile, memberships and each owned workspace\'s rules, ' +
      "activity and API credentials' metadata, kept in `DATA_DIR/exports` under the hash of the mailed link's " +
      'token, which works once for 24 hours; a singleton per person.',
  },
  {
    name: 'rule-tick',
    owner: 'rules',
    cron: '* * * * *',
    summary:
      "On the system path: enqueue the rule slots due, every N minutes, daily or at each dayparting window's end in " +
      "each account's time zone (ADR 0127), and one `rule-hold` per timed hold's resume now due.",
  },
  {
    name: 'rule-run',
    owner: 'rules',
    policy: 'stately',
    summary: 'One rule × slot, keyed `<rule>:<slot>` (ADR 31).',
  },
  {
    name: 'rule-hold',
    owner: 'rules',
    summary: 'One resume of a timed hold, through the executor (ADR 74).',
  },
  {
    name: 'rule-proposal-expiry',
    owner: 'rules',
    cron: '*/5 * * * *',
    summary:
      'Close the proposals nobody decided in time, and hand an approval a crash left unwritten back to its run ' +
      '(ADR 0073).',
  },
  {
    name: 'notify-scan',
    owner: 'notifications',
    cron: '* * * * *',
    summary: "Every user's entries after their cursor (ADR 38).",
  },
  {
    name: 'notify-nudge',
    owner: 'notifications',
    policy: 'stately',
    summary:
      "The scan of one workspace's members, asked for by the activity writer after an error or notify entry; per " +
      'workspace.',
  },
  {
    name: 'notify-email',
    owner: 'notifications',
    summary:
      'One per entry and member, the job id being both, so however many processes scan, each is sent once (as the ' +
      'two below).',
  },
  {
    name: 'notify-webhook',
    owner: 'notifications',
    summary:
      'One per entry and member; retried with backoff, its last failure logged as `notification_webhook_failed`.',
  },
  {
    name: 'notify-line',
    owner: 'notifications',
    summary:
      'One per entry and member; retried with backoff, its last failure logged as `notification_line_failed`; a ' +
      "LINE push carries a retry key per entry and member, so a retried job is sent once, and LINE's 401, 403 and " +
      '429 are logged at once with their own codes (ADR 0075).',
  },
  {
    name: 'notify-digest-tick',
    owner: 'notifications',
    cron: '2 * * * *',
    summary: "Enqueue the digests whose hour has come in each user's time zone.",
  },
  {
    name: 'notify-digest',
    owner: 'notifications',
    summary: 'One per user and local day.',
  },
  {
    name: 'report-schedules.tick',
    owner: 'reports',
    cron: '*/5 * * * *',
    summary: "Claim each schedule's due period by inserting its delivery, so one worker wins it (ADR 0080).",
  },
  {
    name: 'report-schedules.send',
    owner: 'reports',
    policy: 'exclusive',
    summary:
      'One per claimed delivery, keyed by it; tried three times in all with backoff, the last outcome logged as ' +
      '`report_sent` or `report_failed`.',
  },
  {
    name: 'agents-purge',
    owner: 'agents',
    cron: '23 * * * *',
    summary: 'Spent or expired OAuth codes, and client registrations nobody granted in 30 days.',
  },
  {
    name: 'workspace-invitation-mail',
    owner: 'workspaces',
    policy: 'exclusive',
    summary:
      "An invitation's mail the mail server refused when it was made or re-sent, keyed by the invitation and its " +
      "link's hash; retried nine times with backoff, sent at most once by moving the invitation to a new link in " +
      'one conditional update first (ADR 0098).',
  },
  {
    name: 'demo-reset',
    owner: 'demo',
    cron: '41 * * * *',
    summary:
      'A new read-only demo workspace built on the sandbox, the demo visitor moved to it, the older one deleted ' +
      '(ADR 0185).',
  },
];

/**
 * The registry's part of a job's definition (its name, schedule and policy), to spread into `queue.define`. Throws
 * for a name the registry lacks: a new job is added here first, and the docs list follows.
 */
export function registeredJob(name: string): { name: string; cron?: string; policy?: QueuePolicy } {
  const job = JOB_REGISTRY.find((entry) => entry.name === name);
  if (!job) throw new Error(`Job ${name} is not in jobs/job-registry.ts`);
  return { name: job.name, ...(job.cron ? { cron: job.cron } : {}), ...(job.policy ? { policy: job.policy } : {}) };
}

/** How a cron the registry uses reads in the docs; a new cron needs its words here. */
const CRON_WORDS: Record<string, string> = {
  '* * * * *': 'every minute',
  '*/5 * * * *': 'every five minutes',
  '2 * * * *': 'hourly, at :02',
  '17 * * * *': 'hourly, at :17',
  '23 * * * *': 'hourly, at :23',
  '41 3 * * *': 'daily, at 03:41 UTC',
};

/** ARCHITECTURE.md's "Jobs" table, generated from the registry (`npm run docs:jobs`; `job-docs.test.ts` holds it). */
export function jobsTable(jobs: readonly RegisteredJob[] = JOB_REGISTRY): string {
  const rows = jobs.map((job) => {
    const when = job.cron ? `${CRON_WORDS[job.cron] ?? job.cron} (\`${job.cron}\`)` : 'when sent';
    return `| \`${job.name}\` | ${job.owner} | ${when} | ${job.policy ?? 'standard'} | ${job.summary} |`;
  });
  return ['| job | owner | runs | policy | what it does |', '|---|---|---|---|---|', ...rows].join('\n');
}
