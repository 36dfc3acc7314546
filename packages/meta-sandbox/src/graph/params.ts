import { invalidParameter } from './graph-error.ts';

/** Request parameters from the query string and a JSON or form body, flattened to strings as Graph reads them. */
export type Params = Record<string, string>;

function toParamValue(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value) && value.every((item) => typeof item === 'string') && value.length === 1) return value[0];
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** Later sources win, so a body parameter overrides the same name in the query string. */
export function mergeParams(...sources: unknown[]): Params {
  const params: Params = {};
  for (const source of sources) {
    if (!source || typeof source !== 'object' || Array.isArray(source)) continue;
    for (const [name, value] of Object.entries(source)) {
      const text = toParamValue(value);
      if (text !== undefined) params[name] = text;
    }
  }
  return params;
}

export function parseFormBody(body: string): Params {
  return Object.fromEntries(new URLSearchParams(body));
}

/** Graph accepts structured parameters (time_range, effective_status…) as JSON text. */
export function jsonParam(params: Params, name: string): unknown {
  const raw = params[name];
  if (raw === undefined) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    throw invalidParameter(`Param ${name} must be a JSON value`);
  }
}

/** Splits `a,b{c,d},e.limit(5)` into top-level names, ignoring nested selections and modifiers. */
export function fieldList(raw: string | undefined): string[] {
  if (!raw) return [];
  const names: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of raw) {
    if (char === '{' || char === '(') depth++;
    if (char === '}' || char === ')') depth--;
    if (char === ',' && depth === 0) {
      names.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  names.push(current);
  return names.map((name) => name.trim().replace(/[{.(].*$/s, '')).filter(Boolean);
}
