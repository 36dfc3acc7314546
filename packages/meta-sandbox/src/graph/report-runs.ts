import { formatGraphTime } from '../world/time-zone.ts';

export interface ReportRun {
  id: string;
  accountId: string;
  /** The world the run was made in: another world's token cannot see it. */
  world: string;
  personaId: string;
  timezone: string;
  dateStart: string;
  dateStop: string;
  createdAt: number;
  rows: Record<string, unknown>[];
  polls: number;
}

const MAX_KEPT_RUNS = 200;

/**
 * Async insights jobs. The rows are computed when the job is created; the job then reports progress on each
 * status poll and completes after a set number of polls, so tests with a fake clock see the whole flow.
 */
export class ReportRuns {
  private readonly runs = new Map<string, ReportRun>();
  private sequence = 0;

  constructor(private readonly pollsToComplete: number) {}

  create(run: Omit<ReportRun, 'id' | 'polls'>): ReportRun {
    this.sequence++;
    const created: ReportRun = { ...run, id: `6${String(this.sequence).padStart(15, '0')}`, polls: 0 };
    this.runs.set(created.id, created);
    if (this.runs.size > MAX_KEPT_RUNS) {
      const oldest = this.runs.keys().next().value;
      if (oldest !== undefined) this.runs.delete(oldest);
    }
    return created;
  }

  get(id: string): ReportRun | undefined {
    return this.runs.get(id);
  }

  isComplete(run: ReportRun): boolean {
    return run.polls >= this.pollsToComplete;
  }

  /** The run as `GET /{report_run_id}` shows it; each call counts as a poll. */
  poll(run: ReportRun, now: number): Record<string, unknown> {
    run.polls++;
    const complete = this.isComplete(run);
    const percent = complete ? 100 : Math.round((run.polls / (this.pollsToComplete + 1)) * 100);
    return {
      id: run.id,
      account_id: run.accountId,
      async_status: complete ? 'Job Completed' : run.polls === 1 ? 'Job Started' : 'Job Running',
      async_percent_completion: percent,
      date_start: run.dateStart,
      date_stop: run.dateStop,
      time_ref: Math.floor(run.createdAt / 1000),
      ...(complete ? { time_completed: Math.floor(now / 1000) } : {}),
      is_running: !complete,
      created_time: formatGraphTime(run.createdAt, run.timezone),
    };
  }

  clear(): void {
    this.runs.clear();
    this.sequence = 0;
  }
}
