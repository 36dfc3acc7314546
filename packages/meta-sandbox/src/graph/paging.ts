import { invalidParameter } from './graph-error.ts';
import type { Params } from './params.ts';

export const MAX_PAGE_SIZE = 500;
/**
 * Insights rows are small and Meta serves them in pages of thousands; the sandbox allows 5,000 per page, so a
 * month of daily ad-level rows for a 500-ad account comes in a few pages.
 */
export const MAX_INSIGHTS_PAGE_SIZE = 5000;

export interface PageLink {
  /** Absolute URL of the requested path, without a query string. */
  url: string;
  /** The request's query parameters, carried into next/previous as Meta does (never the appsecret_proof). */
  query: Params;
  token: string | undefined;
}

export interface Page<T> {
  data: T[];
  paging?: { cursors: { before: string; after: string }; next?: string; previous?: string };
}

/** Meta's links carry the token but not the proof: a client must add the proof to every link it follows. */
const LINK_DROPS = new Set(['after', 'before', 'access_token', 'appsecret_proof']);

const encodeCursor = (index: number): string => Buffer.from(`cursor:${index}`).toString('base64url');

function decodeCursor(cursor: string): number {
  const match = /^cursor:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match?.[1]) throw invalidParameter('The cursor is invalid');
  return Number(match[1]);
}

function pageUrl(link: PageLink, limit: number, cursor: { after: string } | { before: string }): string {
  const url = new URL(link.url);
  for (const [name, value] of Object.entries(link.query)) {
    if (!LINK_DROPS.has(name)) url.searchParams.set(name, value);
  }
  url.searchParams.set('limit', String(limit));
  if (link.token) url.searchParams.set('access_token', link.token);
  if ('after' in cursor) url.searchParams.set('after', cursor.after);
  else url.searchParams.set('before', cursor.before);
  return url.toString();
}

/** Cursor paging as Graph does it: `limit` is a maximum, `next` is an absolute URL and absent on the last page. */
export function paginate<T>(
  items: readonly T[],
  params: Params,
  link: PageLink,
  defaultLimit = 25,
  maxLimit = MAX_PAGE_SIZE,
): Page<T> {
  const requested = Number(params.limit);
  const limit = Number.isInteger(requested) && requested > 0 ? Math.min(requested, maxLimit) : defaultLimit;
  let start = 0;
  let end: number;
  if (params.after !== undefined) {
    start = decodeCursor(params.after) + 1;
    end = Math.min(items.length, start + limit);
  } else if (params.before !== undefined) {
    end = Math.min(items.length, decodeCursor(params.before));
    start = Math.max(0, end - limit);
  } else {
    end = Math.min(items.length, limit);
  }
  const data = items.slice(start, end);
  if (data.length === 0) return { data };
  const cursors = { before: encodeCursor(start), after: encodeCursor(end - 1) };
  return {
    data,
    paging: {
      cursors,
      ...(end < items.length ? { next: pageUrl(link, limit, { after: cursors.after }) } : {}),
      ...(start > 0 ? { previous: pageUrl(link, limit, { before: cursors.before }) } : {}),
    },
  };
}

/** Formats only the items on the page: formatting can be costly (amount_spent sums the account's history). */
export function mapPage<T, U>(page: Page<T>, format: (item: T) => U): Page<U> {
  return { ...page, data: page.data.map(format) };
}
