import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { calendarDate, DATE_MAX, DATE_MIN, INPUT_MESSAGES, text } from './text.ts';

const messages = (result: { error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((issue) => issue.message);

describe('text', () => {
  it.each([
    'a\u0000b',
    'tab\there',
    'line\nbreak',
    'bell\u0007',
    'del\u007f',
    'c1\u0085',
    'lone \ud800 surrogate',
    'lone \udc00 low',
  ])('refuses %j', (value) => {
    expect(messages(text().safeParse(value))).toEqual([INPUT_MESSAGES.controlCharacters]);
  });

  it.each(['Ådpilot ไทย', 'emoji 🚀 pair', 'zero\u200bwidth', 'right-to-left \u202e'])('accepts %j', (value) => {
    expect(text().parse(value)).toBe(value);
  });

  it('allows tab and line breaks, and nothing else, in multi-line text', () => {
    expect(text({ multiline: true }).parse('first\r\n\tsecond')).toBe('first\r\n\tsecond');
    for (const value of ['a\u0000b', 'a\u000bb', 'a\u001bb', 'a\u0085b', 'a\ud800b']) {
      expect(messages(text({ multiline: true }).safeParse(value))).toEqual([INPUT_MESSAGES.controlCharacters]);
    }
  });

  it('trims before checking when asked, and names a missing value', () => {
    expect(text({ trim: true }).parse('  name  ')).toBe('name');
    expect(messages(text({ required: 'Name is required' }).safeParse(undefined))).toEqual(['Name is required']);
  });
});

describe('calendarDate', () => {
  it.each(['2000-01-01', '2024-02-29', '2099-12-31'])('accepts %s', (value) => {
    expect(calendarDate().parse(value)).toBe(value);
  });

  it('accepts DATE_MIN and DATE_MAX and refuses the days around them', () => {
    const day = (date: string, days: number) =>
      new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
    expect(calendarDate().parse(DATE_MIN)).toBe(DATE_MIN);
    expect(calendarDate().parse(DATE_MAX)).toBe(DATE_MAX);
    expect(calendarDate().safeParse(day(DATE_MIN, -1)).success).toBe(false);
    expect(calendarDate().safeParse(day(DATE_MAX, 1)).success).toBe(false);
  });

  it('states its pattern and the control-character rule in JSON Schema', () => {
    const schema = z.toJSONSchema(z.object({ date: calendarDate(), name: text() }), { io: 'input' });
    expect(schema.properties?.date).toMatchObject({ format: 'date', allOf: [{ pattern: '^20\\d{2}-' }] });
    expect(JSON.stringify(schema)).toContain('\\\\u0000-\\\\u001f');
  });

  it.each(['0000-01-01', '1999-12-31', '2100-01-01', '9999-12-31'])('refuses %s as out of range', (value) => {
    expect(messages(calendarDate().safeParse(value))).toEqual([INPUT_MESSAGES.dateRange]);
  });

  it.each(['2023-02-29', '2024-13-01', '2024-1-1', '20240101', '2024-01-01T00:00:00Z', ''])(
    'refuses %j as not a date',
    (value) => {
      expect(messages(calendarDate().safeParse(value))?.[0]).toBe(INPUT_MESSAGES.dateFormat);
    },
  );
});
