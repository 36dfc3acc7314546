import { createHmac, timingSafeEqual } from 'node:crypto';

export type MailLinkPurpose = 'confirm' | 'unsubscribe';

export interface MailLinkClaim {
  purpose: MailLinkPurpose;
  workspaceId: string;
  email: string;
}

/**
 * The confirm and unsubscribe links of outbound mail (ADR 0092): `v1.<claim>.<mac>`, the claim (purpose, workspace,
 * address) in base64url and an HMAC over it. They carry no expiry: an unsubscribe link keeps working as long as
 * the mail that carried it is read, and neither can do more than say what its own address wants.
 */
export class MailLinks {
  constructor(
    private readonly key: Buffer,
    private readonly publicUrl: string,
  ) {}

  token(claim: MailLinkClaim): string {
    const body = Buffer.from(JSON.stringify([claim.purpose, claim.workspaceId, claim.email])).toString('base64url');
    return `v1.${body}.${this.mac(body)}`;
  }

  read(token: string): MailLinkClaim | null {
    const [version, body, mac] = token.split('.');
    if (version !== 'v1' || !body || !mac) return null;
    const expected = Buffer.from(this.mac(body));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      const [purpose, workspaceId, email] = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as unknown[];
      if ((purpose !== 'confirm' && purpose !== 'unsubscribe') || typeof workspaceId !== 'string') return null;
      if (typeof email !== 'string') return null;
      return { purpose, workspaceId, email };
    } catch {
      return null;
    }
  }

  /** The web page that asks before it acts (mail scanners follow links; a button press is a person). */
  page(claim: MailLinkClaim): string {
    return `${this.publicUrl}/mail/${claim.purpose}?token=${encodeURIComponent(this.token(claim))}`;
  }

  /** The List-Unsubscribe address: a POST of `List-Unsubscribe=One-Click` to it unsubscribes (RFC 8058). */
  oneClick(workspaceId: string, email: string): string {
    const token = this.token({ purpose: 'unsubscribe', workspaceId, email });
    return `${this.publicUrl}/api/mail/unsubscribe?token=${encodeURIComponent(token)}`;
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(`mail-link:${body}`).digest('base64url');
  }
}
