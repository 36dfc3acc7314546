import type { JobQueue } from '../../jobs/job-queue.ts';
import { registeredJob } from '../../jobs/job-registry.ts';
import { INVITATION_MAIL_JOB, queuedInvitationMailSchema, type InvitationMailer } from './invitation-mailer.ts';

/** The wait before a refused invitation mail is tried again; pg-boss doubles it each time. Tests shorten it. */
export const DEFAULT_INVITATION_MAIL_RETRY_SECONDS = 60;
/** Tries after the first: with the doubling, about eight and a half hours of a mail server being down. */
const INVITATION_MAIL_RETRIES = 9;

/** The workspaces' job (ADR 0098): an invitation's mail the mail server refused, tried again until it takes it. */
export function defineWorkspaceJobs(
  queue: JobQueue,
  mailer: Pick<InvitationMailer, 'sendQueued'>,
  retryDelaySeconds = DEFAULT_INVITATION_MAIL_RETRY_SECONDS,
): void {
  queue.define({
    ...registeredJob(INVITATION_MAIL_JOB),
    payload: queuedInvitationMailSchema,
    // One job per invitation link queued, retrying or running: the key is the invitation and its link's hash.
    retryLimit: INVITATION_MAIL_RETRIES,
    retryDelaySeconds,
    concurrency: 1,
    handler: (job) => mailer.sendQueued(job),
  });
}
