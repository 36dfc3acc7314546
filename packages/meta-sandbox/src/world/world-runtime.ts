import { type CodeStore } from '../auth/codes.ts';
import { LONG_TOKEN_SECONDS, type TokenService } from '../auth/tokens.ts';
import { type Faults } from '../faults.ts';
import type { ReportRuns } from '../graph/report-runs.ts';
import type { GraphRuntime, SandboxSettings } from '../graph/runtime.ts';
import type { UsageMeter } from '../graph/usage-meter.ts';
import type { DeliveryModel } from '../metrics/delivery.ts';
import type { CallStats } from '../stats.ts';
import type { Mutation, SandboxPersona } from './types.ts';
import type { World } from './world.ts';

export const ALL_SCOPES = ['ads_read', 'ads_management', 'business_management'];

/** One world's live state, which a reset replaces. */
export interface WorldState {
  world: World;
  delivery: DeliveryModel;
  mutations: Mutation[];
}

/** What a world shares with its sandbox: the machinery common to every world. */
export type WorldHost = Pick<
  GraphRuntime,
  'settings' | 'tokens' | 'codes' | 'faults' | 'stats' | 'usage' | 'reports' | 'now' | 'traceId' | 'forToken'
> & {
  /** Writes every world's log to the state file. */
  persistWorlds(): void;
};

/** The Graph runtime of one world: the world's own objects and writes, the sandbox's shared machinery. */
export class WorldRuntime implements GraphRuntime {
  constructor(
    private readonly sandbox: WorldHost,
    readonly worldKey: string,
    private state: WorldState,
  ) {}

  get settings(): SandboxSettings {
    return this.sandbox.settings;
  }
  get tokens(): TokenService {
    return this.sandbox.tokens;
  }
  get codes(): CodeStore {
    return this.sandbox.codes;
  }
  get faults(): Faults {
    return this.sandbox.faults;
  }
  get stats(): CallStats {
    return this.sandbox.stats;
  }
  get usage(): UsageMeter {
    return this.sandbox.usage;
  }
  get reports(): ReportRuns {
    return this.sandbox.reports;
  }
  get world(): World {
    return this.state.world;
  }
  get delivery(): DeliveryModel {
    return this.state.delivery;
  }
  get mutations(): readonly Mutation[] {
    return this.state.mutations;
  }
  get personas(): readonly SandboxPersona[] {
    return this.state.world.personas;
  }

  now(): number {
    return this.sandbox.now();
  }

  traceId(): string {
    return this.sandbox.traceId();
  }

  forToken(token: string | undefined): GraphRuntime {
    return this.sandbox.forToken(token);
  }

  recordMutation(mutation: Mutation): void {
    mutation.before ??= this.state.world.valuesBefore(mutation);
    this.state.world.apply(mutation);
    this.state.mutations.push(mutation);
    this.sandbox.persistWorlds();
  }

  /** A user token of this world without the consent screen (default: first persona, all scopes, 60 days). */
  issueToken(personaId?: string, scopes: string[] = ALL_SCOPES, lifetimeSeconds = LONG_TOKEN_SECONDS): string {
    const persona = personaId ? this.world.persona(personaId) : this.personas[0];
    if (!persona) throw new Error(`no sandbox user ${personaId ?? ''}`);
    return this.tokens.issueUser(persona.id, scopes, this.now(), lifetimeSeconds, this.worldKey);
  }

  /**
   * A Business Manager system user's token for the business of `personaId` (default: the first persona's), as
   * `POST /{business_id}/system_user_access_tokens` generates one: never expiring, or for 60 days when asked.
   */
  issueSystemUserToken(options: { personaId?: string; scopes?: string[]; expiresIn60Days?: boolean } = {}): string {
    const persona = options.personaId ? this.world.persona(options.personaId) : this.personas[0];
    if (!persona) throw new Error(`no sandbox user ${options.personaId ?? ''}`);
    const lifetime = options.expiresIn60Days ? 60 * 86_400 : null;
    return this.tokens.issueSystemUser(persona.id, options.scopes ?? ALL_SCOPES, this.now(), lifetime, this.worldKey);
  }

  replace(state: WorldState): void {
    this.state = state;
  }

  /** What the state file keeps of this world. */
  get savedMutations(): Mutation[] {
    return this.state.mutations;
  }
}
