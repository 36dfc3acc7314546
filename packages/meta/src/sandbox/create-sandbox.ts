import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { CodeStore } from './auth/codes.ts';
import { LONG_TOKEN_SECONDS, TokenService } from './auth/tokens.ts';
import { Faults } from './faults.ts';
import { ReportRuns } from './graph/report-runs.ts';
import type { SandboxSettings } from './graph/runtime.ts';
import { UsageMeter, type AccessTier } from './graph/usage-meter.ts';
import { AdsManagerAccess } from './http/ads-manager-access.ts';
import type { SandboxControl } from './http/control-routes.ts';
import { createSandboxPlugin, type SandboxHost } from './http/plugin.ts';
import { DeliveryModel } from './metrics/delivery.ts';
import { CallStats } from './stats.ts';
import { buildWorld } from './world/build-world.ts';
import { hashString } from './world/random.ts';
import type { SandboxSeed } from './world/seed.ts';
import { readState, writeState } from './world/state-file.ts';
import type { Mutation, SandboxPersona } from './world/types.ts';
import { World } from './world/world.ts';

export interface SandboxOptions {
  /** Default 'sandbox-app'. */
  appId?: string;
  /** The app's name in the activity history (default 'AdPilot Sandbox App'). */
  appName?: string;
  /**
   * Signs the sandbox's tokens and is the client's app secret. Default: a random one per instance, so nobody can
   * mint tokens; pass a kept one (e.g. from DATA_DIR) for tokens to survive a restart.
   */
  appSecret?: string;
  /** Refuse user-token calls without appsecret_proof, as an app with "Require App Secret" does (default true). */
  requireAppSecretProof?: boolean;
  /** The sandbox clock; default the system clock. */
  now?: () => Date;
  /** JSON file keeping the anchor day and every accepted write, so pauses and budgets survive a restart. */
  stateFile?: string;
  seed?: SandboxSeed;
  /** Redirect URI prefixes the consent dialog accepts; default any http(s) URL. */
  allowedRedirects?: string[];
  /** Mount the `/__sandbox` fault, stats and reset routes: only for development and tests (default false). */
  controlRoutes?: boolean;
  /** Synchronous insights answering more rows than this fail with "too much data" (default 50 000). */
  maxSyncInsightsRows?: number;
  /** Status polls before an async report completes (default 2). */
  reportPolls?: number;
  /** Quota model for the usage headers (default development_access, whose percentages move visibly). */
  accessTier?: AccessTier;
  /** App-level calls per hour that make X-App-Usage reach 100 % (default 5 000). */
  appCallsPerHour?: number;
}

export const ALL_SCOPES = ['ads_read', 'ads_management', 'business_management'];

/** Live state that a reset replaces. */
interface WorldState {
  world: World;
  delivery: DeliveryModel;
  mutations: Mutation[];
}

/** A simulated Meta Graph API: seeded world, metric model, faults, call counts, and a Fastify plugin serving it. */
export class MetaSandbox implements SandboxHost {
  readonly settings: SandboxSettings;
  readonly tokens: TokenService;
  readonly codes = new CodeStore();
  readonly faults = new Faults();
  readonly adsManager: AdsManagerAccess;
  readonly stats = new CallStats();
  readonly reports: ReportRuns;
  readonly allowedRedirects: readonly string[] | undefined;
  readonly control: SandboxControl | undefined;
  /** Register with `app.register(sandbox.plugin, { prefix: '/sandbox/meta' })`. */
  readonly plugin: FastifyPluginAsync;

  private readonly clock: () => Date;
  private readonly anchorDate: string;
  private meter: UsageMeter;
  private state: WorldState;
  private traceSequence = 0;

  constructor(private readonly options: SandboxOptions = {}) {
    this.clock = options.now ?? (() => new Date());
    this.settings = {
      appId: options.appId ?? 'sandbox-app',
      appName: options.appName ?? 'AdPilot Sandbox App',
      appSecret: options.appSecret ?? randomBytes(24).toString('base64url'),
      requireAppSecretProof: options.requireAppSecretProof ?? true,
      maxSyncInsightsRows: options.maxSyncInsightsRows ?? 50_000,
      reportPolls: options.reportPolls ?? 2,
    };
    this.tokens = new TokenService(this.settings.appId, this.settings.appSecret);
    this.adsManager = new AdsManagerAccess(this.settings.appSecret, () => this.now());
    this.reports = new ReportRuns(this.settings.reportPolls);
    this.allowedRedirects = options.allowedRedirects;
    this.meter = this.newMeter();
    const saved = options.stateFile ? readState(options.stateFile) : undefined;
    this.anchorDate = options.seed?.anchorDate ?? saved?.anchorDate ?? this.clock().toISOString().slice(0, 10);
    this.state = this.buildState(saved?.mutations ?? []);
    this.control = options.controlRoutes === true ? this.controlApi() : undefined;
    this.plugin = createSandboxPlugin(this);
    this.persist();
  }

  get appId(): string {
    return this.settings.appId;
  }

  get appSecret(): string {
    return this.settings.appSecret;
  }

  get world(): World {
    return this.state.world;
  }

  get delivery(): DeliveryModel {
    return this.state.delivery;
  }

  get usage(): UsageMeter {
    return this.meter;
  }

  get personas(): readonly SandboxPersona[] {
    return this.state.world.personas;
  }

  /** Every write accepted so far, oldest first. */
  get mutations(): readonly Mutation[] {
    return this.state.mutations;
  }

  now(): number {
    return this.clock().getTime();
  }

  traceId(): string {
    this.traceSequence++;
    const mixed = (hashString(`${this.world.seedKey}:${this.traceSequence}`) * 4096 + this.traceSequence) % 2 ** 52;
    return `A${mixed.toString(36).toUpperCase().padStart(11, '0')}`;
  }

  recordMutation(mutation: Mutation): void {
    mutation.before ??= this.state.world.valuesBefore(mutation);
    this.state.world.apply(mutation);
    this.state.mutations.push(mutation);
    this.persist();
  }

  /** A user token without the consent screen, for tests and seeding (default: first persona, all scopes, 60 days). */
  issueToken(personaId?: string, scopes: string[] = ALL_SCOPES, lifetimeSeconds = LONG_TOKEN_SECONDS): string {
    const persona = personaId ? this.world.persona(personaId) : this.personas[0];
    if (!persona) throw new Error(`no sandbox user ${personaId ?? ''}`);
    return this.tokens.issueUser(persona.id, scopes, this.now(), lifetimeSeconds);
  }

  /** Back to the seeded world: writes, faults, counters, codes and report runs are dropped. */
  reset(): void {
    this.state = this.buildState([]);
    this.faults.clear();
    this.stats.reset();
    this.codes.clear();
    this.reports.clear();
    this.meter = this.newMeter();
    this.traceSequence = 0;
    this.persist();
  }

  private buildState(mutations: Mutation[]): WorldState {
    const world = new World(buildWorld(this.options.seed ?? {}, this.anchorDate));
    const known = mutations.filter((mutation) => world.findEntity(mutation.objectId) !== undefined);
    for (const mutation of known) world.apply(mutation);
    return { world, delivery: new DeliveryModel(world), mutations: known };
  }

  private newMeter(): UsageMeter {
    return new UsageMeter(this.options.accessTier ?? 'development_access', this.options.appCallsPerHour ?? 5_000);
  }

  private persist(): void {
    if (this.options.stateFile) {
      writeState(this.options.stateFile, { anchorDate: this.anchorDate, mutations: this.state.mutations });
    }
  }

  private controlApi(): SandboxControl {
    return {
      setFaults: (config) => this.faults.set(config),
      faults: () => this.faults.current,
      stats: () => this.stats.snapshot(),
      resetStats: () => this.stats.reset(),
      reset: () => this.reset(),
    };
  }
}

/** The name the server uses for the sandbox type. */
export type Sandbox = MetaSandbox;

export function createSandbox(options: SandboxOptions = {}): MetaSandbox {
  return new MetaSandbox(options);
}
