import { z } from 'zod';

/** Workspaces (ADR 0070): the tenant every table moves to, with members and their roles. */

export const WORKSPACE_ROLES = ['owner', 'admin', 'editor', 'viewer'] as const;
export type WorkspaceRole = (typeof WORKSPACE_ROLES)[number];

/** A workspace as its member sees it. A personal workspace's name is its owner's name; the web words it. */
export const workspaceSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  role: z.enum(WORKSPACE_ROLES),
  personal: z.boolean(),
});

/** GET /api/workspaces: the signed-in user's workspaces, the personal one first. */
export const workspaceListSchema = z.array(workspaceSchema);

export type Workspace = z.infer<typeof workspaceSchema>;
