import { describe, expect, it } from 'vitest';
import { readDialogRequest } from './dialog.ts';

const APP_ID = '1234567890';
const REDIRECT = 'https://adpilot.example/ad-accounts';
const ask = (redirectUri: string) =>
  readDialogRequest({ client_id: APP_ID, redirect_uri: redirectUri, state: 's' }, APP_ID, [REDIRECT]);

describe("the dialog's redirect_uri, matched as Meta's strict mode does", () => {
  it('accepts the registered address exactly', () => {
    expect(ask(REDIRECT)).toMatchObject({ redirectUri: REDIRECT, state: 's' });
  });

  it('refuses every address that only starts with it', () => {
    for (const uri of [
      `${REDIRECT}/../../logout`,
      `${REDIRECT}/../logout`,
      `${REDIRECT}x`,
      `${REDIRECT}/`,
      `${REDIRECT}?next=https://evil.example`,
      `${REDIRECT}#fragment`,
      'https://adpilot.example.evil.example/ad-accounts',
    ]) {
      expect(ask(uri), uri).toEqual({ error: expect.stringMatching(/^URL blocked/) });
    }
  });

  it('refuses an address of another case or another port', () => {
    expect(ask('https://adpilot.example/Ad-Accounts')).toHaveProperty('error');
    expect(ask('https://adpilot.example:8443/ad-accounts')).toHaveProperty('error');
  });

  it('accepts any http(s) address when no list is configured (a sandbox for scripts and tests)', () => {
    const open = readDialogRequest({ client_id: APP_ID, redirect_uri: 'http://127.0.0.1:9/cb' }, APP_ID, undefined);
    expect(open).toMatchObject({ redirectUri: 'http://127.0.0.1:9/cb' });
  });
});
