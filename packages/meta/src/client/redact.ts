/** Query and form parameters whose values are secrets. */
export const SECRET_PARAMS: readonly string[] = [
  'access_token',
  'client_secret',
  'appsecret_proof',
  'fb_exchange_token',
  'input_token',
  'code',
];
const SECRET_PARAM_PATTERN = new RegExp(`([?&](?:${SECRET_PARAMS.join('|')})=)[^&#]*`, 'g');

/**
 * A URL safe to log or to put in an error: secret parameters are replaced, the rest is kept for debugging. Works on
 * absolute URLs and on paths with a query string (a request line).
 */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    for (const name of SECRET_PARAMS) {
      if (parsed.searchParams.has(name)) parsed.searchParams.set(name, 'REDACTED');
    }
    return parsed.toString();
  } catch {
    return url.replace(SECRET_PARAM_PATTERN, '$1REDACTED');
  }
}

/** Removes known secrets from free text, e.g. an upstream message that echoes a token back. */
export function redactText(text: string, secrets: readonly (string | undefined)[]): string {
  let result = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 8) result = result.split(secret).join('REDACTED');
  }
  return result;
}
