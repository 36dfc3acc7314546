/**
 * When Meta ends each Marketing API version (its "Marketing API version history" page, Expiration Date column, as
 * published in December 2026). Versions Meta has not dated yet ("TBD": v26.0 and v27.0 then) are null: the card warns
 * only once a date is known, from this table or from `META_API_VERSION_ENDS_AT` beside the version setting.
 */
export const MARKETING_API_END_OF_LIFE: Readonly<Record<string, string | null>> = {
  'v21.0': '2025-09-09',
  'v22.0': '2026-02-19',
  'v23.0': '2026-06-09',
  'v24.0': '2026-11-10',
  'v25.0': '2027-02-23',
  'v26.0': null,
  'v27.0': null,
};

/** The day Meta ends `version` of the Marketing API (YYYY-MM-DD, UTC), or null while Meta has not said. */
export function marketingApiEndOfLife(version: string): string | null {
  return MARKETING_API_END_OF_LIFE[version] ?? null;
}
