import type { DestinationStream } from 'pino';

/**
 * Readable log lines for a person at a terminal (ADR 0136): pino writes JSON, and this turns each object into
 * `HH:MM:SS LEVEL message key=value…`, an error's stack below it. Only the presentation changes: the serializers
 * (and their redaction) have run before a line reaches here.
 */

const LEVELS: Record<number, { name: string; colour: number }> = {
  10: { name: 'TRACE', colour: 90 },
  20: { name: 'DEBUG', colour: 36 },
  30: { name: 'INFO', colour: 32 },
  40: { name: 'WARN', colour: 33 },
  50: { name: 'ERROR', colour: 31 },
  60: { name: 'FATAL', colour: 35 },
};

/** What every line has, or what says nothing to a person watching one process. */
const OMITTED = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'err', 'req', 'res', 'responseTime', 'reqId']);

interface LogError {
  type?: string;
  message?: string;
  stack?: string;
}

function paint(text: string, colour: number, colours: boolean): string {
  return colours ? `\u001b[${colour}m${text}\u001b[0m` : text;
}

function clock(time: unknown): string {
  const date = new Date(typeof time === 'number' ? time : Date.now());
  return [date.getHours(), date.getMinutes(), date.getSeconds()].map((part) => String(part).padStart(2, '0')).join(':');
}

function field(key: string, value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return `${key}=${typeof value === 'string' && /\s/.test(text) ? JSON.stringify(text) : text}`;
}

/** A request line as a person reads it: `GET /api/x → 200 (12 ms)`. */
function requestPart(entry: Record<string, unknown>): string | null {
  const req = entry.req as { method?: string; url?: string } | undefined;
  if (!req?.method) return null;
  const res = entry.res as { statusCode?: number } | undefined;
  const time = typeof entry.responseTime === 'number' ? ` (${Math.round(entry.responseTime)} ms)` : '';
  return `${req.method} ${req.url ?? ''}${res?.statusCode ? ` → ${res.statusCode}` : ''}${time}`;
}

/** One JSON log line as one readable line (more for an error's stack); a line that is not JSON passes unchanged. */
export function formatLogLine(line: string, { colours = false }: { colours?: boolean } = {}): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  const level = LEVELS[Number(entry.level)] ?? { name: String(entry.level ?? '?'), colour: 0 };
  const parts = [paint(clock(entry.time), 90, colours), paint(level.name.padEnd(5), level.colour, colours)];
  if (typeof entry.msg === 'string' && entry.msg) parts.push(entry.msg);
  const request = requestPart(entry);
  if (request) parts.push(request);
  const rest = Object.entries(entry).filter(([key, value]) => !OMITTED.has(key) && value !== undefined);
  if (rest.length) parts.push(paint(rest.map(([key, value]) => field(key, value)).join(' '), 90, colours));
  let text = parts.join(' ');
  const err = entry.err as LogError | undefined;
  if (err) {
    const stack = err.stack ?? `${err.type ?? 'Error'}: ${err.message ?? ''}`;
    text += `\n${stack
      .split('\n')
      .map((stackLine) => `    ${stackLine}`)
      .join('\n')}`;
  }
  return `${text}\n`;
}

/** A pino destination writing readable lines to `out` (standard output when it is a terminal). */
export function readableLogStream(
  out: { write(text: string): unknown },
  options: { colours?: boolean } = {},
): DestinationStream {
  return { write: (line: string) => void out.write(formatLogLine(line, options)) };
}

/** Whether the logs are written for a person: `pretty`, or `auto` on a terminal. */
export function readableLogs(format: 'auto' | 'pretty' | 'json', isTerminal: boolean): boolean {
  return format === 'pretty' || (format === 'auto' && isTerminal);
}
