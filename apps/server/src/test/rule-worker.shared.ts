/** What the crash test hands its worker process. */
export interface CrashWorkerArgs {
  databaseUrl?: string;
  dataDir?: string;
  sandboxUrl: string;
  appId: string;
  appSecret: string;
  secret: string;
}

/** Short leases and expiries, so the redelivery of a killed worker's job is seen within seconds. */
export const CRASH_TIMING = {
  queue: { superviseIntervalSeconds: 1, pollingIntervalSeconds: 0.5 },
  rules: { leaseMs: 2_000, jobs: { expireInSeconds: 8, retryDelaySeconds: 1 } },
} as const;
