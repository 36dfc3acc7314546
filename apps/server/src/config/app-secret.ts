import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomToken } from '../lib/crypto.ts';

/**
 * The application secret signs access tokens and encrypts secrets at rest. When it is not configured, one is
 * generated on first start and kept in DATA_DIR with owner-only permissions, so restarts keep sessions and
 * stored tokens readable. Several processes must share it (set APP_SECRET, or share DATA_DIR).
 */
export function resolveAppSecret(
  configured: string | undefined,
  dataDir: string,
): { secret: string; generated: boolean } {
  if (configured) return { secret: configured, generated: false };
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'app-secret');
  if (existsSync(file)) {
    chmodSync(file, 0o600);
    return { secret: readFileSync(file, 'utf8').trim(), generated: false };
  }
  const secret = randomToken(48);
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  return { secret, generated: true };
}
