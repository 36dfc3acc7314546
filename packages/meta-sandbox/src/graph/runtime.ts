import type { CodeStore } from '../auth/codes.ts';
import type { TokenService, UserTokenClaims } from '../auth/tokens.ts';
import type { Faults } from '../faults.ts';
import type { DeliveryModel } from '../metrics/delivery.ts';
import type { CallStats } from '../stats.ts';
import type { Mutation, SandboxPersona } from '../world/types.ts';
import type { World } from '../world/world.ts';
import type { Params } from './params.ts';
import type { ReportRuns } from './report-runs.ts';
import type { UsageMeter } from './usage-meter.ts';

export interface SandboxSettings {
  appId: string;
  /** The app's name, as the activity history shows who made a change through it. */
  appName: string;
  appSecret: string;
  /** User-token calls without appsecret_proof are refused (100), as with "Require App Secret" on. */
  requireAppSecretProof: boolean;
  /** Synchronous insights requests that would return more rows answer "too much data" (HTTP 500, code 1/99). */
  maxSyncInsightsRows: number;
  /** Status polls an async report run takes before it completes. */
  reportPolls: number;
}

/**
 * Everything a Graph handler may touch, for one sandbox world; the sandbox implements it per world and swaps a
 * world on reset. Tokens, codes, faults, counters, usage and report runs are the sandbox's, shared by its worlds.
 */
export interface GraphRuntime {
  readonly settings: SandboxSettings;
  /** The world's key ('' for the default world). */
  readonly worldKey: string;
  readonly world: World;
  readonly delivery: DeliveryModel;
  readonly tokens: TokenService;
  readonly codes: CodeStore;
  readonly faults: Faults;
  readonly stats: CallStats;
  readonly usage: UsageMeter;
  readonly reports: ReportRuns;
  /** Every write accepted so far, oldest first (the activity history is read from it). */
  readonly mutations: readonly Mutation[];
  now(): number;
  recordMutation(mutation: Mutation): void;
  traceId(): string;
  /** The runtime of a token's world: the world a well-signed user token names, else the default world. */
  forToken(token: string | undefined): GraphRuntime;
}

export type HttpMethod = 'GET' | 'POST' | 'DELETE';

export interface GraphCall {
  method: HttpMethod;
  version: string;
  /** Path segments after the version. */
  segments: string[];
  /** Query and body parameters merged. */
  params: Params;
  /** The query string alone, carried into paging links. */
  query: Params;
  token: string | undefined;
  /** Absolute URL of the mount point (protocol, host, prefix), for paging links. */
  baseUrl: string;
  inBatch: boolean;
}

export interface GraphAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export type Auth =
  | { kind: 'none' }
  | { kind: 'app' }
  | { kind: 'user'; token: string; claims: UserTokenClaims; persona: SandboxPersona };

export type UserAuth = Extract<Auth, { kind: 'user' }>;

export function pageLink(call: GraphCall): { url: string; query: Params; token: string | undefined } {
  return { url: `${call.baseUrl}/${call.version}/${call.segments.join('/')}`, query: call.query, token: call.token };
}
