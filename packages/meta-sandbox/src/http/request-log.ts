import { redactUrl } from '@adpilot/meta';

/**
 * The sandbox's request serializer: its OAuth routes take `client_secret`, `fb_exchange_token`, `code` and tokens
 * in the query string, so request lines under its prefix name the method and a redacted URL only.
 */
export function sandboxRequestSerializer(request: { method: string; url: string; ip?: string }): {
  method: string;
  url: string;
  ip?: string;
} {
  return { method: request.method, url: redactUrl(request.url), ...(request.ip ? { ip: request.ip } : {}) };
}
