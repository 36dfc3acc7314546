import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/** A random, URL-safe secret (refresh tokens, reset tokens, OAuth states). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** Tokens are stored as SHA-256 hashes: they are high-entropy, so no slow hash or salt is needed. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Independent keys for independent purposes, all derived from the one application secret. */
export function deriveKey(
  appSecret: string,
  purpose: 'jwt' | 'encryption' | 'rate-limit' | 'proposal-links' | 'login-device' | 'login-code' | 'mail-links',
): Buffer {
  return Buffer.from(hkdfSync('sha256', appSecret, 'adpilot', purpose, 32));
}

const VERSION = 'v1';

/** AES-256-GCM for secrets at rest (Meta tokens, API keys): `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
export class SecretBox {
  constructor(private readonly key: Buffer) {}

  encrypt(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), ciphertext]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  decrypt(sealed: string): string {
    const [version, iv, tag, ciphertext] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || ciphertext === undefined) throw new Error('Malformed sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }
}
