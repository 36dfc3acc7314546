import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { WEBHOOK_SIGNATURE_HEADER, type WebhookFailureCode } from '@adpilot/contracts';
import type { WebhookAddressPolicy } from './webhook-address.ts';

export type WebhookOutcome =
  { ok: true; status: number } | { ok: false; code: WebhookFailureCode; status: number | null; retryable: boolean };

/** `sha256=<hex>`: HMAC-SHA256 of the exact bytes sent, keyed with the user's webhook secret. */
export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

/**
 * POSTs one signed JSON body. The host is resolved and checked first and the connection is pinned to that address;
 * redirects are not followed (a 3xx is a failed delivery); the answer's body is not read beyond its end. `timeoutMs`
 * bounds the whole call, not only the silences between packets: a receiver trickling its answer cannot hold a worker.
 */
export class WebhookSender {
  constructor(
    private readonly policy: WebhookAddressPolicy,
    private readonly timeoutMs = 10_000,
  ) {}

  async send(url: string, secret: string, body: string): Promise<WebhookOutcome> {
    let target: { address: string; family: 4 | 6 } | null;
    try {
      target = await this.policy.resolve(url);
    } catch {
      return { ok: false, code: 'network', status: null, retryable: true };
    }
    if (!target) return { ok: false, code: 'refused_address', status: null, retryable: false };
    const pinned = target;
    const pinnedLookup: LookupFunction = (_host, options, callback) => {
      if (options.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
      else callback(null, pinned.address, pinned.family);
    };
    const parsed = new URL(url);
    const client = parsed.protocol === 'https:' ? https : http;
    return new Promise<WebhookOutcome>((settle) => {
      const deadline = setTimeout(() => {
        request.destroy();
        resolve({ ok: false, code: 'timeout', status: null, retryable: true });
      }, this.timeoutMs);
      const resolve = (outcome: WebhookOutcome) => {
        clearTimeout(deadline);
        settle(outcome);
      };
      const request = client.request(
        parsed,
        {
          method: 'POST',
          lookup: pinnedLookup,
          timeout: this.timeoutMs,
          headers: {
            'content-type': 'application/json; charset=utf-8',
            'content-length': Buffer.byteLength(body),
            'user-agent': 'AdPilot-Webhook/1',
            [WEBHOOK_SIGNATURE_HEADER]: signBody(secret, body),
          },
        },
        (response) => {
          response.resume();
          const status = response.statusCode ?? 0;
          response.on('end', () =>
            resolve(
              status >= 200 && status < 300
                ? { ok: true, status }
                : {
                    ok: false,
                    code: 'http_status',
                    status,
                    retryable: status >= 500 || status === 429 || status === 408,
                  },
            ),
          );
          response.on('error', () => resolve({ ok: false, code: 'network', status, retryable: true }));
        },
      );
      request.on('timeout', () => {
        request.destroy();
        resolve({ ok: false, code: 'timeout', status: null, retryable: true });
      });
      request.on('error', () => resolve({ ok: false, code: 'network', status: null, retryable: true }));
      request.end(body);
    });
  }
}
