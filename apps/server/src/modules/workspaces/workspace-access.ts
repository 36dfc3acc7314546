import { hasRole, type WorkspaceRole } from '@adpilot/contracts';
import type { SystemTx, WorkspaceRow } from '@adpilot/db';
import { AppError } from '../../lib/app-error.ts';
import { ROLE_WORDS } from '../../plugins/authenticate.ts';
import type { WorkspacesRepository } from './workspaces.repository.ts';

/** The workspace a `/api/workspaces/:id` route acts on, and the caller's role in it. */
export interface Access {
  workspace: WorkspaceRow;
  role: WorkspaceRole;
}

export const workspaceNotFound = () => AppError.notFound('Workspace not found');

/** The refusal of a role too low, in the words of the authentication hook's. */
export const roleNeeded = (needed: WorkspaceRole) =>
  AppError.forbidden(`This needs ${ROLE_WORDS[needed]} of this workspace (or higher)`);

/**
 * The caller's place in the workspace named by the path, read in the unit of work that acts on it (ADR 0071):
 * another workspace, a missing one and one the caller left all answer 404, a role below `needed` 403. With `lock`,
 * the workspace row is locked for update first, so the members, roles and seats read after it hold until commit.
 */
export async function accessIn(
  tx: SystemTx,
  repository: WorkspacesRepository,
  request: { workspaceId: string; userId: string; needed: WorkspaceRole; lock?: boolean },
): Promise<Access> {
  const workspace = request.lock
    ? await repository.lock(tx, request.workspaceId)
    : await repository.find(tx, request.workspaceId);
  if (!workspace) throw workspaceNotFound();
  const role = await repository.roleOf(tx, workspace.id, request.userId);
  if (!role) throw workspaceNotFound();
  if (!hasRole(role, request.needed)) throw roleNeeded(request.needed);
  return { workspace, role };
}
