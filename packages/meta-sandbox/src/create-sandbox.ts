import { dayNumber } from './world/time-zone.ts';
import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { CodeStore } from './auth/codes.ts';
import { LONG_TOKEN_SECONDS, TokenService } from './auth/tokens.ts';
import { Faults } from './faults.ts';
import { ReportRuns } from './graph/report-runs.ts';
import type { GraphRuntime, SandboxSettings } from './graph/runtime.ts';
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
import { ALL_SCOPES, WorldRuntime, type WorldState } from './world/world-runtime.ts';
import {
  DEFAULT_WORLD,
  isWorldKey,
  readWorldHint,
  signWorldHint,
  tagOfAccount,
  worldSeed,
  worldTag,
} from './world/world-key.ts';

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
  /** The redirect URIs the consent dialog accepts, each matched exactly (Meta's strict mode); default any http(s) URL. */
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
  /**
   * Workspace worlds kept built at once (default 200); past it the least recently used one is dropped and, being
   * deterministic, rebuilt with its writes when next used.
   */
  maxBuiltWorlds?: number;
}

export { ALL_SCOPES };

export type SandboxWorld = WorldRuntime;

/**
 * A simulated Meta Graph API: seeded worlds (the default one, and one per world key that AdPilot signs into the
 * consent dialog's address), metric model, faults, call counts, and a Fastify plugin serving it.
 */
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
  readonly worldKey = DEFAULT_WORLD;

  private readonly clock: () => Date;
  private readonly anchorDate: string;
  private meter: UsageMeter;
  /** Built worlds by key; the default world ('') is built at once, the others on first use. */
  private readonly worlds = new Map<string, WorldRuntime>();
  /** Writes kept in the state file for worlds not built since the start. */
  private readonly savedWorlds = new Map<string, Mutation[]>();
  /** Every world key this sandbox has met (built or in the state file), by tag: an account id names its world. */
  private readonly keysByTag = new Map<string, string>();
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
    for (const [key, mutations] of saved?.worlds ?? []) {
      if (key === DEFAULT_WORLD || !isWorldKey(key)) continue;
      this.savedWorlds.set(key, mutations);
      this.claimTag(key);
    }
    const defaultMutations = saved?.worlds.get(DEFAULT_WORLD) ?? [];
    this.worlds.set(
      DEFAULT_WORLD,
      new WorldRuntime(this, DEFAULT_WORLD, this.buildState(DEFAULT_WORLD, defaultMutations)),
    );
    this.control = options.controlRoutes === true ? this.controlApi() : undefined;
    this.plugin = createSandboxPlugin(this);
    this.persistWorlds();
  }

  get appId(): string {
    return this.settings.appId;
  }

  get appSecret(): string {
    return this.settings.appSecret;
  }

  /** The default world's runtime. */
  get defaultWorld(): SandboxWorld {
    return this.worldRuntime(DEFAULT_WORLD);
  }

  get world(): World {
    return this.defaultWorld.world;
  }

  get delivery(): DeliveryModel {
    return this.defaultWorld.delivery;
  }

  get usage(): UsageMeter {
    return this.meter;
  }

  /** The default world's sandbox users. */
  get personas(): readonly SandboxPersona[] {
    return this.defaultWorld.personas;
  }

  /**
   * Wears an ad's creative out from a local date of its account on (ADR 0122): over the next 14 days its frequency
   * climbs, its CTR falls by up to 60 % and its CPM rises by up to 80 % (× strength). Until the next reset.
   */
  makeFatigued(adId: string, fromDate: string, strength = 1): void {
    const ad = this.world.ads.get(adId);
    if (!ad) throw new Error(`No sandbox ad ${adId}`);
    ad.profile = { ...ad.profile, fatigue: { fromDay: dayNumber(fromDate), strength } };
  }

  /** Every write accepted in the default world so far, oldest first. */
  get mutations(): readonly Mutation[] {
    return this.defaultWorld.mutations;
  }

  /** Keys of the worlds built so far (the default world's is ''). */
  get builtWorlds(): string[] {
    return [...this.worlds.keys()];
  }

  now(): number {
    return this.clock().getTime();
  }

  traceId(): string {
    this.traceSequence++;
    const mixed = (hashString(`${this.world.seedKey}:${this.traceSequence}`) * 4096 + this.traceSequence) % 2 ** 52;
    return `A${mixed.toString(36).toUpperCase().padStart(11, '0')}`;
  }

  /** A default-world write (tests): see WorldRuntime.recordMutation. */
  recordMutation(mutation: Mutation): void {
    this.defaultWorld.recordMutation(mutation);
  }

  /** A default-world user token without the consent screen, for tests and seeding. */
  issueToken(personaId?: string, scopes: string[] = ALL_SCOPES, lifetimeSeconds = LONG_TOKEN_SECONDS): string {
    return this.defaultWorld.issueToken(personaId, scopes, lifetimeSeconds);
  }

  /** A default-world Business Manager system user's token (never expiring unless `expiresIn60Days`). */
  issueSystemUserToken(options: { personaId?: string; scopes?: string[]; expiresIn60Days?: boolean } = {}): string {
    return this.defaultWorld.issueSystemUserToken(options);
  }

  /**
   * The world of `key`, built on first use from a seed derived from the key (the same key builds the same world
   * after a restart) with the writes the state file kept for it. '' is the default world.
   */
  worldRuntime(key: string): SandboxWorld {
    const built = this.worlds.get(key);
    if (built) {
      // Most recently used last: the map's order is the eviction order.
      if (key !== DEFAULT_WORLD) {
        this.worlds.delete(key);
        this.worlds.set(key, built);
      }
      return built;
    }
    if (!isWorldKey(key)) throw new Error('not a sandbox world key');
    this.claimTag(key);
    const known = this.savedWorlds.get(key);
    const runtime = new WorldRuntime(this, key, this.buildState(key, known ?? []));
    this.savedWorlds.delete(key);
    this.worlds.set(key, runtime);
    this.evictIdleWorlds();
    if (known === undefined) this.persistWorlds();
    return runtime;
  }

  /** Drops the least recently used workspace worlds past maxBuiltWorlds; their writes wait for the next build. */
  private evictIdleWorlds(): void {
    const max = this.options.maxBuiltWorlds ?? 200;
    for (const [key, runtime] of this.worlds) {
      if (this.worlds.size - 1 <= max) break;
      if (key === DEFAULT_WORLD) continue;
      this.savedWorlds.set(key, runtime.savedMutations);
      this.worlds.delete(key);
    }
  }

  forToken(token: string | undefined): GraphRuntime {
    const claims = token ? this.tokens.readUser(token) : undefined;
    return claims && claims.world !== DEFAULT_WORLD && isWorldKey(claims.world)
      ? this.worldRuntime(claims.world)
      : this.defaultWorld;
  }

  /** The world of a well-signed `sandbox_world` hint (no hint: the default world); undefined for a bad one. */
  worldOfHint(hint: string | undefined): SandboxWorld | undefined {
    if (hint === undefined || hint === '') return this.defaultWorld;
    const key = readWorldHint(this.settings.appSecret, hint);
    return key === undefined ? undefined : this.worldRuntime(key);
  }

  /** The world holding ad account `act` (with or without act_), from the tag in its id; undefined if none does. */
  worldOfAccount(act: string): SandboxWorld | undefined {
    if (this.defaultWorld.world.account(act)) return this.defaultWorld;
    const tag = tagOfAccount(act);
    if (tag === undefined) return undefined;
    const key = this.keysByTag.get(tag);
    if (key === undefined) return undefined;
    const runtime = this.worldRuntime(key);
    return runtime.world.account(act) ? runtime : undefined;
  }

  /** The hint AdPilot adds to the consent dialog's address for world `key` (see world/world-key.ts). */
  worldHint(key: string): string {
    return signWorldHint(this.settings.appSecret, key);
  }

  /**
   * Back to the seeded world: the default world's writes (or world `key`'s), faults, counters, codes and report runs
   * are dropped. Other worlds keep their writes.
   */
  reset(key: string = DEFAULT_WORLD): void {
    const runtime = this.worldRuntime(key);
    runtime.replace(this.buildState(key, []));
    this.faults.clear();
    this.stats.reset();
    this.codes.clear();
    this.reports.clear();
    this.meter = this.newMeter();
    this.traceSequence = 0;
    this.persistWorlds();
  }

  /** Writes every world's log to the state file (worlds not built since the start keep what the file held). */
  persistWorlds(): void {
    if (!this.options.stateFile) return;
    const worlds = new Map<string, Mutation[]>();
    for (const [key, runtime] of this.worlds) worlds.set(key, runtime.savedMutations);
    for (const [key, mutations] of this.savedWorlds) worlds.set(key, mutations);
    writeState(this.options.stateFile, { anchorDate: this.anchorDate, worlds });
  }

  private claimTag(key: string): void {
    const tag = worldTag(key);
    const holder = this.keysByTag.get(tag);
    if (holder !== undefined && holder !== key) {
      throw new Error(`sandbox worlds ${holder} and ${key} would share ad account ids; refusing the second`);
    }
    this.keysByTag.set(tag, key);
  }

  private buildState(key: string, mutations: Mutation[]): WorldState {
    const base = this.options.seed ?? {};
    const seed = key === DEFAULT_WORLD ? base : worldSeed(base, key);
    const world = new World(buildWorld(seed, this.anchorDate));
    const known = mutations.filter((mutation) => world.findEntity(mutation.objectId) !== undefined);
    for (const mutation of known) world.apply(mutation);
    return { world, delivery: new DeliveryModel(world), mutations: known };
  }

  private newMeter(): UsageMeter {
    return new UsageMeter(this.options.accessTier ?? 'development_access', this.options.appCallsPerHour ?? 5_000);
  }

  private controlApi(): SandboxControl {
    return {
      setFaults: (config) => this.faults.set(config),
      faults: () => this.faults.current,
      stats: () => this.stats.snapshot(),
      resetStats: () => this.stats.reset(),
      reset: (key) => this.reset(key),
    };
  }
}

/** The name the server uses for the sandbox type. */
export type Sandbox = MetaSandbox;

export function createSandbox(options: SandboxOptions = {}): MetaSandbox {
  return new MetaSandbox(options);
}
