import { hasRole, type WorkspaceRole } from '@adpilot/contracts';
import type { SystemTx, Transactions } from '@adpilot/db';
import type { AdsManagerPerson, Sandbox } from '@adpilot/meta-sandbox';
import { readAdsManagerHolder } from './meta-provider.ts';

export interface AdsManagerHolderDeps {
  transactions: Pick<Transactions, 'system'>;
  /** The member's role in the workspace now (the workspaces service; null once they are not a member). */
  memberships: { resolve(userId: string, workspaceId: string): Promise<{ role: WorkspaceRole } | null> };
  /** The person's name, as the activity history names them (the auth service). */
  people: { profilesIn(tx: SystemTx, ids: readonly string[]): Promise<{ id: string; name: string }[]> };
}

/**
 * Answers the sandbox's question at every use of an Ads Manager link: who its holder is, while they are still a
 * member of the workspace the link was signed in with a role that may edit. A removed member, or one made a viewer,
 * is refused at once, whatever is left of the link's day; the change a holder makes is recorded under their AdPilot
 * name, never a name typed on the page.
 */
export function answerAdsManagerHolders(sandbox: Pick<Sandbox, 'adsManager'>, deps: AdsManagerHolderDeps): void {
  sandbox.adsManager.checkHoldersWith(async (text): Promise<AdsManagerPerson | undefined> => {
    const holder = readAdsManagerHolder(text);
    if (!holder) return undefined;
    const membership = await deps.memberships.resolve(holder.userId, holder.workspaceId);
    if (!membership || !hasRole(membership.role, 'editor')) return undefined;
    const [person] = await deps.transactions.system('sandbox ads manager holder', (tx) =>
      deps.people.profilesIn(tx, [holder.userId]),
    );
    return person ? { id: person.id, name: person.name } : undefined;
  });
}
