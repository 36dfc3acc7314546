import { API_BASE, ApiError, refreshSession, workspaceHeaders } from './api-client.ts';
import { readToken } from './session-storage.ts';

/** A query's values as a search string; empty and missing values left out. */
export function queryString(values: Record<string, string | number | boolean | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined && value !== '') search.set(key, String(value));
  }
  return search.toString();
}

/** The file the API answers at `path` (under /api), asked for with the session (refreshed once on a 401). */
export async function fetchFile(path: string): Promise<Blob> {
  const url = `${API_BASE}${path}`;
  const sentWith = readToken();
  const fetchOnce = () =>
    fetch(url, { headers: { ...workspaceHeaders(), Authorization: `Bearer ${readToken() ?? ''}` } });
  let response = await fetchOnce();
  if (response.status === 401 && (await refreshSession(sentWith))) response = await fetchOnce();
  if (!response.ok)
    throw new ApiError(`Download failed with status ${response.status}`, response.status, 'BAD_REQUEST');
  return response.blob();
}

function saveBlob(blob: Blob, name: string): void {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = name;
  link.click();
  URL.revokeObjectURL(link.href);
}

/**
 * Downloads a file the API answers at `path` (under /api) and saves it as `name`: the browser's own download. The
 * name is the caller's (dated by the reader's local day).
 */
export async function downloadFile(path: string, name: string): Promise<void> {
  saveBlob(await fetchFile(path), name);
}

/** How long a file opened in a tab keeps its address: long enough for the tab to read it, then it is freed. */
const OPENED_FILE_LIFETIME_MS = 60_000;

/**
 * Opens a file the API answers at `path` in a new tab (a PDF in the browser's viewer). The tab is opened before the
 * file is asked for, while the click still counts as the user's, so no pop-up blocker stops it; where a tab cannot
 * be opened, the file is downloaded as `name` instead.
 */
export async function openFile(path: string, name: string): Promise<void> {
  const tab = window.open('', '_blank');
  let blob: Blob;
  try {
    blob = await fetchFile(path);
  } catch (error) {
    tab?.close();
    throw error;
  }
  if (!tab) {
    saveBlob(blob, name);
    return;
  }
  const address = URL.createObjectURL(blob);
  tab.location.href = address;
  setTimeout(() => URL.revokeObjectURL(address), OPENED_FILE_LIFETIME_MS);
}
