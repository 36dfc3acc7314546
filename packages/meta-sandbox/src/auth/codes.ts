import { randomBytes } from 'node:crypto';
import { invalidParameter, type GraphError } from '../graph/graph-error.ts';

const CODE_LIFETIME_MS = 10 * 60_000;

interface PendingCode {
  personaId: string;
  world: string;
  scopes: string[];
  redirectUri: string;
  expiresAt: number;
  used: boolean;
}

export interface Grant {
  personaId: string;
  /** The sandbox world the user consented in ('' or absent: the default world). */
  world?: string;
  scopes: string[];
}

/** Authorisation codes from the consent screen: random, single use, ten minutes, bound to the redirect URI. */
export class CodeStore {
  private readonly codes = new Map<string, PendingCode>();

  issue(grant: Grant, redirectUri: string, now: number): string {
    for (const [code, pending] of this.codes) {
      if (pending.expiresAt + CODE_LIFETIME_MS < now) this.codes.delete(code);
    }
    const code = `AQ${randomBytes(24).toString('base64url')}`;
    this.codes.set(code, {
      ...grant,
      world: grant.world ?? '',
      redirectUri,
      expiresAt: now + CODE_LIFETIME_MS,
      used: false,
    });
    return code;
  }

  redeem(code: string, redirectUri: string, now: number): Grant | GraphError {
    const pending = this.codes.get(code);
    if (!pending) return invalidParameter('Invalid verification code format.', 36007);
    if (pending.used) return invalidParameter('This authorization code has been used.', 36009);
    if (pending.expiresAt <= now) return invalidParameter('This authorization code has expired.', 36007);
    if (pending.redirectUri !== redirectUri) {
      return invalidParameter(
        'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request',
        36008,
      );
    }
    pending.used = true;
    return { personaId: pending.personaId, world: pending.world, scopes: pending.scopes };
  }

  clear(): void {
    this.codes.clear();
  }
}
