import {
  AGENT_MESSAGES,
  API_TOKEN_PREFIX,
  API_TOKENS_PER_WORKSPACE,
  describeActivity,
  hasRole,
  OAUTH_ACCESS_PREFIX,
  withImpliedScopes,
  type AgentScope,
  type ApiToken,
  type CreateApiTokenRequest,
  type CreatedApiToken,
  type WorkspaceRole,
} from '@adpilot/contracts';
import type { SystemTx, TenantScope, TenantTx, Transactions } from '@adpilot/db';
import { AppError } from '../../lib/app-error.ts';
import { hashToken, randomToken } from '../../lib/crypto.ts';
import { personOf } from '../../lib/scope.ts';
import type { ActivityRepository } from '../activity/index.ts';
import { presentCredential, scopesOf } from './api-tokens.presenter.ts';
import type { ApiTokensRepository, CredentialWithClient } from './api-tokens.repository.ts';

/** An authenticated agent credential: who it acts as, where, and with which scopes. */
export interface AgentCredential {
  id: string;
  kind: 'token' | 'oauth';
  workspaceId: string;
  /** The member it acts as (their role at each use, capped by the scopes). */
  createdBy: string;
  /** The token's name, or the OAuth client's registered name: how the activity log signs what it does. */
  name: string;
  scopes: AgentScope[];
  /** The resource an OAuth grant's tokens are for (the MCP endpoint); null: an API token, good for every API of ours. */
  resource: string | null;
}

/** Members' names by id, read on the system path (auth's users). */
export interface CreatorNames {
  profilesIn(tx: SystemTx, ids: readonly string[]): Promise<{ id: string; name: string }[]>;
}

export interface ApiTokensDeps {
  transactions: Transactions;
  repository: ApiTokensRepository;
  activity: Pick<ActivityRepository, 'insert'>;
  people: CreatorNames;
  /** Told in this process as soon as a revocation commits (other processes hear the database's notification). */
  onRevoked?: (credentialId: string) => void;
  now: () => Date;
}

const DAY_MS = 86_400_000;
/** `last_used_at` is written at most once a minute per credential: a busy agent costs no write per call. */
const LAST_USED_RESOLUTION_MS = 60_000;
/** Longer than any secret of ours: anything longer is refused before it is hashed. */
const SECRET_MAX = 200;

const notFound = () => AppError.notFound(AGENT_MESSAGES.notFound);

/** The log entry of a change to a workspace's agent credentials, in the unit of work that makes it. */
export function credentialEntryIn(
  activity: Pick<ActivityRepository, 'insert'>,
  tx: TenantTx,
  code: 'agent_token_created' | 'agent_connected' | 'agent_access_revoked',
  params: { name: string; scope?: AgentScope },
): Promise<unknown> {
  return activity.insert(tx, {
    level: 'info',
    category: 'workspace',
    description: describeActivity(code, params),
    metadata: { code, params },
  });
}

/**
 * API tokens (ADR 0150): made by a workspace's admins and owners, shown once, stored as a hash, listed with their
 * creator and last use, revoked at once. The same service authenticates every agent credential, tokens and OAuth
 * grants alike, by the hash of the bearer secret.
 */
export class ApiTokensService {
  constructor(private readonly deps: ApiTokensDeps) {}

  /** An admin or owner sees every credential of the workspace; any other member their own OAuth grants. */
  async list(scope: TenantScope, role: WorkspaceRole): Promise<ApiToken[]> {
    const rows = await this.deps.transactions.tenant(scope, (tx) => this.deps.repository.listIn(tx));
    const visible = hasRole(role, 'admin') ? rows : rows.filter((row) => row.createdBy === scope.userId);
    const clientIds = [...new Set(visible.flatMap((row) => (row.clientId ? [row.clientId] : [])))];
    const clients = await this.deps.transactions.system('agent credential clients', (tx) =>
      this.deps.repository.clients(tx, clientIds),
    );
    return this.present(
      visible.map((row) => ({ row, client: row.clientId ? (clients.get(row.clientId) ?? null) : null })),
    );
  }

  async create(scope: TenantScope, input: CreateApiTokenRequest): Promise<CreatedApiToken> {
    const now = this.deps.now();
    const token = `${API_TOKEN_PREFIX}${randomToken(32)}`;
    const scopes = withImpliedScopes(input.scopes);
    const expiresAt = input.expiresInDays ? new Date(now.getTime() + input.expiresInDays * DAY_MS) : null;
    const row = await this.deps.transactions.tenant(scope, async (tx) => {
      await this.deps.repository.lockCreation(tx);
      if ((await this.deps.repository.countLiveTokensIn(tx, now)) >= API_TOKENS_PER_WORKSPACE)
        throw new AppError('API_TOKEN_LIMIT_REACHED', AGENT_MESSAGES.tokenLimit, 409, undefined, undefined, {
          limit: API_TOKENS_PER_WORKSPACE,
        });
      const inserted = await this.deps.repository.insert(tx, {
        kind: 'token',
        name: input.name,
        scopes,
        tokenHash: hashToken(token),
        hint: token.slice(0, API_TOKEN_PREFIX.length + 6),
        tokenExpiresAt: expiresAt,
        refreshHash: null,
        clientId: null,
        resource: null,
        expiresAt,
        createdBy: personOf(scope),
        createdAt: now,
      });
      await credentialEntryIn(this.deps.activity, tx, 'agent_token_created', {
        name: inserted.name,
        scope: scopes.at(-1)!,
      });
      return inserted;
    });
    const [presented] = await this.present([{ row, client: null }]);
    return { ...presented!, token };
  }

  /** Revokes a token or grant: an admin or owner any of the workspace's, another member only their own. */
  async revoke(scope: TenantScope, role: WorkspaceRole, id: string): Promise<void> {
    const revoked = await this.deps.transactions.tenant(scope, async (tx) => {
      const row = await this.deps.repository.find(tx, id);
      if (!row || (!hasRole(role, 'admin') && row.createdBy !== scope.userId)) throw notFound();
      const done = await this.deps.repository.revoke(tx, id, this.deps.now());
      if (!done) throw notFound();
      await credentialEntryIn(this.deps.activity, tx, 'agent_access_revoked', { name: done.name });
      return done;
    });
    this.deps.onRevoked?.(revoked.id);
  }

  /**
   * The live credential a bearer secret names, or null: unknown, revoked, expired (the credential or, for a grant,
   * its access token of the moment), or not one of ours at all. Marks it used.
   */
  async authenticate(secret: string): Promise<AgentCredential | null> {
    if (!isAgentSecret(secret) || secret.length > SECRET_MAX) return null;
    const now = this.deps.now();
    const found = await this.deps.transactions.system('agent credential', async (tx) => {
      const hit = await this.deps.repository.findByHash(tx, hashToken(secret));
      if (!hit || !isLive(hit, now)) return undefined;
      await this.deps.repository.touch(tx, hit.row.id, now, LAST_USED_RESOLUTION_MS);
      return hit;
    });
    return found ? credentialOf(found) : null;
  }

  private async present(rows: CredentialWithClient[]): Promise<ApiToken[]> {
    const ids = [...new Set(rows.map(({ row }) => row.createdBy))];
    const names =
      ids.length === 0
        ? new Map<string, string>()
        : new Map(
            (
              await this.deps.transactions.system('agent credential creators', (tx) =>
                this.deps.people.profilesIn(tx, ids),
              )
            ).map((person) => [person.id, person.name]),
          );
    return rows.map((row) => presentCredential(row, names));
  }
}

/** Whether a bearer secret has the form of an agent credential (an API token or an OAuth access token). */
export function isAgentSecret(secret: string): boolean {
  return secret.startsWith(API_TOKEN_PREFIX) || secret.startsWith(OAUTH_ACCESS_PREFIX);
}

function isLive({ row }: CredentialWithClient, now: Date): boolean {
  if (row.revokedAt !== null) return false;
  if (row.expiresAt !== null && row.expiresAt <= now) return false;
  return row.tokenExpiresAt === null || row.tokenExpiresAt > now;
}

export function credentialOf({ row }: CredentialWithClient): AgentCredential {
  return {
    id: row.id,
    kind: row.kind,
    workspaceId: row.workspaceId,
    createdBy: row.createdBy,
    name: row.name,
    scopes: scopesOf(row.scopes),
    resource: row.resource,
  };
}
