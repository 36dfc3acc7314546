import type { Params } from '../graph/params.ts';

const DEFAULT_SCOPES = ['ads_read', 'ads_management', 'business_management'];

export interface DialogRequest {
  redirectUri: string;
  state: string;
  scopes: string[];
}

/** The dialog's checks, as Facebook shows them: an error page, never a redirect to an unchecked address. */
export function readDialogRequest(
  params: Params,
  appId: string,
  allowedRedirects: readonly string[] | undefined,
): DialogRequest | { error: string } {
  if (!params.client_id) return { error: 'The client_id parameter is missing: the app id is required.' };
  if (params.client_id !== appId) return { error: 'Invalid App ID: the client_id does not match the sandbox app.' };
  const redirectUri = params.redirect_uri;
  if (!redirectUri) return { error: 'The redirect_uri parameter is missing.' };
  let parsed: URL;
  try {
    parsed = new URL(redirectUri);
  } catch {
    return { error: 'The redirect_uri is not an absolute URL.' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return { error: 'The redirect_uri must be an http or https URL.' };
  }
  // Meta's strict mode: the address must equal one of the app's valid OAuth redirect URIs, byte for byte. A prefix
  // would let `…/ad-accounts/../../logout` or `…/ad-accountsX` through to any page of the same origin.
  if (allowedRedirects && !allowedRedirects.includes(redirectUri)) {
    return { error: "URL blocked: this redirect_uri is not in the app's valid OAuth redirect URIs." };
  }
  const scopes = (params.scope ?? '').split(/[\s,]+/).filter(Boolean);
  return {
    redirectUri,
    state: params.state ?? '',
    // Login for Business sends a configuration id instead of scopes; its configuration grants the ads scopes.
    scopes: scopes.length > 0 || !params.config_id ? scopes : DEFAULT_SCOPES,
  };
}

export function redirectWith(redirectUri: string, values: Record<string, string>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(values)) {
    if (value !== '') url.searchParams.set(name, value);
  }
  return url.toString();
}

export function deniedRedirect(request: DialogRequest): string {
  return redirectWith(request.redirectUri, {
    error: 'access_denied',
    error_code: '200',
    error_description: 'Permissions error',
    error_reason: 'user_denied',
    state: request.state,
  });
}
