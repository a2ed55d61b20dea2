/** The edit form of a saved party: its fields, and the domain's party schema around them. */
import * as z from 'zod';
import type { SavedParty } from '../../store/index.js';
import { partyKeys } from '../../waybill/courier-fields.js';
import type { KnownParty } from '../../waybill/message-reader.js';
import type { WaybillSchemas } from '../../waybill/schemas.js';
import type { Core } from '../core.js';
import { partyInputs } from '../kit/fields.js';
import { type FormField, perSettings, requiredPaths, setPath } from '../kit/forms.js';

/**
 * The edit form: a booking party's fields under `party.`, checked by the domain's party schema
 * (wrapped, so its errors land on `party.name`, …).
 */
export const partyFormSpec = perSettings((schema: WaybillSchemas['party']) => {
  const fields: FormField[] = partyInputs('shipper', 'party');
  const wrapped = z.object({ party: schema });
  return { fields, schema: wrapped, required: requiredPaths(wrapped, fields) };
});

export type PartyFormSpec = ReturnType<typeof partyFormSpec>;

/** The address book's party form, of this core's schema. */
export const partySpec = (core: Pick<Core, 'schemas'>) => partyFormSpec(core.schemas.party);

/**
 * A form's input with `party` (`consignee`, `shipper`, `returnTo`) replaced by a saved party's
 * details: all of them, so nothing typed for someone else stays, but only the fields the form has
 * (`paths`, e.g. a quote has no names, and no postal code for the return party).
 */
export function fillParty(
  input: Record<string, unknown>,
  party: string,
  saved: SavedParty,
  paths: ReadonlySet<string>,
): Record<string, unknown> {
  const filled: Record<string, unknown> = {};
  for (const key of partyKeys) {
    if (paths.has(`${party}.${key}`)) setPath(filled, key, saved[key] ?? '');
  }
  return { ...input, [party]: filled };
}

/** A saved party as the edit form's values. */
export function editValues(saved: SavedParty): Record<string, unknown> {
  return { party: Object.fromEntries(partyKeys.map((key) => [key, saved[key] ?? ''])) };
}

/** Saved parties as the message reader takes them: a name, and its text fields. */
export function knownParties(saved: readonly SavedParty[]): KnownParty[] {
  return saved.map((party) => ({
    name: party.name,
    details: Object.fromEntries(
      partyKeys.flatMap((key) => {
        const value = party[key];
        return key !== 'name' && typeof value === 'string' && value ? [[key, value]] : [];
      }),
    ),
  }));
}
