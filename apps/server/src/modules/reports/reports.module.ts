import type { JobQueue } from '../../jobs/job-queue.ts';
import { bindRoutes } from '../../lib/bind-routes.ts';
import type { OutboundMail } from '../outbound/index.ts';
import type { ActivityRepository } from '../activity/index.ts';
import type { AttemptLimiter } from '../auth/index.ts';
import type { ProposalsService } from '../rules/index.ts';
import type { ReportDocument } from './report-document.ts';
import type { ReportsDeps } from './reports.service.ts';
import { reportsRoutes } from './reports.routes.ts';
import { ReportsService } from './reports.service.ts';
import { ReportBuilder, type ReportBuilderDeps } from './schedules/report-builder.ts';
import { ReportScheduler } from './schedules/report-scheduler.ts';
import { defineReportJobs } from './schedules/report-schedules.jobs.ts';
import { ReportSchedulesRepository } from './schedules/report-schedules.repository.ts';
import { reportSchedulesRoutes } from './schedules/report-schedules.routes.ts';
import { ReportSchedulesService } from './schedules/report-schedules.service.ts';
import { ReportSender } from './schedules/report-sender.ts';

/** Knobs tests turn; production uses the defaults. */
export interface ReportScheduleOptions {
  /** The first wait before a failed scheduled report is tried again (seconds). */
  retryDelaySeconds?: number;
  /** Takes the place of the PDF renderer (a test's failing or counting one). */
  render?: (doc: ReportDocument) => Promise<Buffer>;
}

/**
 * The reports and the scheduled reports (ADR 0080). Other modules need nothing of it: it exports its
 * routes; `scheduler` is the clock's work, which tests also call directly.
 */
export function createReportsModule(
  deps: ReportsDeps & {
    mirror: ReportBuilderDeps['mirror'];
    ruleActions: ReportBuilderDeps['ruleActions'];
    proposals: Pick<ProposalsService, 'countWaitingIn'>;
    workspaceName: ReportBuilderDeps['workspaceName'];
    outbound: Pick<OutboundMail, 'send'>;
    activity: Pick<ActivityRepository, 'insert'>;
    limiter: Pick<AttemptLimiter, 'take'>;
    queue: JobQueue;
  },
  options: ReportScheduleOptions = {},
) {
  const { transactions, mirror, now } = deps;
  const service = new ReportsService(deps);
  const repository = new ReportSchedulesRepository();
  const builder = new ReportBuilder(deps);
  const sender = new ReportSender({
    transactions,
    repository,
    builder,
    outbound: deps.outbound,
    activity: deps.activity,
    ...(options.render ? { render: options.render } : {}),
    now,
  });
  const schedules = new ReportSchedulesService({
    transactions,
    repository,
    mirror,
    sender,
    limiter: deps.limiter,
    now,
  });
  const scheduler = new ReportScheduler({ transactions, repository, mirror, sender, queue: deps.queue, now });
  defineReportJobs(deps.queue, scheduler, options.retryDelaySeconds);
  return {
    service,
    schedules,
    scheduler,
    routes: bindRoutes(reportsRoutes, { reports: service }),
    scheduleRoutes: bindRoutes(reportSchedulesRoutes, { schedules }),
  };
}
