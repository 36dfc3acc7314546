import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { formatLogLine, readableLogs, readableLogStream } from './log-format.ts';
import { logOptions } from './redact.ts';

/** What a logger writes through the readable destination, with the clock at a fixed local time. */
function logged(write: (log: pino.Logger) => void): string[] {
  const lines: string[] = [];
  const log = pino(
    { ...logOptions('debug'), timestamp: () => `,"time":${new Date(2026, 11, 2, 9, 5, 7).getTime()}` },
    readableLogStream({ write: (text: string) => lines.push(text) }),
  );
  write(log);
  return lines;
}

describe('readable logs', () => {
  it('write one line per entry: local time, level, message, the other fields; no pid or host', () => {
    const [line] = logged((log) => log.warn({ dataDir: '/srv/data', attempts: 2 }, 'generated a new secret'));
    expect(line).toBe('09:05:07 WARN  generated a new secret dataDir=/srv/data attempts=2\n');
  });

  it('write a request as method, path, status and time', () => {
    const [line] = logged((log) =>
      log.debug({ req: { method: 'GET', url: '/api/health' }, res: { statusCode: 200 }, responseTime: 3.4 }, 'done'),
    );
    expect(line).toBe('09:05:07 DEBUG done GET /api/health → 200 (3 ms)\n');
  });

  it("write an error's stack below its line, through the redacting serializer", () => {
    const error = new Error('connect failed for postgres://app:hunter2@db/app');
    const [line] = logged((log) => log.error({ err: error }, 'database unreachable'));
    const [first, second] = line!.split('\n');
    expect(first).toBe('09:05:07 ERROR database unreachable');
    expect(second).toMatch(/^ {4}Error: connect failed for postgres:\/\/app:REDACTED@db\/app$/);
    expect(line).not.toContain('hunter2');
  });

  it('quote a value with spaces, colour only when asked, and pass a line that is not JSON unchanged', () => {
    const line = JSON.stringify({ level: 30, time: 0, msg: 'ready', note: 'two words' });
    expect(formatLogLine(line)).toMatch(/ INFO {2}ready note="two words"\n$/);
    expect(formatLogLine(line, { colours: true })).toContain('\u001b[32mINFO \u001b[0m');
    expect(formatLogLine('plain text')).toBe('plain text\n');
  });

  it('are chosen on a terminal or when asked, JSON otherwise', () => {
    expect(readableLogs('auto', true)).toBe(true);
    expect(readableLogs('auto', false)).toBe(false);
    expect(readableLogs('pretty', false)).toBe(true);
    expect(readableLogs('json', true)).toBe(false);
  });
});
