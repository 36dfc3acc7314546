import { LINE_TEXT_MAX, UUID_PATTERN } from '@adpilot/contracts';
import type { ActivityLogRow } from '@adpilot/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLineFake, type RunningLineFake } from '../../test/line-fake.ts';
import { lineRetryKey } from './line-delivery.ts';
import { LineSender } from './line-sender.ts';
import { lineText } from './notification-texts.ts';

const entry = (description: string): ActivityLogRow =>
  ({
    id: '00000000-0000-4000-8000-000000000001',
    level: 'error',
    category: 'sync',
    description,
    metadata: {},
    createdAt: new Date('2026-03-01T05:00:00Z'),
  }) as unknown as ActivityLogRow;

const options = { language: 'en' as const, timeZone: 'Asia/Bangkok', publicUrl: 'https://ads.example' };

describe('the LINE message text', () => {
  it('says what happened, when, and links the activity log, then the lines a caller adds', () => {
    const text = lineText(
      { kind: 'entry', entry: entry('Sync of Shop failed'), message: 'Check the budget' },
      { ...options, extraLines: ['Approve: https://ads.example/inbox/1'] },
    );
    expect(text.split('\n')).toEqual([
      'Error: Sync of Shop failed',
      'Check the budget',
      expect.stringMatching(/^When: 1 Mar 2026, 12:00$/),
      '',
      'Open your activity log: https://ads.example/activity',
      'Approve: https://ads.example/inbox/1',
    ]);
  });

  it('stays within LINE’s 5,000 UTF-16 code units, cutting the entry and never a surrogate pair or a link', () => {
    const long = '🙂'.repeat(4000);
    const text = lineText(
      { kind: 'entry', entry: entry(long), message: null },
      { ...options, extraLines: ['Approve: https://ads.example/inbox/1'] },
    );
    expect(text.length).toBeLessThanOrEqual(LINE_TEXT_MAX);
    expect(text).toMatch(/Approve: https:\/\/ads\.example\/inbox\/1$/);
    expect(text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    expect(text).toContain('…\n');
  });

  it('words the test push in the chosen language', () => {
    expect(lineText({ kind: 'test' }, { ...options, language: 'th' })).toContain('ทดสอบ');
  });
});

describe('the LINE sender', () => {
  let fake: RunningLineFake;
  beforeAll(async () => {
    fake = await startLineFake({ tokens: ['token-1'] });
  });
  afterAll(() => fake.close());

  const push = (retryKey: string) => ({ to: `U${'a'.repeat(32)}`, text: 'hello', retryKey });

  it('pushes once per retry key: a repeat is a 409, which is a push LINE already has', async () => {
    const sender = new LineSender(fake.url);
    const key = lineRetryKey('00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002');
    expect(key).toMatch(UUID_PATTERN);
    expect(await sender.push('token-1', push(key))).toEqual({ ok: true, status: 200, repeated: false });
    expect(await sender.push('token-1', push(key))).toEqual({ ok: true, status: 409, repeated: true });
    expect(fake.pushes.filter((p) => p.retryKey === key)).toHaveLength(1);
  });

  it('names each refusal, and lets only a server error be retried', async () => {
    const sender = new LineSender(fake.url);
    const key = () => crypto.randomUUID();
    expect(await sender.push('wrong', push(key()))).toMatchObject({
      ok: false,
      code: 'unauthorized',
      retryable: false,
    });
    fake.failNext(403);
    expect(await sender.push('token-1', push(key()))).toMatchObject({ code: 'forbidden', retryable: false });
    fake.failNext(429);
    expect(await sender.push('token-1', push(key()))).toMatchObject({ code: 'quota', retryable: false });
    expect(await sender.push('token-1', { ...push(key()), to: 'someone' })).toMatchObject({
      code: 'rejected',
      status: 400,
      retryable: false,
    });
    fake.failNext(502);
    expect(await sender.push('token-1', push(key()))).toMatchObject({ code: 'server', status: 502, retryable: true });
  });

  it('gives up on a LINE that does not answer in time, and says it may be retried', async () => {
    const silent = new LineSender(
      'http://line.invalid',
      50,
      (_url, init) =>
        new Promise((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(new Error('aborted')))),
    );
    expect(await silent.push('token-1', push(crypto.randomUUID()))).toEqual({
      ok: false,
      code: 'timeout',
      status: null,
      retryable: true,
    });
  });
});
