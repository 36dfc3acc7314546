import {
  approveAllResultSchema,
  backtestRequestSchema,
  createRuleRequestSchema,
  revertResponseSchema,
  ruleBacktestSchema,
  rulePreviewSchema,
  ruleActionIdParamsSchema,
  ruleIdParamsSchema,
  ruleRunSchema,
  ruleRunIdParamsSchema,
  ruleRunStartedSchema,
  successEnvelope,
} from '@adpilot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { scopeOf } from '../../../plugins/authenticate.ts';
import type { RulePreviewService } from '../definitions/rule-preview.service.ts';
import type { ProposalsService } from '../proposals/proposals.service.ts';
import type { RuleRunsService } from './rule-runs.service.ts';

export interface RuleRunsRoutesDeps {
  ruleRuns: RuleRunsService;
  rulePreview: RulePreviewService;
  proposals: ProposalsService;
}

const tags = ['rules'];
const emptyBody = z.strictObject({}).nullish();

/** Preview, backtest, run now, the run history and revert; inside /api/rules, behind its authentication hook. */
export const ruleRunsRoutes: FastifyPluginAsyncZod<RuleRunsRoutesDeps> = async (
  app,
  { ruleRuns, rulePreview, proposals },
) => {
  app.post(
    '/preview',
    { schema: { tags, body: createRuleRequestSchema, response: { 200: successEnvelope(rulePreviewSchema) } } },
    async (request) => ({
      success: true as const,
      data: await rulePreview.previewBody(scopeOf(request), request.body),
    }),
  );

  app.post(
    '/:id/preview',
    {
      // A saved rule's preview and backtest only read: a viewer may ask them (ADR 0070).
      config: { role: 'viewer' },
      schema: {
        tags,
        params: ruleIdParamsSchema,
        body: emptyBody,
        response: { 200: successEnvelope(rulePreviewSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await rulePreview.previewSaved(scopeOf(request), request.params.id),
    }),
  );

  app.post(
    '/:id/backtest',
    {
      // A saved rule's preview and backtest only read: a viewer may ask them (ADR 0070).
      config: { role: 'viewer' },
      schema: {
        tags,
        params: ruleIdParamsSchema,
        body: backtestRequestSchema.nullish(),
        response: { 200: successEnvelope(ruleBacktestSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await rulePreview.backtest(
        scopeOf(request),
        request.params.id,
        request.body?.days ?? backtestRequestSchema.parse({}).days,
      ),
    }),
  );

  app.post(
    '/:id/run',
    {
      schema: {
        tags,
        params: ruleIdParamsSchema,
        body: emptyBody,
        response: { 202: successEnvelope(ruleRunStartedSchema) },
      },
    },
    async (request, reply) => {
      reply.status(202);
      return { success: true as const, data: await ruleRuns.runNow(scopeOf(request), request.params.id) };
    },
  );

  app.get(
    '/:id/runs',
    { schema: { tags, params: ruleIdParamsSchema, response: { 200: successEnvelope(z.array(ruleRunSchema)) } } },
    async (request) => ({
      success: true as const,
      data: await ruleRuns.listRuns(scopeOf(request), request.params.id),
    }),
  );

  app.post(
    '/actions/:actionId/revert',
    {
      schema: {
        tags,
        params: ruleActionIdParamsSchema,
        body: emptyBody,
        response: { 200: successEnvelope(revertResponseSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: { action: await ruleRuns.revert(scopeOf(request), request.params.actionId) },
    }),
  );

  app.post(
    '/runs/:runId/approve-all',
    {
      schema: {
        tags,
        params: ruleRunIdParamsSchema,
        body: emptyBody,
        response: { 200: successEnvelope(approveAllResultSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await proposals.approveAll(scopeOf(request), request.params.runId),
    }),
  );
};
