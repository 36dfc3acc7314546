import type { Invitation, Workspace, WorkspaceMember } from '@adpilot/contracts';
import { buildUser } from '../../../test/render-app.tsx';

export { fail, fakeApi, ok } from '../../../test/fake-api.ts';

/** The signed-in user of these tests (`buildUser()`'s id). */
export const ME = buildUser();

export const PERSONAL: Workspace = {
  id: '00000000-0000-4000-8000-00000000000a',
  name: ME.name,
  role: 'owner',
  personal: true,
};

export function buildWorkspace(overrides: Partial<Workspace> = {}): Workspace {
  return {
    id: '00000000-0000-4000-8000-00000000000b',
    name: 'Acme Agency',
    role: 'owner',
    personal: false,
    ...overrides,
  };
}

export function buildMember(overrides: Partial<WorkspaceMember> = {}): WorkspaceMember {
  return {
    userId: '00000000-0000-4000-8000-0000000000c1',
    name: 'Somchai Client',
    email: 'somchai@example.com',
    role: 'editor',
    ...overrides,
  };
}

/** The signed-in user as a member with `role`. */
export function meAs(role: WorkspaceMember['role']): WorkspaceMember {
  return { userId: ME.id, name: ME.name, email: ME.email, role };
}

export function buildInvitation(overrides: Partial<Invitation> = {}): Invitation {
  return {
    id: '00000000-0000-4000-8000-0000000000d1',
    email: 'new@example.com',
    role: 'viewer',
    invitedBy: ME.name,
    expiresAt: '2026-12-03T00:00:00.000Z',
    createdAt: '2026-11-26T00:00:00.000Z',
    ...overrides,
  };
}
