import type { TenantScope } from '@adpilot/db';

/** The scope of a workspace's own job (the scheduler's runs, syncs, retention): the workspace, and no person. */
export function workspaceJob(workspaceId: string): TenantScope {
  return { workspaceId, userId: null };
}

/** The person of a unit of work or scope; a workspace job has none, and asking it for one is a bug in the caller. */
export function personOf(scope: { readonly userId: string | null }): string {
  if (scope.userId === null) throw new Error('This unit of work acts for no person');
  return scope.userId;
}
