import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebhookAddressPolicy } from './webhook-address.ts';
import { WebhookSender } from './webhook-sender.ts';

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function receiver(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
}

const sender = (timeoutMs: number) => new WebhookSender(new WebhookAddressPolicy(['127.0.0.1']), timeoutMs);

describe('WebhookSender', () => {
  it('delivers to a receiver answering 2xx', async () => {
    const url = await receiver((_request, response) => response.end('ok'));
    expect(await sender(1_000).send(url, 'secret', '{}')).toEqual({ ok: true, status: 200 });
  });

  it('gives up on a receiver that trickles its answer forever, within the timeout of the whole call', async () => {
    const url = await receiver((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      const drip = setInterval(() => response.write('.'), 20);
      response.on('close', () => clearInterval(drip));
    });
    const began = Date.now();
    const outcome = await sender(300).send(url, 'secret', '{}');
    expect(outcome).toEqual({ ok: false, code: 'timeout', status: null, retryable: true });
    expect(Date.now() - began).toBeLessThan(2_000);
  });
});
