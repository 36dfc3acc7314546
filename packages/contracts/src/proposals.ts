import { z } from 'zod';
import { RULE_ACTION_TYPES } from './rule-constants.ts';
import { explanationSchema, ledgerActorSchema, ruleEntityRefSchema, ruleActionRecordSchema } from './rule-results.ts';

/**
 * Proposals: the changes a rule in approve mode planned, each waiting for a person to approve (then it is written
 * to Meta once) or reject it; unanswered, it expires after the rule's approval hours. A proposal whose entity
 * changed at Meta since it was made is closed as stale when someone tries to approve it.
 */

export const PROPOSAL_STATUSES = ['pending', 'approved', 'rejected', 'expired', 'stale'] as const;
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];

export const PROPOSAL_MESSAGES = {
  notFound: 'Proposal not found',
  runNotFound: 'Rule run not found',
  closed: 'This proposal was already decided or has expired',
  statusInvalid: `Status must be one of ${PROPOSAL_STATUSES.join(', ')}`,
  stale: (from: string, to: string) =>
    `The live value changed since this proposal was made (from ${from} to ${to}); nothing was written`,
} as const;

/** GET /api/proposals?status=…: pending when absent. */
export const proposalListQuerySchema = z.strictObject({
  status: z.enum(PROPOSAL_STATUSES, { error: PROPOSAL_MESSAGES.statusInvalid }).default('pending'),
});

export const proposalIdParamsSchema = z.strictObject({ id: z.uuid({ error: PROPOSAL_MESSAGES.notFound }) });
export const ruleRunIdParamsSchema = z.strictObject({ runId: z.uuid({ error: PROPOSAL_MESSAGES.runNotFound }) });

export const proposalSchema = z.object({
  id: z.uuid(),
  /** The rule and run that proposed it; null for a person's or an agent's proposal (see `actor`). */
  ruleId: z.uuid().nullable(),
  ruleName: z.string().nullable(),
  runId: z.uuid().nullable(),
  actor: ledgerActorSchema,
  /** The entity the rule judged. */
  entity: ruleEntityRefSchema,
  /** The entity written to: itself, or for a budget its budget holder. */
  target: ruleEntityRefSchema,
  action: z.enum(RULE_ACTION_TYPES),
  /** `status`, `daily_budget` or `lifetime_budget`. */
  field: z.enum(['status', 'daily_budget', 'lifetime_budget']),
  /** A status, or a budget in the account currency's major units. */
  from: z.union([z.string(), z.number()]).nullable(),
  to: z.union([z.string(), z.number()]).nullable(),
  currency: z.string(),
  explanation: explanationSchema,
  createdAt: z.string(),
  expiresAt: z.string(),
  status: z.enum(PROPOSAL_STATUSES),
  decidedAt: z.string().nullable(),
  /** The member who approved or rejected it (name from their account; null once they left); null: nobody did. */
  decidedBy: z.object({ id: z.uuid(), name: z.string().nullable() }).nullable(),
});
export type Proposal = z.infer<typeof proposalSchema>;

/** POST /api/proposals/:id/approve: the ledger row as written (its status says how the write went). */
export const proposalApprovedSchema = z.object({ proposal: proposalSchema, action: ruleActionRecordSchema });

/** POST /api/rules/runs/:runId/approve-all: what became of each pending proposal of the run. */
export const approveAllResultSchema = z.object({
  approved: z.array(ruleActionRecordSchema),
  /** Proposals closed instead (stale, or decided meanwhile), with the code of why. */
  refused: z.array(z.object({ id: z.uuid(), code: z.enum(['PROPOSAL_STALE', 'PROPOSAL_CLOSED']) })),
});
export type ApproveAllResult = z.infer<typeof approveAllResultSchema>;

/**
 * The approve and reject links the e-mail and LINE messages carry (ADR 0073): a signed token naming the proposal,
 * the decision, the member it was sent to and when it stops working (the proposal's expiry). The link opens
 * `/proposals/decide?token=…`, which reads `GET /api/proposal-links/:token` (nothing changes) and decides with
 * `POST /api/proposal-links/:token`, signed in or not; a decided proposal refuses a second use (409 PROPOSAL_CLOSED).
 */
export const PROPOSAL_DECISIONS = ['approve', 'reject'] as const;
export type ProposalDecision = (typeof PROPOSAL_DECISIONS)[number];

export const proposalLinkParamsSchema = z.strictObject({
  token: z
    .string()
    .min(1)
    .max(1000)
    .regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, 'Invalid link'),
});

export const proposalLinkSchema = z.object({ decision: z.enum(PROPOSAL_DECISIONS), proposal: proposalSchema });
export type ProposalLink = z.infer<typeof proposalLinkSchema>;
