import type { MetaObserver } from '@adpilot/meta';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { JobObserver } from '../../jobs/job-queue.ts';
import type { ToolCallObserver } from '../agent-tools/index.ts';
import type { RuleActionObserver } from '../rules/index.ts';

/** What the metrics read at scrape time, given once the modules that hold it exist. */
export interface ScrapeSources {
  /** Live activity streams open in this process. */
  liveStreams(): number;
  /** Proposals waiting for a decision, in every workspace (one count on the system path). */
  proposalsPending(): Promise<number>;
  /** MCP sessions open in this process (ADR 0152). */
  mcpSessions?(): number;
}

/** How long a scrape waits for the pending proposals' count. */
const GAUGE_QUERY_TIMEOUT_MS = 2_000;

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * The operator's metrics of one app instance, in a registry of its own (tests build many apps in one process, so
 * nothing goes to prom-client's global registry). Every label holds a value from a small fixed set, a route
 * pattern, or an ad account's numeric id (ADR 0084): never a raw URL, an id of a row, a token or an address.
 */
export class AppMetrics {
  readonly registry = new Registry();
  private sources: ScrapeSources | undefined;
  private processMetrics = false;

  private readonly requests = new Counter({
    name: 'adpilot_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly requestSeconds = new Histogram({
    name: 'adpilot_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  private readonly serverErrors = new Counter({
    name: 'adpilot_http_server_errors_total',
    help: 'Requests answered with a 5xx by the error handler, by envelope code; unhandled="true" for a bug',
    labelNames: ['code', 'unhandled'] as const,
    registers: [this.registry],
  });
  private readonly jobRuns = new Counter({
    name: 'adpilot_jobs_total',
    help: 'Job attempts run by this process, by queue and outcome (completed, retried, failed)',
    labelNames: ['queue', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly jobSeconds = new Histogram({
    name: 'adpilot_job_duration_seconds',
    help: 'Time one job attempt ran, by queue and outcome',
    labelNames: ['queue', 'outcome'] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900],
    registers: [this.registry],
  });
  private readonly metaCalls = new Counter({
    name: 'adpilot_meta_calls_total',
    help: 'HTTP exchanges with the Meta Graph API (each retry is one), by endpoint family, method and outcome',
    labelNames: ['kind', 'method', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly metaSeconds = new Histogram({
    name: 'adpilot_meta_call_duration_seconds',
    help: 'Time of one exchange with the Meta Graph API, by endpoint family',
    labelNames: ['kind'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [this.registry],
  });
  private readonly metaWaits = new Counter({
    name: 'adpilot_meta_throttle_waits_total',
    help: "Pauses before a Meta call: Meta's usage throttle, or the backoff after a rate limit or a transient error",
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  private readonly metaWaitSeconds = new Counter({
    name: 'adpilot_meta_throttle_wait_seconds_total',
    help: 'Seconds spent in those pauses',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  private readonly accountUsage = new Gauge({
    name: 'adpilot_meta_ad_account_usage_percent',
    help: "Last usage Meta's headers reported for an ad account (numeric id), by header",
    labelNames: ['ad_account', 'header'] as const,
    registers: [this.registry],
  });
  private readonly appUsage = new Gauge({
    name: 'adpilot_meta_app_usage_percent',
    help: "Last app usage Meta's X-App-Usage header reported, by measure",
    labelNames: ['measure'] as const,
    registers: [this.registry],
  });
  private readonly ruleActionOutcomes = new Counter({
    name: 'adpilot_rule_actions_total',
    help: 'Rule actions recorded in the ledger, by outcome (planned, proposed, notified, applied, skipped, failed…)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  private readonly toolCallCount = new Counter({
    name: 'adpilot_mcp_tool_calls_total',
    help: 'MCP tool calls by tool and outcome (ok, refused for its scope, invalid input, failed, error, rate_limited)',
    labelNames: ['tool', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly toolCallSeconds = new Histogram({
    name: 'adpilot_mcp_tool_call_duration_seconds',
    help: 'Time to answer an MCP tool call, by tool',
    labelNames: ['tool'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  private readonly mcpSessions: Gauge = new Gauge({
    name: 'adpilot_mcp_sessions',
    help: 'MCP sessions open in this process',
    registers: [this.registry],
    collect: () => this.mcpSessions.set(this.sources?.mcpSessions?.() ?? 0),
  });

  private readonly liveStreams: Gauge = new Gauge({
    name: 'adpilot_live_streams',
    help: 'Live activity streams (server-sent events) open in this process',
    registers: [this.registry],
    collect: () => this.liveStreams.set(this.sources?.liveStreams() ?? 0),
  });
  private readonly proposalsPending: Gauge = new Gauge({
    name: 'adpilot_proposals_pending',
    help: 'Proposals waiting for a decision, all workspaces',
    registers: [this.registry],
    collect: async () => this.proposalsPending.set(await this.pendingOrUnknown()),
  });

  /** Hands over what is read at scrape time (the modules exist after the metrics). */
  readFrom(sources: ScrapeSources): void {
    this.sources = sources;
  }

  /**
   * The database's count, or NaN ("unknown") when it fails or takes longer than a scrape should wait: a database in
   * trouble must not turn the whole scrape into a 500, which Prometheus would read as this process being down.
   */
  private async pendingOrUnknown(): Promise<number> {
    if (!this.sources) return 0;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<number>((resolve) => {
      timer = setTimeout(() => resolve(Number.NaN), GAUGE_QUERY_TIMEOUT_MS);
    });
    try {
      return await Promise.race([this.sources.proposalsPending(), late]);
    } catch {
      return Number.NaN;
    } finally {
      clearTimeout(timer);
    }
  }

  /** One answered request; `route` is the route's pattern, or `unmatched` when no route took it. */
  request(event: { method: string; route: string; status: number; seconds: number }): void {
    const labels = {
      method: METHODS.has(event.method) ? event.method : 'OTHER',
      route: event.route,
      status: String(event.status),
    };
    this.requests.inc(labels);
    this.requestSeconds.observe(labels, event.seconds);
  }

  serverError(event: { code: string; unhandled: boolean }): void {
    this.serverErrors.inc({ code: event.code, unhandled: String(event.unhandled) });
  }

  readonly jobs: JobObserver = {
    finished: ({ queue, outcome, seconds }) => {
      this.jobRuns.inc({ queue, outcome });
      this.jobSeconds.observe({ queue, outcome }, seconds);
    },
  };

  readonly meta: MetaObserver = {
    call: ({ kind, method, outcome, seconds }) => {
      this.metaCalls.inc({ kind, method, outcome });
      this.metaSeconds.observe({ kind }, seconds);
    },
    wait: ({ reason, seconds }) => {
      this.metaWaits.inc({ reason });
      this.metaWaitSeconds.inc({ reason }, seconds);
    },
    usage: ({ account, app }) => {
      if (account) {
        const set = (header: string, value: number | undefined) => {
          if (value !== undefined) this.accountUsage.set({ ad_account: account.accountId, header }, value);
        };
        set('ad_account', account.accIdUtilPct);
        set('insights', account.insightsThrottle?.accIdUtilPct);
        const business = account.businessUseCase.map((entry) =>
          Math.max(entry.callCount, entry.totalCputime, entry.totalTime),
        );
        set('business_use_case', business.length > 0 ? Math.max(...business) : undefined);
      }
      if (app) {
        this.appUsage.set({ measure: 'call_count' }, app.callCount);
        this.appUsage.set({ measure: 'total_time' }, app.totalTime);
        this.appUsage.set({ measure: 'total_cputime' }, app.totalCputime);
      }
    },
  };

  /** Tool names come from the registry (a fixed set; an unknown name is counted as `unknown`). */
  readonly toolCalls: ToolCallObserver = {
    toolCall: ({ tool, outcome, seconds }) => {
      this.toolCallCount.inc({ tool, outcome });
      if (outcome !== 'rate_limited') this.toolCallSeconds.observe({ tool }, seconds);
    },
  };

  readonly ruleActions: RuleActionObserver = {
    recorded: (outcome, count = 1) => {
      if (count > 0) this.ruleActionOutcomes.inc({ outcome }, count);
    },
  };

  /**
   * The Prometheus text of every metric. The process's own (memory, event loop lag, GC…) start at the first scrape:
   * an app that is never scraped (each test's) runs no event-loop monitor or GC observer for nothing.
   */
  async scrape(): Promise<{ contentType: string; body: string }> {
    if (!this.processMetrics) {
      this.processMetrics = true;
      collectDefaultMetrics({ register: this.registry });
    }
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
