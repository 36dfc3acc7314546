/**
 * How deep JSON may nest, in a request body or in JSON pasted into a field. Far beyond anything of ours (a rule's
 * condition groups nest RULE_LIMITS.groupDepthMax levels), far below what recursive parsing, validation and
 * serialisation survive on the stack (ADR 0062).
 */
export const JSON_DEPTH_MAX = 64;

/**
 * Whether JSON text opens more than `limit` arrays or objects inside one another. Brackets inside strings are not
 * counted (a backslash escapes the next character). One pass with no allocation, stopping at the first bracket past
 * the limit; malformed text is left to the parser to refuse.
 */
export function nestedDeeperThan(text: string, limit: number = JSON_DEPTH_MAX): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 0x5c) index += 1;
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) {
      inString = true;
    } else if (char === 0x7b || char === 0x5b) {
      depth += 1;
      if (depth > limit) return true;
    } else if (char === 0x7d || char === 0x5d) {
      depth -= 1;
    }
  }
  return false;
}
