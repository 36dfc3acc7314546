import { ACTIVITY_MESSAGES, INVITATION_TTL_DAYS, neutralName, type WorkspaceRole } from '@adpilot/contracts';

export interface InvitationMailInput {
  workspaceName: string;
  /** A personal workspace is named after its owner: the mail says whose it is. */
  personal: boolean;
  inviterName: string;
  role: WorkspaceRole;
  link: string;
}

/**
 * The invitation e-mail, in English then Thai: the invited person has no account, or none we may read a language
 * from, so both readers find their words in the one mail. It names the workspace and the inviter, as the person
 * needs to know who asks before following a link.
 */
export function invitationMail(input: InvitationMailInput): { subject: string; text: string } {
  // Both names were chosen by people and reach an outside inbox: neutralised (no link, length-limited), and the
  // subject starts with the product's name, never theirs (ADR 0092).
  const inviterName = neutralName(input.inviterName);
  const workspaceName = neutralName(input.workspaceName);
  const { link } = input;
  const workspaceEn = input.personal ? `the workspace of “${workspaceName}”` : `the workspace “${workspaceName}”`;
  const workspaceTh = input.personal ? `เวิร์กสเปซของ “${workspaceName}”` : `เวิร์กสเปซ “${workspaceName}”`;
  const roleEn = ACTIVITY_MESSAGES.en.roles[input.role];
  const roleTh = ACTIVITY_MESSAGES.th.roles[input.role];
  return {
    subject: `AdPilot: invitation to join “${workspaceName}” · คำเชิญเข้าร่วม “${workspaceName}”`,
    text:
      `Hello,\n\n“${inviterName}” invited you to join ${workspaceEn} on AdPilot as ${roleEn}. ` +
      `To accept, open this link within ${INVITATION_TTL_DAYS} days and sign in (or sign up) with this e-mail address:\n\n${link}\n\n` +
      `If you were not expecting this invitation, ignore this message.\n\n---\n\n` +
      `สวัสดี\n\n“${inviterName}” เชิญคุณเข้าร่วม${workspaceTh}บน AdPilot ในบทบาท${roleTh} ` +
      `หากต้องการตอบรับ โปรดเปิดลิงก์นี้ภายใน ${INVITATION_TTL_DAYS} วัน แล้วเข้าสู่ระบบ (หรือสมัครสมาชิก) ด้วยอีเมลนี้:\n\n${link}\n\n` +
      `หากคุณไม่ได้คาดว่าจะได้รับคำเชิญนี้ ไม่ต้องทำอะไร\n`,
  };
}
