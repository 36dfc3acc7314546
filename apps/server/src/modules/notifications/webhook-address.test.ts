import { describe, expect, it } from 'vitest';
import { isPrivateAddress, WebhookAddressPolicy } from './webhook-address.ts';

describe('webhook address policy', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.0.10',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::',
    'fd00::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '64:ff9b::10.0.0.1',
  ])('%s is private', (address) => expect(isPrivateAddress(address)).toBe(true));

  it.each(['8.8.8.8', '172.32.0.1', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('%s is public', (address) =>
    expect(isPrivateAddress(address)).toBe(false),
  );

  it('refuses private literals and local names at save time unless the operator allows the host', () => {
    const strict = new WebhookAddressPolicy();
    expect(strict.acceptsUrl('https://hooks.slack.com/services/T/B/x')).toBe(true);
    expect(strict.acceptsUrl('http://127.0.0.1:8080/hook')).toBe(false);
    expect(strict.acceptsUrl('http://[::1]/hook')).toBe(false);
    expect(strict.acceptsUrl('http://metadata.google.internal/')).toBe(false);
    expect(strict.acceptsUrl('http://LOCALHOST./')).toBe(false);
    const allowing = new WebhookAddressPolicy(['127.0.0.1']);
    expect(allowing.acceptsUrl('http://127.0.0.1:8080/hook')).toBe(true);
    expect(allowing.acceptsUrl('http://10.0.0.1/hook')).toBe(false);
  });

  it('resolves a name once and refuses it when an answer is private', async () => {
    const strict = new WebhookAddressPolicy();
    expect(await strict.resolve('http://127.0.0.1/')).toBeNull();
    expect(await strict.resolve('http://localhost/')).toBeNull();
    expect(await strict.resolve('http://8.8.8.8/')).toEqual({ address: '8.8.8.8', family: 4 });
    expect(await new WebhookAddressPolicy(['localhost']).resolve('http://localhost/')).toMatchObject({
      address: expect.stringMatching(/^(127\.0\.0\.1|::1)$/),
    });
  });
});
