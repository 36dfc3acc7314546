/**
 * The one list of names whose values are secrets, wherever they travel: query strings and form bodies (ours, Meta's,
 * OAuth's) and headers. Every URL, header set and error message that is logged or put in an error passes through it.
 */
export const SECRET_PARAMS: readonly string[] = [
  'access_token',
  'api_key',
  'appsecret_proof',
  'client_secret',
  'code',
  'fb_exchange_token',
  'input_token',
  'password',
  // An SMTP transport's `auth: { user, pass }`, and the mail settings' field of that name.
  'pass',
  'refresh_token',
  'state',
  'token',
  // The Settings page's secret fields (contracts/settings.ts), in the lower case names are compared in.
  'openaiapikey',
  'facebookappsecret',
  'stripesecretkey',
  'stripewebhooksecret',
  'smtppass',
];

/**
 * `api-key` is how Azure's OpenAI-compatible endpoints carry the key. A webhook signature is an HMAC of its body under
 * a shared secret: logged beside the body it lets anyone check guesses of the secret offline, so it goes too (Stripe's
 * incoming events, our outgoing webhook, Meta's signed callbacks).
 */
export const SECRET_HEADERS: readonly string[] = [
  'authorization',
  'api-key',
  'cookie',
  'set-cookie',
  'proxy-authorization',
  'stripe-signature',
  'x-adpilot-signature',
  'x-hub-signature-256',
];

export const REDACTED = 'REDACTED';

const secretParams = new Set(SECRET_PARAMS);

function decodeName(raw: string): string {
  try {
    return decodeURIComponent(raw.replaceAll('+', ' ')).toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
}

/** Whether a query, form or header name carries a secret (names compare case-insensitively). */
export function isSecretName(name: string): boolean {
  const lower = name.toLowerCase();
  return secretParams.has(lower) || SECRET_HEADERS.includes(lower);
}

/**
 * A URL (absolute or a request path) safe to log or to put in an error: the values of secret parameters are
 * replaced, everything else is kept byte for byte, so a log still shows what was asked.
 */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return url;
  const hashStart = url.indexOf('#', queryStart);
  const query = url.slice(queryStart + 1, hashStart === -1 ? undefined : hashStart);
  const redacted = query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals === -1 ? pair : pair.slice(0, equals);
      return equals !== -1 && secretParams.has(decodeName(name)) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${url.slice(0, queryStart + 1)}${redacted}${hashStart === -1 ? '' : url.slice(hashStart)}`;
}

/** A copy of a header set with the values of secret headers replaced. */
export function redactHeaders<T extends Record<string, unknown>>(headers: T): T {
  const copy: Record<string, unknown> = { ...headers };
  for (const name of Object.keys(copy)) if (isSecretName(name)) copy[name] = REDACTED;
  return copy as T;
}

/** Removes known secret values from free text, e.g. an upstream message that echoes a token back. */
export function redactText(text: string, secrets: readonly (string | undefined)[]): string {
  let result = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 8) result = result.split(secret).join(REDACTED);
  }
  return result;
}
