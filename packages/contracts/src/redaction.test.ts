import { describe, expect, it } from 'vitest';
import { isSecretName, redactHeaders, redactText, redactUrl } from './redaction.ts';
import { SECRET_SETTINGS_FIELDS } from './settings.ts';

describe('redactUrl', () => {
  it('replaces the values of secret parameters and keeps the rest byte for byte', () => {
    expect(redactUrl('https://graph.example/v25.0/me?fields=id%2Cname&access_token=EAAB.x-y&limit=5#top')).toBe(
      'https://graph.example/v25.0/me?fields=id%2Cname&access_token=REDACTED&limit=5#top',
    );
    expect(redactUrl('/api/stream?token=abc&since=2026-01-01')).toBe('/api/stream?token=REDACTED&since=2026-01-01');
  });

  it('matches names whatever their case or encoding', () => {
    expect(redactUrl('/x?Client_Secret=s1&%66b_exchange_token=s2&PASSWORD=s3')).toBe(
      '/x?Client_Secret=REDACTED&%66b_exchange_token=REDACTED&PASSWORD=REDACTED',
    );
  });

  it('leaves URLs without a query, and parameters without a value, as they are', () => {
    expect(redactUrl('/api/auth/me')).toBe('/api/auth/me');
    expect(redactUrl('/x?token&code=')).toBe('/x?token&code=REDACTED');
    expect(redactUrl('/x?%E0%A4%A=1&state=s')).toBe('/x?%E0%A4%A=1&state=REDACTED');
  });
});

describe('redactHeaders', () => {
  it('replaces authorization and cookie values', () => {
    expect(redactHeaders({ Authorization: 'Bearer t', cookie: 'sid=1', accept: 'json' })).toEqual({
      Authorization: 'REDACTED',
      cookie: 'REDACTED',
      accept: 'json',
    });
  });

  it('replaces the signatures of incoming and outgoing webhooks, whatever their case', () => {
    const signed = {
      'Stripe-Signature': 't=1700000000,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd',
      'x-adpilot-signature': 'sha256=0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0',
      'X-Hub-Signature-256': 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17',
      'content-type': 'application/json',
    };
    expect(redactHeaders(signed)).toEqual({
      'Stripe-Signature': 'REDACTED',
      'x-adpilot-signature': 'REDACTED',
      'X-Hub-Signature-256': 'REDACTED',
      'content-type': 'application/json',
    });
    for (const name of ['stripe-signature', 'x-adpilot-signature', 'x-hub-signature-256'])
      expect(isSecretName(name)).toBe(true);
  });
});

describe('redactText', () => {
  it('removes known secret values of eight characters or more', () => {
    expect(redactText('token EAAB1234 was refused; EAAB1234 again', ['EAAB1234', 'short'])).toBe(
      'token REDACTED was refused; REDACTED again',
    );
  });
});

describe('settings secrets', () => {
  it('names every secret field of Settings, so a body echoed in a log loses its value', () => {
    for (const field of SECRET_SETTINGS_FIELDS) expect(isSecretName(field)).toBe(true);
  });
});
