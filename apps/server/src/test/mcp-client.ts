import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FastifyInstance } from 'fastify';
import { createServer } from 'node:net';

/** A port of 127.0.0.1 free a moment ago: an app whose PUBLIC_URL must name its own origin listens on it. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

export async function listenOn(app: FastifyInstance, port: number): Promise<string> {
  await app.listen({ port, host: '127.0.0.1' });
  return `http://127.0.0.1:${port}`;
}

/** An MCP client of the official SDK, connected over Streamable HTTP with an agent credential as its bearer. */
export async function connectMcp(
  origin: string,
  token: string,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'adpilot-test-agent', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

/** A tool call's answer: its JSON, or its error text (the agent reads either). */
export function answerOf(result: unknown): { error: boolean; text: string; json: unknown } {
  const { content, isError } = result as { content: { type: string; text: string }[]; isError?: boolean };
  const text = content.map((part) => part.text).join('');
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { error: isError === true, text, json };
}
