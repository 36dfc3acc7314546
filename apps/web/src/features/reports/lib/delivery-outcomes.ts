import { RECIPIENT_OUTCOMES, type RecipientOutcome, type ReportDelivery } from '@adpilot/contracts';

/** What became of an address: the server's outcome, or `failed` for one a failed delivery did not reach. */
export type DeliveryOutcome = RecipientOutcome | 'failed';

/** The order the lines are shown in: what went out first, then what did not and why. */
const ORDER: readonly DeliveryOutcome[] = [...RECIPIENT_OUTCOMES, 'failed'];

/**
 * A delivery's recipients grouped by what became of each (ADR 0092), in a fixed order, empty groups left out. An
 * address the server names no outcome for was sent the report when the delivery went out (rows older than the
 * outcomes), and was not reached when it failed.
 */
export function deliveryOutcomes(delivery: ReportDelivery): { outcome: DeliveryOutcome; addresses: string[] }[] {
  const groups = new Map<DeliveryOutcome, string[]>();
  for (const address of delivery.recipients) {
    const outcome: DeliveryOutcome = delivery.outcomes[address] ?? (delivery.status === 'sent' ? 'sent' : 'failed');
    groups.set(outcome, [...(groups.get(outcome) ?? []), address]);
  }
  return ORDER.flatMap((outcome) => {
    const addresses = groups.get(outcome);
    return addresses ? [{ outcome, addresses }] : [];
  });
}

/** Whether anything went out: the report itself, or the first mail asking an address to confirm. */
export function reachedAnyone(groups: ReturnType<typeof deliveryOutcomes>): boolean {
  return groups.some((group) => group.outcome === 'sent' || group.outcome === 'confirmation_sent');
}
