import type { FastifyPluginAsync } from 'fastify';
import type { McpEndpoint } from './mcp-endpoint.ts';

/**
 * /mcp, the MCP endpoint (Streamable HTTP: POST for messages, GET for the session's stream, DELETE to end it; ADR
 * 0152). Outside /api and the API document: it speaks JSON-RPC, not the envelope. Never compressed, so the stream's
 * events are not held in a compressor.
 */
export const mcpRoutes: FastifyPluginAsync<{ endpoint: McpEndpoint }> = async (app, { endpoint }) => {
  const options = { compress: false as const, schema: { hide: true } };
  app.post('/mcp', options, (request, reply) => endpoint.handle(request, reply));
  app.get('/mcp', options, (request, reply) => endpoint.handle(request, reply));
  app.delete('/mcp', options, (request, reply) => endpoint.handle(request, reply));
};
