// The workspaces module's public face: what the rest of the server may import from it (ADR 0171).
export type { HandoverService } from './handover.service.ts';
export type { Membership, MembershipCache } from './membership-cache.ts';
export { createWorkspacesModule } from './workspaces.module.ts';
export type { PlanPool } from './workspaces.repository.ts';
export type { WorkspacesService } from './workspaces.service.ts';
