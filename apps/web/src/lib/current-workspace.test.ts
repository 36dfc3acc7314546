import { WORKSPACE_HEADER } from '@adpilot/contracts';
import { describe, expect, it } from 'vitest';
import { logStreamUrl } from '../api/activity-logs.ts';
import { fakeApi, ok } from '../test/fake-api.ts';
import { api } from './api-client.ts';
import { authApi } from './auth-api.ts';
import { chooseWorkspace, readWorkspaceChoice, WORKSPACE_STORAGE_KEY } from './current-workspace.ts';
import { clearStoredSession, storeTokens } from './session-storage.ts';

const CLIENT = '00000000-0000-4000-8000-00000000000b';
const OTHER = '00000000-0000-4000-8000-00000000000c';

describe('the current workspace', () => {
  it('sends no header for the personal workspace, and the chosen one on every request after a choice', async () => {
    const server = fakeApi({ 'GET /rules': ok([]), 'POST /rules': ok({}) });
    await api.get('/rules');
    chooseWorkspace(CLIENT);
    await api.get('/rules');
    await api.post('/rules', { name: 'x' });
    expect(server.calls.map((call) => call.headers[WORKSPACE_HEADER])).toEqual([undefined, CLIENT, CLIENT]);
  });

  it('sends none on calls about the user, which must answer whatever the tab chose', async () => {
    const server = fakeApi({ 'GET /auth/me': ok({}), 'GET /workspaces': ok([]) });
    chooseWorkspace(CLIENT);
    await authApi.me();
    await api.get('/workspaces', { workspace: false });
    expect(server.calls.map((call) => call.headers[WORKSPACE_HEADER])).toEqual([undefined, undefined]);
  });

  it("keeps the tab's choice across a reload (session storage) and seeds a new tab from the last choice", () => {
    chooseWorkspace(CLIENT);
    expect(sessionStorage.getItem(WORKSPACE_STORAGE_KEY)).toBe(CLIENT);
    // Another tab chooses later: this tab stays where it was.
    localStorage.setItem(WORKSPACE_STORAGE_KEY, OTHER);
    expect(readWorkspaceChoice()).toBe(CLIENT);
    // A new tab has an empty session storage: it starts from the last choice, then keeps its own.
    sessionStorage.clear();
    expect(readWorkspaceChoice()).toBe(OTHER);
    localStorage.setItem(WORKSPACE_STORAGE_KEY, CLIENT);
    expect(readWorkspaceChoice()).toBe(OTHER);
  });

  it('starts a new tab in the personal workspace when nothing was chosen, and forgets the choice on sign-out', () => {
    expect(readWorkspaceChoice()).toBeNull();
    chooseWorkspace(CLIENT);
    clearStoredSession();
    expect(readWorkspaceChoice()).toBeNull();
    expect(localStorage.getItem(WORKSPACE_STORAGE_KEY)).toBeNull();
  });

  it('puts the workspace in the live stream address beside the token', () => {
    storeTokens('access', 'refresh');
    chooseWorkspace(CLIENT);
    const url = new URL(logStreamUrl({}, undefined), 'http://localhost');
    expect(url.searchParams.get('workspaceId')).toBe(CLIENT);
    expect(url.searchParams.get('token')).toBe('access');
  });
});
