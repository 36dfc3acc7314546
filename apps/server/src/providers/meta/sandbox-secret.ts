import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomToken } from '../../lib/crypto.ts';

/**
 * The embedded sandbox's app secret signs its tokens. It is generated on first start and kept in DATA_DIR with
 * owner-only permissions: never a value known in advance (anyone could mint tokens), and the same after a restart
 * (stored tokens keep working). Processes sharing DATA_DIR share it.
 */
export function resolveSandboxSecret(dataDir: string): string {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'sandbox-secret');
  if (existsSync(file)) {
    chmodSync(file, 0o600);
    const kept = readFileSync(file, 'utf8').trim();
    if (kept) return kept;
  }
  const secret = randomToken(48);
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
