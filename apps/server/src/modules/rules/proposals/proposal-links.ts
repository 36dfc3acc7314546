import { createHmac, timingSafeEqual } from 'node:crypto';
import { UUID_PATTERN, type ProposalDecision } from '@adpilot/contracts';

/** What a decision link names: the proposal, the decision, the member it was sent to, and its end (epoch ms). */
export interface LinkClaims {
  proposalId: string;
  decision: ProposalDecision;
  userId: string;
  workspaceId: string;
  expiresAt: number;
}

/**
 * The approve and reject links of a proposal (ADR 0073): `<claims>.<signature>`, both base64url, the signature an
 * HMAC-SHA256 with a key of their own derived from the application secret. Nothing is stored: a link works until the
 * proposal's expiry, for the member it was sent to while they may still decide, and once — the proposal itself can
 * be decided only once, so a second use is refused as closed.
 */
export class ProposalLinks {
  constructor(
    private readonly key: Buffer,
    private readonly publicUrl: string,
    private readonly now: () => Date,
  ) {}

  sign(claims: LinkClaims): string {
    const body = Buffer.from(
      JSON.stringify([claims.proposalId, claims.decision, claims.userId, claims.workspaceId, claims.expiresAt]),
    ).toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  /** The page a link opens: it shows the proposal and asks before deciding (nothing changes on opening it). */
  url(claims: LinkClaims): string {
    return `${this.publicUrl}/proposals/decide?token=${this.sign(claims)}`;
  }

  /** The claims of a link this instance signed and that has not expired; undefined for anything else. */
  verify(token: string): LinkClaims | undefined {
    const [body, mac, ...rest] = token.split('.');
    if (!body || !mac || rest.length > 0) return undefined;
    const expected = Buffer.from(this.mac(body));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      return undefined;
    }
    if (!Array.isArray(parsed) || parsed.length !== 5) return undefined;
    const [proposalId, decision, userId, workspaceId, expiresAt] = parsed as unknown[];
    if (typeof proposalId !== 'string' || !UUID_PATTERN.test(proposalId)) return undefined;
    if (decision !== 'approve' && decision !== 'reject') return undefined;
    if (typeof userId !== 'string' || !UUID_PATTERN.test(userId)) return undefined;
    if (typeof workspaceId !== 'string' || !UUID_PATTERN.test(workspaceId)) return undefined;
    if (typeof expiresAt !== 'number' || expiresAt <= this.now().getTime()) return undefined;
    return { proposalId, decision, userId, workspaceId, expiresAt };
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}
