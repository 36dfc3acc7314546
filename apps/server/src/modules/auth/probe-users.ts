import { randomToken } from '../../lib/crypto.ts';

/**
 * The domain of the Test page's throwaway users: `.invalid` is reserved (RFC 2606), so no person receives mail there.
 * A user on it is a probe: it never becomes the instance's administrator and never keeps an owner from becoming it
 * (ADR 0086).
 */
export const PROBE_EMAIL_DOMAIN = 'adpilot.invalid';

/** A fresh probe address, e.g. `diagnostics-signup-k3j…@adpilot.invalid`. */
export const probeEmail = (kind: string) => `diagnostics-${kind}-${randomToken(9).toLowerCase()}@${PROBE_EMAIL_DOMAIN}`;

export const isProbeEmail = (email: string) => email.toLowerCase().endsWith(`@${PROBE_EMAIL_DOMAIN}`);
