import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/**
 * A module's route plugin closed over the services it is given (ADR 0065): `app.ts` registers the result under the
 * module's prefix, and the routes reach nothing but those services.
 */
export function bindRoutes<Options extends object>(
  plugin: FastifyPluginAsyncZod<Options>,
  options: Options,
): FastifyPluginAsyncZod {
  return (app) => plugin(app, options);
}
