/** Types of lint/architecture.js (plain JavaScript: the ESLint configuration loads it). */
import type { ESLint } from 'eslint';

export declare const KNOWN_SERVICE_VALUE_IMPORTS: Record<string, string[]>;
export declare const MODULE_LAYERS: Record<string, string[]>;
export declare const architecture: ESLint.Plugin;
