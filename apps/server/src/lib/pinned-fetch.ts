import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Readable } from 'node:stream';

/** The address a URL may be reached at, checked; null when it may not be called. */
export type AddressResolver = (url: string) => Promise<{ address: string; family: 4 | 6 } | null>;

/** Thrown by a pinned fetch whose resolver refused the URL's host: nothing was sent. */
export class AddressRefusedError extends Error {
  override readonly name = 'AddressRefusedError';

  constructor(readonly host: string) {
    super(`the address of ${host} is on a private or local network, which AdPilot does not call`);
  }
}

/**
 * A `fetch` for servers a person names (ADR 0097): each request's host is resolved and checked by `resolve` (the
 * webhook address policy's), and the connection is made to the very address it checked, so a name that answers
 * differently a moment later (DNS rebinding) cannot move the request. A refused host throws AddressRefusedError
 * before anything is sent. Redirects are not followed: a 3xx is handed back as it came.
 */
export function pinnedFetch(resolve: AddressResolver): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const target = await resolve(url.href);
    if (!target) throw new AddressRefusedError(url.host);
    const lookup: LookupFunction = (_host, options, callback) => {
      if (options.all) callback(null, [target]);
      else callback(null, target.address, target.family);
    };
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const headers = Object.fromEntries(request.headers);
    // The answer is handed on as it comes, so it is asked for uncompressed.
    delete headers['accept-encoding'];
    if (body) headers['content-length'] = String(body.length);
    const client = url.protocol === 'https:' ? https : http;
    return new Promise<Response>((settle, fail) => {
      const outgoing = client.request(
        url,
        { method: request.method, headers, lookup, signal: request.signal },
        (incoming) => {
          const answerHeaders = new Headers();
          for (const [name, value] of Object.entries(incoming.headers))
            for (const one of [value ?? []].flat()) answerHeaders.append(name, one);
          const status = incoming.statusCode ?? 502;
          const empty = status === 204 || status === 304 || request.method === 'HEAD';
          if (empty) incoming.resume();
          settle(
            new Response(empty ? null : (Readable.toWeb(incoming) as ReadableStream<Uint8Array>), {
              status,
              statusText: incoming.statusMessage ?? '',
              headers: answerHeaders,
            }),
          );
        },
      );
      outgoing.on('error', fail);
      outgoing.end(body);
    });
  };
}
