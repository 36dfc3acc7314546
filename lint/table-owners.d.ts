/** Types of lint/table-owners.js (plain JavaScript: the ESLint configuration loads it). */
export declare const TABLE_OWNERS: Record<string, string>;
export declare const KNOWN_CROSSINGS: Record<string, string[]>;
