import type { DatabaseHandle } from '@adpilot/db';
import type { FastifyBaseLogger } from 'fastify';
import { fromPglite, PgBoss, type Job, type JobResult, type QueuePolicy, type SendOptions } from 'pg-boss';
import type { z } from 'zod';
import { redactedError } from '../lib/redact.ts';

/** A job declared as data: its name, the schema of its payload, and what runs it. */
export interface JobDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  payload: S;
  handler: (data: z.infer<S>, job: { id: string; retryCount: number }) => Promise<void>;
  /** Cron (UTC) on which pg-boss enqueues it; one instance of the schedule fires however many processes run. */
  cron?: string;
  policy?: QueuePolicy;
  retryLimit?: number;
  retryDelaySeconds?: number;
  expireInSeconds?: number;
  /** How many of these one worker process runs at once. */
  concurrency?: number;
  /**
   * How long a free slot of this job waits before it looks for work again, after an empty look or after a job
   * shorter than this (pg-boss's 2 s unless the timing says less): a queue of many short jobs at once (a rule
   * slot's runs) says less, or each slot takes at most one job per interval however long the backlog.
   */
  pollingIntervalSeconds?: number;
  /**
   * How many jobs a slot takes at once (1 by default). Above 1 the slot runs them one after the other, settles
   * each by its own outcome, and after a full batch looks for the next at once instead of after the polling
   * interval: for a queue that gets a burst of short jobs (a rule slot's runs).
   */
  batchSize?: number;
}

/** How one attempt of a job ended: done, thrown and to be tried again, or thrown at its last attempt. */
export type JobOutcome = 'completed' | 'retried' | 'failed';

/** Told of every job attempt this process runs, once it ends (the server's metrics count them). */
export interface JobObserver {
  finished(event: { queue: string; outcome: JobOutcome; seconds: number }): void;
}

/** How often pg-boss looks for expired jobs and new work; tests shorten them to see a redelivery in seconds. */
export interface JobQueueTiming {
  superviseIntervalSeconds?: number;
  pollingIntervalSeconds?: number;
}

/**
 * pg-boss on our database: Postgres in scale-out (jobs claimed with SKIP LOCKED by any worker), or the
 * embedded PGlite through its adapter. API processes only enqueue; workers also run handlers.
 */
const UNFINISHED = new Set<string>(['created', 'retry', 'active']);
const DEFAULT_RETRY_LIMIT = 3;

export class JobQueue {
  private readonly boss: PgBoss;
  private readonly definitions = new Map<string, JobDefinition>();
  private started = false;

  /**
   * `schedules: false` (ROLE=api): this process only enqueues, so it neither turns schedules into jobs nor runs the
   * queue's maintenance (expiry, retention); the workers do both.
   */
  constructor(
    database: DatabaseHandle,
    private readonly log: FastifyBaseLogger,
    private readonly timing: JobQueueTiming = {},
    private readonly observer?: JobObserver,
    private readonly options: { schedules: boolean } = { schedules: true },
  ) {
    const supervise = timing.superviseIntervalSeconds
      ? {
          superviseIntervalSeconds: timing.superviseIntervalSeconds,
          monitorIntervalSeconds: timing.superviseIntervalSeconds,
        }
      : {};
    const roles = { schedule: options.schedules, supervise: options.schedules, ...supervise };
    // The queue keeps its own schema as the login user: on PGlite through the connection made for it, which
    // switches back from the application role statement by statement; on Postgres through its own pool.
    this.boss = database.jobQueueConnection
      ? new PgBoss({ db: fromPglite(database.jobQueueConnection), backend: 'pglite', schema: 'pgboss', ...roles })
      : new PgBoss({ connectionString: database.url, schema: 'pgboss', max: 4, ...roles });
    this.boss.on('error', (error) => this.log.error({ err: error }, 'job queue error'));
  }

  define<S extends z.ZodType>(definition: JobDefinition<S>): void {
    this.definitions.set(definition.name, definition as unknown as JobDefinition);
  }

  async start(options: { work: boolean }): Promise<void> {
    await this.boss.start();
    this.started = true;
    for (const definition of this.definitions.values()) {
      await this.boss.createQueue(definition.name, {
        policy: definition.policy ?? 'standard',
        retryLimit: definition.retryLimit ?? DEFAULT_RETRY_LIMIT,
        retryDelay: definition.retryDelaySeconds ?? 30,
        retryBackoff: true,
        expireInSeconds: definition.expireInSeconds ?? 15 * 60,
      });
      if (definition.cron && this.options.schedules) await this.boss.schedule(definition.name, definition.cron, {});
      if (options.work) await this.work(definition);
    }
  }

  private async work(definition: JobDefinition): Promise<void> {
    const concurrency = definition.concurrency ?? 2;
    const intervals = [definition.pollingIntervalSeconds, this.timing.pollingIntervalSeconds].filter(
      (seconds): seconds is number => seconds !== undefined,
    );
    const pollingIntervalSeconds = intervals.length ? Math.min(...intervals) : undefined;
    const batchSize = definition.batchSize ?? 1;
    /** One job run, its outcome told to the observer; what it threw comes back redacted. */
    const runOne = async (job: Job<object>): Promise<Error | undefined> => {
      const started = performance.now();
      const finished = (outcome: JobOutcome) =>
        this.observer?.finished({ queue: definition.name, outcome, seconds: (performance.now() - started) / 1000 });
      try {
        const data = definition.payload.parse(job.data);
        await definition.handler(data, { id: job.id, retryCount: job.retryCount });
        finished('completed');
        return undefined;
      } catch (error) {
        finished(job.retryCount < (definition.retryLimit ?? DEFAULT_RETRY_LIMIT) ? 'retried' : 'failed');
        // pg-boss stores what a failed handler throws in its job table: the secrets it carries stay out.
        return redactedError(error);
      }
    };
    const polling = pollingIntervalSeconds ? { pollingIntervalSeconds } : {};
    if (batchSize === 1) {
      await this.boss.work(
        definition.name,
        { batchSize: 1, localConcurrency: concurrency, ...polling },
        async ([job]: Job<object>[]) => {
          const failed = job ? await runOne(job) : undefined;
          if (failed) throw failed;
        },
      );
      return;
    }
    // Batches: a slot takes `batchSize` jobs, runs them one after the other and settles each by its own outcome;
    // after a full batch it looks for the next at once (burst), so a backlog never waits out the polling interval.
    await this.boss.work(
      definition.name,
      { batchSize, localConcurrency: concurrency, burstWhenBatchFull: true, perJobResults: true, ...polling },
      async (jobs: Job<object>[]) => {
        const results: JobResult[] = [];
        for (const job of jobs) {
          const failed = await runOne(job);
          results.push(failed ? { id: job.id, status: 'failed', output: failed } : { id: job.id, status: 'completed' });
        }
        return results;
      },
    );
  }

  /** Enqueues a job; with a singleton key, a second copy while one is queued is dropped (returns null). */
  async send(name: string, data: object, options: SendOptions = {}): Promise<string | null> {
    const definition = this.definitions.get(name);
    if (!definition) throw new Error(`Unknown job ${name}`);
    return this.boss.send(name, definition.payload.parse(data) as object, options);
  }

  /**
   * Jobs of these queues not yet finished: waiting (deferred ones too), retrying or running. Zero means the work
   * they stand for is done and nothing of it can still arrive (tests wait for it instead of sleeping).
   */
  async backlog(names: readonly string[]): Promise<number> {
    let count = 0;
    for (const name of names) {
      const jobs = await this.boss.findJobs(name);
      count += jobs.filter((job) => UNFINISHED.has(job.state)).length;
    }
    return count;
  }

  /** Whether the queue answers: started, and its schema readable on its own connection (the readiness check). */
  async reachable(): Promise<boolean> {
    if (!this.started) return false;
    return this.boss.schemaVersion().then(
      (version) => version !== null,
      () => false,
    );
  }

  /**
   * Takes no new job and waits up to `timeoutMs` for the running ones to finish (a graceful stop); pg-boss then fails
   * a job still running, and its retry policy runs it again (on another worker, or this one after a restart).
   */
  async stop(timeoutMs = 10_000): Promise<void> {
    if (!this.started) return;
    this.started = false;
    await this.boss.stop({ graceful: true, timeout: timeoutMs });
  }
}
