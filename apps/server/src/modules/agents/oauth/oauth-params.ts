import { AGENT_SCOPES, text, type AgentScope } from '@adpilot/contracts';
import { z } from 'zod';

/**
 * The pure checks of the OAuth endpoints (ADR 0153): redirect URIs a client may register, the match of a requested
 * one, the resource indicator, scopes and PKCE values. No I/O: the service asks these and answers.
 */

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
export const REDIRECT_URIS_MAX = 5;
const URI_MAX = 2000;
export const CLIENT_NAME_MAX = 60;
/** What a client that gives no name is called on the consent page and in the list. */
export const UNNAMED_CLIENT = 'AI client';

/** RFC 7636 §4.1: 43 to 128 unreserved characters (a verifier; an S256 challenge is 43 of them). */
const PKCE_VALUE = /^[A-Za-z0-9\-._~]{43,128}$/;

/** Whether a URI may receive codes: https anywhere, or http on this computer (a desktop client, RFC 8252 §7.3). */
export function isAllowedRedirectUri(value: string): boolean {
  if (value.length > URI_MAX) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.hash !== '' || value.includes('#')) return false;
  if (url.username !== '' || url.password !== '') return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}

export const isLoopback = (value: string) => {
  try {
    return LOOPBACK_HOSTS.has(new URL(value).hostname);
  } catch {
    return false;
  }
};

/**
 * Whether the requested redirect URI is one the client registered: the exact string, except that a loopback URI's
 * port may differ (a desktop client listens on whichever port is free, RFC 8252 §7.3).
 */
export function matchesRegistered(requested: string, registered: readonly string[]): boolean {
  if (registered.includes(requested)) return true;
  if (!isLoopback(requested) || !isAllowedRedirectUri(requested)) return false;
  const asked = new URL(requested);
  return registered.some((uri) => {
    if (!isLoopback(uri)) return false;
    const known = new URL(uri);
    return (
      known.protocol === asked.protocol &&
      known.hostname === asked.hostname &&
      known.pathname === asked.pathname &&
      known.search === asked.search
    );
  });
}

/** A resource indicator in its canonical form (URL lower-cases scheme and host; no trailing slash), or null. */
export function canonicalResource(value: string): string | null {
  if (value.includes('#')) return null;
  try {
    const url = new URL(value);
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}${url.search}`;
  } catch {
    return null;
  }
}

/** The scopes a space-separated `scope` parameter asks for; null when one is unknown. Absent: all of them. */
export function requestedScopes(scope: string | undefined): AgentScope[] | null {
  if (scope === undefined || scope.trim() === '') return [...AGENT_SCOPES];
  const asked = scope.trim().split(/\s+/);
  if (!asked.every((value): value is AgentScope => (AGENT_SCOPES as readonly string[]).includes(value))) return null;
  return AGENT_SCOPES.filter((value) => asked.includes(value));
}

export const isPkceValue = (value: string | undefined): value is string =>
  value !== undefined && PKCE_VALUE.test(value);

/** RFC 7591 §2, the fields we read; anything else a client sends is ignored, as the RFC allows. */
export const clientRegistrationSchema = z.object({
  redirect_uris: z.array(z.string().max(URI_MAX)).min(1).max(REDIRECT_URIS_MAX),
  client_name: text({ trim: true }).max(200).optional(),
  token_endpoint_auth_method: z.string().max(100).optional(),
  grant_types: z.array(z.string().max(100)).max(10).optional(),
  response_types: z.array(z.string().max(100)).max(10).optional(),
});
export type ClientRegistration = z.infer<typeof clientRegistrationSchema>;

/** A client's name as the consent page and the activity log show it: its own words, shortened, never empty. */
export function clientNameOf(name: string | undefined): string {
  const trimmed = (name ?? '').trim();
  if (trimmed === '') return UNNAMED_CLIENT;
  return [...trimmed].length > CLIENT_NAME_MAX ? `${[...trimmed].slice(0, CLIENT_NAME_MAX - 1).join('')}…` : trimmed;
}
