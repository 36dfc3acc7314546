import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { createSandbox, type MetaSandbox, type SandboxOptions } from '../create-sandbox.ts';

export interface StartSandboxOptions extends SandboxOptions {
  /** Serve an existing sandbox instead of creating one. */
  sandbox?: MetaSandbox;
  /** Mount prefix, e.g. '/sandbox/meta' (default none). */
  prefix?: string;
  host?: string;
  /** Default 0: a free port. */
  port?: number;
}

export interface RunningSandbox {
  /** Base URL to use as both graphBaseUrl and dialogBaseUrl of the client. */
  url: string;
  sandbox: MetaSandbox;
  app: FastifyInstance;
  close(): Promise<void>;
}

/** Runs the sandbox on its own HTTP server, for tests, benchmarks and local tries. */
export async function startSandboxServer(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
  const { sandbox: given, prefix = '', host = '127.0.0.1', port = 0, ...sandboxOptions } = options;
  const sandbox = given ?? createSandbox(sandboxOptions);
  const app = Fastify({ logger: false });
  await app.register(sandbox.plugin, { prefix });
  await app.listen({ host, port });
  const address = app.server.address() as AddressInfo;
  return {
    url: `http://${host}:${address.port}${prefix}`,
    sandbox,
    app,
    close: () => app.close(),
  };
}
