/**
 * The workspace roles and the workspace header, without schemas: the web's first download reads these (the API
 * client, the signed-in shell), and a module that declares zod schemas would bring zod with it (ADR 0138).
 */

export const WORKSPACE_ROLES = ['owner', 'admin', 'editor', 'viewer'] as const;
export type WorkspaceRole = (typeof WORKSPACE_ROLES)[number];

/** The request header that picks the current workspace; without it, the user's personal workspace. */
export const WORKSPACE_HEADER = 'x-workspace-id';

/** How much each role may do, higher is more: a route needing `editor` lets editors, admins and owners through. */
export const ROLE_RANK: Record<WorkspaceRole, number> = { viewer: 0, editor: 1, admin: 2, owner: 3 };

/** True when `role` is at least `needed`. */
export function hasRole(role: WorkspaceRole, needed: WorkspaceRole): boolean {
  return ROLE_RANK[role] >= ROLE_RANK[needed];
}
