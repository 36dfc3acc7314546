import { PROPOSAL_STATUSES } from '@adpilot/contracts';
import { z } from 'zod';
import type { ProposalsService } from '../../rules/index.ts';
import { defineTool, pageInput, pageOf, readOnly, type ToolDefinition } from '../../../lib/tool-registry.ts';

export interface ProposalToolServices {
  proposals: Pick<ProposalsService, 'list' | 'one'>;
}

export function proposalTools(services: ProposalToolServices): ToolDefinition[] {
  return [
    defineTool({
      name: 'list_proposals',
      title: 'List proposals',
      description:
        'Changes waiting in the Inbox for a person (or decided ones, by status), newest first, a page at a time',
      scope: 'read',
      input: z.strictObject({ status: z.enum(PROPOSAL_STATUSES).default('pending'), ...pageInput }),
      annotations: readOnly,
      run: async ({ scope }, input) => {
        const all = await services.proposals.list(scope, input.status);
        const { page, nextCursor, total } = pageOf(all, input.limit, input.cursor);
        return {
          proposals: page.map((proposal) => ({
            id: proposal.id,
            ruleName: proposal.ruleName,
            target: proposal.target,
            action: proposal.action,
            from: proposal.from,
            to: proposal.to,
            currency: proposal.currency,
            status: proposal.status,
            createdAt: proposal.createdAt,
            expiresAt: proposal.expiresAt,
          })),
          total,
          nextCursor,
        };
      },
    }),
    defineTool({
      name: 'get_proposal',
      title: 'Get a proposal',
      description: 'One proposal in full: the change, why the rule made it, its status and when it expires',
      scope: 'read',
      input: z.strictObject({ proposalId: z.uuid().describe('The proposal’s id (from list_proposals)') }),
      annotations: readOnly,
      run: async ({ scope }, input) => ({ proposal: await services.proposals.one(scope, input.proposalId) }),
    }),
  ];
}
