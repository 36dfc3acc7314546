import {
  adAccountIdParamsSchema,
  anomalyMuteRequestSchema,
  anomalyMuteResponseSchema,
  monthlyBudgetSchema,
  setMonthlyBudgetRequestSchema,
  successEnvelope,
} from '@adpilot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { scopeOf } from '../../plugins/authenticate.ts';
import type { SignalsService } from './signals.service.ts';

const tags = ['ad-accounts'];
const params = adAccountIdParamsSchema;

/** An account's monthly budgets and its anomaly mute (ADR 0124, 0125), under /ad-accounts/{id}. */
export const signalsRoutes: FastifyPluginAsyncZod<{ signals: SignalsService }> = async (app, { signals }) => {
  app.get(
    '/:id/monthly-budgets',
    { schema: { tags, params, response: { 200: successEnvelope(z.array(monthlyBudgetSchema)) } } },
    async (request) => ({ success: true as const, data: await signals.budgets(scopeOf(request), request.params.id) }),
  );

  app.put(
    '/:id/monthly-budgets',
    {
      schema: {
        tags,
        params,
        body: setMonthlyBudgetRequestSchema,
        response: { 200: successEnvelope(z.array(monthlyBudgetSchema)) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await signals.setBudget(scopeOf(request), request.params.id, request.body),
    }),
  );

  app.post(
    '/:id/anomalies/mute',
    {
      schema: {
        tags,
        params,
        body: anomalyMuteRequestSchema,
        response: { 200: successEnvelope(anomalyMuteResponseSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await signals.mute(scopeOf(request), request.params.id, request.body.hours),
    }),
  );
};
