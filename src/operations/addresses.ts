/** The address book's saved parties edited or deleted by a dispatcher, each change audited. */

import type { PartyEditResult, Store } from '../store/index.js';
import type { Party } from '../waybill/schemas.js';

type Deps = { store: Pick<Store, 'parties' | 'audit'> };

/**
 * Saves `userId`'s edit of a party, only if it is still as they read it (`revision`, see
 * Parties.edit); audited when saved.
 */
export async function editParty(
  deps: Deps,
  input: { userId: string; partyId: string; party: Party; revision?: string },
): Promise<PartyEditResult> {
  const edited = await deps.store.parties.edit(input.partyId, input.party, input.revision);
  if (edited.ok) await audit(deps, input.userId, 'edited', edited.party.id);
  return edited;
}

/** Deletes a saved party for `userId`; false when it was gone already (then nothing is audited). */
export async function deleteParty(deps: Deps, input: { userId: string; partyId: string }): Promise<boolean> {
  const deleted = await deps.store.parties.delete(input.partyId);
  if (deleted) await audit(deps, input.userId, 'deleted', input.partyId);
  return deleted;
}

function audit(deps: Deps, userId: string, outcome: 'edited' | 'deleted', partyId: string) {
  return deps.store.audit.record({
    userId,
    operation: 'addresses',
    outcome,
    detail: `saved party ${partyId}`,
  });
}
