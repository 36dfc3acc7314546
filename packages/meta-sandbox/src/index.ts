export {
  ALL_SCOPES,
  createSandbox,
  MetaSandbox,
  type Sandbox,
  type SandboxOptions,
  type SandboxWorld,
} from './create-sandbox.ts';
export { DEFAULT_WORLD, isAccountOfWorld, readWorldHint, signWorldHint } from './world/world-key.ts';
export { startSandboxServer, type RunningSandbox, type StartSandboxOptions } from './http/server.ts';
export { DEFAULT_GRAPH_VERSION } from './http/plugin.ts';
export { ADS_MANAGER_APP } from './http/ads-manager-edit.ts';
export {
  ADS_MANAGER_LINK_SECONDS,
  AdsManagerAccess,
  adsManagerCookie,
  SANDBOX_PERSON,
  type AdsManagerHolderCheck,
  type AdsManagerPerson,
} from './http/ads-manager-access.ts';
export { sandboxRequestSerializer } from './http/request-log.ts';
export { Faults, faultConfigSchema, type FaultConfig } from './faults.ts';
export { CallStats, type CallKind, type CallStatsSnapshot } from './stats.ts';
export { defaultSeed, type AccountSeed, type PersonaSeed, type SandboxSeed } from './world/seed.ts';
export type { World } from './world/world.ts';
export type {
  Mutation,
  SandboxAccount,
  SandboxAd,
  SandboxAdSet,
  SandboxCampaign,
  SandboxPersona,
} from './world/types.ts';
