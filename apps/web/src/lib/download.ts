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

/**
 * Downloads a file the API answers at `path` (under /api) and saves it as `name`: the browser's own download, the
 * session refreshed once on a 401. The name is the caller's (dated by the reader's local day).
 */
export async function downloadFile(path: string, name: string): Promise<void> {
  const url = `${API_BASE}${path}`;
  const sentWith = readToken();
  const fetchFile = () =>
    fetch(url, { headers: { ...workspaceHeaders(), Authorization: `Bearer ${readToken() ?? ''}` } });
  let response = await fetchFile();
  if (response.status === 401 && (await refreshSession(sentWith))) response = await fetchFile();
  if (!response.ok) throw new ApiError(`Export failed with status ${response.status}`, response.status, 'BAD_REQUEST');
  const blob = await response.blob();
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = name;
  link.click();
  URL.revokeObjectURL(link.href);
}
