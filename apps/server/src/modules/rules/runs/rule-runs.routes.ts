import {
  backtestRequestSchema,
  createRuleRequestSchema,
  holdResumeResponseSchema,
  revertResponseSchema,
  ruleHoldSchema,
  ruleImpactQuerySchema,
  ruleImpactSchema,
  ruleBacktestSchema,
  rulePreviewSchema,
  ruleActionIdParamsSchema,
  ruleIdParamsSchema,
  ruleRunSchema,
  ruleRunStartedSchema,
  successEnvelope,
} from '@adpilot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { scopeOf } from '../../../plugins/authenticate.ts';
import type { RulePreviewService } from './rule-preview.service.ts';
import type { RuleHoldsService } from './rule-holds.ts';
import type { RuleImpactService } from './rule-impact.service.ts';
import type { RuleRunsService } from './rule-runs.service.ts';

export interface RuleRunsRoutesDeps {
  ruleRuns: RuleRunsService;
  rulePreview: RulePreviewService;
  ruleHolds: RuleHoldsService;
  ruleImpact: RuleImpactService;
}

const tags = ['rules'];
const emptyBody = z.strictObject({}).nullish();

/**
 * Preview, backtest, run now, the run history, the impact, revert, and the timed holds; inside /api/rules, behind
 * its authentication hook.
 */
export const ruleRunsRoutes: FastifyPluginAsyncZod<RuleRunsRoutesDeps> = async (
  app,
  { ruleRuns, rulePreview, ruleHolds, ruleImpact },
) => {
  app.post(
    '/preview',
    {
      // Only reads: an API token with the read scope may ask it (ADR 0151).
      config: { agents: 'read' },
      schema: { tags, body: createRuleRequestSchema, response: { 200: successEnvelope(rulePreviewSchema) } },
    },
    async (request) => ({
      success: true as const,
      data: await rulePreview.previewBody(scopeOf(request), request.body),
    }),
  );

  app.post(
    '/:id/preview',
    {
      // A saved rule's preview and backtest only read: a viewer may ask them (ADR 0070), and a read token (ADR 0151).
      config: { role: 'viewer', agents: 'read' },
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
      // A saved rule's preview and backtest only read: a viewer may ask them (ADR 0070), and a read token (ADR 0151).
      config: { role: 'viewer', agents: 'read' },
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
        // Without a range: the default, or the plan's furthest if it is shorter (ADR 0113).
        request.body?.days,
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

  app.get(
    '/:id/impact',
    {
      schema: {
        tags,
        params: ruleIdParamsSchema,
        querystring: ruleImpactQuerySchema,
        response: { 200: successEnvelope(ruleImpactSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await ruleImpact.impact(scopeOf(request), request.params.id, request.query),
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

  app.get(
    '/:id/holds',
    { schema: { tags, params: ruleIdParamsSchema, response: { 200: successEnvelope(z.array(ruleHoldSchema)) } } },
    async (request) => ({
      success: true as const,
      data: await ruleHolds.list(scopeOf(request), request.params.id),
    }),
  );

  app.post(
    '/holds/:actionId/resume',
    {
      schema: {
        tags,
        params: ruleActionIdParamsSchema,
        body: emptyBody,
        response: { 200: successEnvelope(holdResumeResponseSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: { hold: await ruleHolds.resumeNow(scopeOf(request), request.params.actionId) },
    }),
  );
};
