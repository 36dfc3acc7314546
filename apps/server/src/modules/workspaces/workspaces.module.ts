import type { Transactions } from '@adpilot/db';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { bindRoutes } from '../../lib/bind-routes.ts';
import type { OutboundMail } from '../outbound/index.ts';
import type { AttemptLimiter } from '../auth/index.ts';
import { HandoverRepository } from './handover.repository.ts';
import { HandoverService, type HandoverPlans } from './handover.service.ts';
import { InvitationMailer } from './invitation-mailer.ts';
import { InvitationsRepository } from './invitations.repository.ts';
import { invitationsRoutes } from './invitations.routes.ts';
import { InvitationsService, type SeatPlans } from './invitations.service.ts';
import { MembershipCache } from './membership-cache.ts';
import { WorkspacesRepository } from './workspaces.repository.ts';
import { workspacesRoutes } from './workspaces.routes.ts';
import { defineWorkspaceJobs } from './workspaces.jobs.ts';
import { WorkspacesService, type People, type WorkspaceActivity } from './workspaces.service.ts';

export interface WorkspacesModuleDeps {
  transactions: Transactions;
  /** The activity writer: every change of a workspace and its members is logged, signed by who made it. */
  activity: WorkspaceActivity;
  /** Auth's users: the members' names and addresses, read in this module's unit of work. */
  people: People;
  /** Subscription's plans: a workspace's seats (ADR 0071). */
  plans: SeatPlans;
  /** Subscription's judgement of a handover: does the workspace fit the receiver's plan (issue 31). */
  handoverPlans: HandoverPlans;
  /** Auth's attempt counters: re-sending an invitation, looking one up. */
  limiter: Pick<AttemptLimiter, 'take'>;
  /** Outbound mail's policy, built after this module (ADR 0092). */
  outbound: Pick<OutboundMail, 'admit' | 'deliver' | 'confirmIn'>;
  /** The job queue: an invitation mail the mail server refused is queued there (ADR 0098). */
  queue: JobQueue;
  /** The first wait before a refused invitation mail is tried again (tests shorten it). */
  invitationMailRetrySeconds?: number;
  publicUrl: string;
  now: () => Date;
}

/**
 * Workspaces, their members and invitations (ADR 0070, 0071), and the job that sends an invitation mail the mail
 * server refused (ADR 0098). Its public API: `service.createPersonal(tx, user)`,
 * which sign-up calls in the unit of work that makes the user; `service.resolve(user, id)`, the request's current
 * workspace and role (cached in `memberships`, whose listener app.ts hands the sessions channel); and its routes:
 * `routes` (/api/workspaces) and `invitationRoutes` (/api/invitations).
 */
export function createWorkspacesModule(deps: WorkspacesModuleDeps) {
  const memberships = new MembershipCache(deps.now);
  const repository = new WorkspacesRepository();
  const service = new WorkspacesService({
    transactions: deps.transactions,
    repository,
    memberships,
    activity: deps.activity,
    people: deps.people,
    seats: {
      reserveIn: (tx, workspaceId, person) => invitations.checkSeat(tx, workspaceId, person, deps.now(), 'reserve'),
    },
  });
  const invitationsRepository = new InvitationsRepository();
  const invitationMailer = new InvitationMailer({
    transactions: deps.transactions,
    repository: invitationsRepository,
    workspaces: repository,
    people: deps.people,
    outbound: deps.outbound,
    queue: deps.queue,
    publicUrl: deps.publicUrl,
    now: deps.now,
  });
  defineWorkspaceJobs(deps.queue, invitationMailer, deps.invitationMailRetrySeconds);
  const invitations: InvitationsService = new InvitationsService({
    transactions: deps.transactions,
    repository: invitationsRepository,
    workspaces: repository,
    activity: deps.activity,
    people: deps.people,
    plans: deps.plans,
    limiter: deps.limiter,
    outbound: deps.outbound,
    invitationMailer,
    now: deps.now,
  });
  const handover = new HandoverService({
    transactions: deps.transactions,
    workspaces: repository,
    repository: new HandoverRepository(),
    memberships,
    activity: deps.activity,
    people: deps.people,
    plans: deps.handoverPlans,
    now: deps.now,
  });
  return {
    service,
    invitations,
    invitationMailer,
    handover,
    memberships,
    routes: bindRoutes(workspacesRoutes, { workspaces: service, invitations, handover }),
    invitationRoutes: bindRoutes(invitationsRoutes, { invitations }),
  };
}
