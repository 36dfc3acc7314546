import { describe, expect, it } from 'vitest';
import { authLink, DEFAULT_SIGNED_IN_PATH, redirectTarget } from './redirect.ts';

describe('the page to come back to after signing in', () => {
  it('is the one in router state first, then the one a link named in ?next=', () => {
    expect(redirectTarget({ from: '/rules' }, '?next=/members')).toBe('/rules');
    expect(redirectTarget(null, '?next=%2Finvitations%2Faccept%3Ftoken%3Dabc')).toBe('/invitations/accept?token=abc');
    expect(redirectTarget(null, '')).toBe(DEFAULT_SIGNED_IN_PATH);
  });

  it.each(['https://evil.example', '//evil.example', '/\\evil.example', 'javascript:alert(1)', 'members'])(
    'is never %s, which would leave the app',
    (next) => {
      expect(redirectTarget(null, `?${new URLSearchParams({ next }).toString()}`)).toBe(DEFAULT_SIGNED_IN_PATH);
      expect(redirectTarget({ from: next })).toBe(DEFAULT_SIGNED_IN_PATH);
    },
  );

  it('is carried by the links to sign in and sign up', () => {
    expect(authLink('/login', '/invitations/accept?token=a+b')).toBe(
      '/login?next=%2Finvitations%2Faccept%3Ftoken%3Da%2Bb',
    );
  });
  it('refuses a next that parsing would turn into another host: tabs, newlines, backslashes', () => {
    for (const next of ['/%09/evil.example', '/%0A/evil.example', '/%0D/evil.example', '/%5C/evil.example']) {
      expect(redirectTarget(null, `?next=${next}`)).toBe('/dashboard');
    }
  });
});
