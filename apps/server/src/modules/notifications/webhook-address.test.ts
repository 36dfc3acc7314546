import { describe, expect, it } from 'vitest';
import { embeddedIpv4, isPrivateAddress, WebhookAddressPolicy } from './webhook-address.ts';

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

  /** IPv6 addresses that carry an IPv4 one, by range, with the IPv4 address each reaches. */
  const carriers = [
    ['IPv4-compatible ::/96', '::7f00:1', '127.0.0.1'],
    ['IPv4-compatible ::/96, dotted', '::127.0.0.1', '127.0.0.1'],
    ['IPv4-compatible ::/96, public inside', '::808:808', '8.8.8.8'],
    ['IPv4-mapped ::ffff:0:0/96', '::ffff:a9fe:a9fe', '169.254.169.254'],
    ['IPv4-mapped ::ffff:0:0/96, written out', '0:0:0:0:0:ffff:7f00:1', '127.0.0.1'],
    ['6to4 2002::/16', '2002:7f00:1::', '127.0.0.1'],
    ['6to4 2002::/16, public inside', '2002:808:808::1', '8.8.8.8'],
    ['NAT64 64:ff9b::/96', '64:ff9b::a00:1', '10.0.0.1'],
    ['NAT64 64:ff9b::/96, dotted', '64:ff9b::192.168.1.1', '192.168.1.1'],
  ] as const;

  it.each(carriers)('%s: %s carries %s and is refused', (_range, address, inner) => {
    expect(embeddedIpv4(address)).toBe(inner);
    expect(isPrivateAddress(address)).toBe(true);
  });

  it('refuses the local-use NAT64 range 64:ff9b:1::/48 whole, and lets a public address through NAT64 or mapped', () => {
    expect(isPrivateAddress('64:ff9b:1::7f00:1')).toBe(true);
    expect(isPrivateAddress('64:ff9b:1:808:8:800::')).toBe(true);
    expect(isPrivateAddress('64:ff9b::808:808')).toBe(false);
    expect(isPrivateAddress('::ffff:808:808')).toBe(false);
    expect(embeddedIpv4('2606:4700:4700::1111')).toBeNull();
    expect(embeddedIpv4('not an address')).toBeNull();
  });

  it('refuses at save time every URL whose IPv6 literal carries a private IPv4 address', () => {
    const strict = new WebhookAddressPolicy();
    expect(new URL('http://[::127.0.0.1]:9999/').hostname).toBe('[::7f00:1]');
    for (const url of [
      'http://[::127.0.0.1]:9999/',
      'http://[::7f00:1]:9999/',
      'http://[::ffff:7f00:1]/',
      'http://[::ffff:169.254.169.254]/latest/meta-data/',
      'http://[2002:7f00:1::]/',
      'http://[2002:a00:1::1]/',
      'http://[64:ff9b::7f00:1]/',
      'http://[64:ff9b:1::a00:1]/',
    ])
      expect(strict.acceptsUrl(url), url).toBe(false);
    expect(strict.acceptsUrl('http://[2606:4700:4700::1111]/hook')).toBe(true);
  });

  it('refuses at send time a name whose DNS answer is one of those IPv6 forms', async () => {
    const answersFor = (address: string) =>
      new WebhookAddressPolicy([], () => Promise.resolve([{ address, family: 6 }]));
    for (const address of [
      '::7f00:1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      '2002:c0a8:101::',
      '64:ff9b::a9fe:a9fe',
      '64:ff9b:1::7f00:1',
    ])
      expect(await answersFor(address).resolve('https://hooks.example.com/x'), address).toBeNull();
    // A literal in the URL is refused without a lookup.
    expect(await new WebhookAddressPolicy().resolve('http://[::127.0.0.1]:9999/')).toBeNull();
    expect(await answersFor('2606:4700:4700::1111').resolve('https://hooks.example.com/x')).toEqual({
      address: '2606:4700:4700::1111',
      family: 6,
    });
  });
});
