import { neutralName } from '@adpilot/contracts';

/**
 * The words outbound mail adds (ADR 0092), English then Thai: the person may have no account to read a language
 * from. Every name in them is a chosen one, so it goes through `neutralName` and never starts a subject.
 */

/** The lines every outbound mail ends with: why it came, and the way out. */
export function unsubscribeFooter(workspaceName: string, unsubscribe: string): string {
  const name = neutralName(workspaceName);
  return (
    `--\nYou receive this because the workspace “${name}” on AdPilot mails this address. ` +
    `To receive no more mail from it, open: ${unsubscribe}\n` +
    `คุณได้รับอีเมลนี้เพราะเวิร์กสเปซ “${name}” บน AdPilot ส่งมายังอีเมลนี้ ` +
    `หากไม่ต้องการรับอีเมลจากเวิร์กสเปซนี้อีก โปรดเปิด: ${unsubscribe}\n`
  );
}

/** The line an invitation adds when it is the workspace's first mail to the address. */
export function confirmLine(workspaceName: string, confirm: string): string {
  const name = neutralName(workspaceName);
  return (
    `AdPilot sends this address nothing more from “${name}” until you accept or confirm that you want its mail: ${confirm}\n` +
    `AdPilot จะไม่ส่งอีเมลจาก “${name}” มายังอีเมลนี้อีกจนกว่าคุณจะตอบรับคำเชิญหรือยืนยันว่าต้องการรับอีเมล: ${confirm}\n`
  );
}

/** The first mail a report's outside recipient receives instead of the report: it asks to confirm. */
export function reportConfirmationMail(
  workspaceName: string,
  links: { confirm: string; unsubscribe: string },
): { subject: string; text: string } {
  const name = neutralName(workspaceName);
  return {
    subject: `AdPilot: confirm the ad reports of “${name}” · ยืนยันการรับรายงานโฆษณาจาก “${name}”`,
    text:
      `Hello,\n\nThe workspace “${name}” on AdPilot would like to mail its ad reports to this address. ` +
      `AdPilot sends you nothing more from this workspace until you confirm.\n\n` +
      `To receive them, confirm here:\n${links.confirm}\n\n` +
      `If you do not know this workspace, ignore this message.\n\n---\n\n` +
      `สวัสดี\n\nเวิร์กสเปซ “${name}” บน AdPilot ต้องการส่งรายงานโฆษณามายังอีเมลนี้ ` +
      `AdPilot จะไม่ส่งอีเมลใดจากเวิร์กสเปซนี้มาอีกจนกว่าคุณจะยืนยัน\n\n` +
      `หากต้องการรับรายงาน โปรดยืนยันที่:\n${links.confirm}\n\n` +
      `หากคุณไม่รู้จักเวิร์กสเปซนี้ ไม่ต้องทำอะไร\n`,
  };
}
