import { AGENT_SCOPES, type AgentScope, type ApiToken } from '@adpilot/contracts';
import type { CredentialWithClient } from './api-tokens.repository.ts';

/** The stored scopes that are scopes (a row written by an older version could hold one no longer known). */
export function scopesOf(stored: readonly string[]): AgentScope[] {
  return AGENT_SCOPES.filter((scope) => stored.includes(scope));
}

/** Where a client's codes go, as the consent page and the list name it: the host of its first redirect URI. */
export function redirectHostOf(redirectUris: readonly string[]): string {
  try {
    return new URL(redirectUris[0] ?? '').host;
  } catch {
    return '';
  }
}

/** A credential as its workspace sees it: never its secret or its hashes. */
export function presentCredential(
  { row, client }: CredentialWithClient,
  creators: ReadonlyMap<string, string>,
): ApiToken {
  const creatorName = creators.get(row.createdBy);
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    scopes: scopesOf(row.scopes),
    hint: row.hint,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    createdBy: creatorName === undefined ? null : { id: row.createdBy, name: creatorName },
    client: client ? { name: client.name, redirectHost: redirectHostOf(client.redirectUris) } : null,
  };
}
