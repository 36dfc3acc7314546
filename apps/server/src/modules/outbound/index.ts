// The outbound module's public face: what the rest of the server may import from it (ADR 0171).
export type { Admission, MailLimits, OutboundMail } from './outbound-mail.ts';
export { createOutboundModule } from './outbound.module.ts';
