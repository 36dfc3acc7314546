import { proposalLinkParamsSchema, proposalLinkSchema, successEnvelope } from '@adpilot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../../lib/app-error.ts';
import type { LinkClaims, ProposalLinks } from './proposal-links.ts';
import type { ProposalsService } from './proposals.service.ts';

const tags = ['proposals'];
const emptyBody = z.strictObject({}).nullish();

export interface ProposalLinkRoutesDeps {
  proposals: ProposalsService;
  links: ProposalLinks;
  /** Whether the member a link was sent to may still decide in its workspace (an editor or above, still a member). */
  canDecide: (userId: string, workspaceId: string) => Promise<boolean>;
}

/**
 * /api/proposal-links/:token: the approve and reject links of the e-mail and LINE messages (ADR 0073). Public: the
 * signed token is the authority, for the member it was sent to while they may still decide. Reading changes nothing;
 * deciding is a POST from the page that asks first.
 */
export const proposalLinkRoutes: FastifyPluginAsyncZod<ProposalLinkRoutesDeps> = async (
  app,
  { proposals, links, canDecide },
) => {
  const claimsOf = async (token: string): Promise<LinkClaims> => {
    const claims = links.verify(token);
    if (!claims) throw AppError.notFound('This link is not valid or has expired');
    if (!(await canDecide(claims.userId, claims.workspaceId)))
      throw AppError.forbidden('The member this link was sent to can no longer decide in this workspace');
    return claims;
  };
  const linkScope = (claims: LinkClaims) => ({ workspaceId: claims.workspaceId, userId: claims.userId });

  app.get(
    '/:token',
    { schema: { tags, params: proposalLinkParamsSchema, response: { 200: successEnvelope(proposalLinkSchema) } } },
    async (request) => {
      const claims = await claimsOf(request.params.token);
      return {
        success: true as const,
        data: { decision: claims.decision, proposal: await proposals.one(linkScope(claims), claims.proposalId) },
      };
    },
  );

  app.post(
    '/:token',
    {
      schema: {
        tags,
        params: proposalLinkParamsSchema,
        body: emptyBody,
        response: { 200: successEnvelope(proposalLinkSchema) },
      },
    },
    async (request) => {
      const claims = await claimsOf(request.params.token);
      const scope = linkScope(claims);
      const proposal =
        claims.decision === 'approve'
          ? (await proposals.approve(scope, claims.proposalId)).proposal
          : await proposals.reject(scope, claims.proposalId);
      return { success: true as const, data: { decision: claims.decision, proposal } };
    },
  );
};
