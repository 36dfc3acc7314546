import { createReportScheduleSchema, REPORT_SCHEDULE_MESSAGES } from '@adpilot/contracts';

const recipientSchema = createReportScheduleSchema.shape.recipients.element;

export type AddedAddresses = { recipients: string[] } | { invalid: string };

/**
 * Adds what was typed (one address, or several split by commas, semicolons or spaces, as pasted from a mail) to the
 * recipients, each checked and lower-cased as the server will; one already there is not added twice. Any invalid
 * address keeps all of them out and answers the contracts' message.
 */
export function addAddresses(recipients: readonly string[], typed: string): AddedAddresses {
  const next = [...recipients];
  for (const piece of typed.split(/[\s,;]+/).filter(Boolean)) {
    const parsed = recipientSchema.safeParse(piece);
    if (!parsed.success) return { invalid: REPORT_SCHEDULE_MESSAGES.recipientInvalid };
    if (!next.includes(parsed.data)) next.push(parsed.data);
  }
  return { recipients: next };
}
