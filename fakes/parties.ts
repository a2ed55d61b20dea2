/** A big address book, written straight into a migrated store (SQLite or PostgreSQL): far faster than saving each party. */
import type { Insertable } from 'kysely';
import { partyKey } from '../src/store/index.js';
import { termsOf } from '../src/store/parties.js';
import type { PartiesTable, PartyTermsTable } from '../src/store/schema.js';
import { type BulkWriter, type StoreTarget, writeRows } from './bulk-insert.js';

const FIRST = ['Maria', 'Juan', 'Jose', 'Ana', 'Pedro', 'Rosa', 'Carlos', 'Liza', 'Mark', 'Grace'];
const LAST = [
  'Santos',
  'Reyes',
  'Cruz',
  'Bautista',
  'Garcia',
  'Mendoza',
  'Ramos',
  'Flores',
  'Aquino',
  'Torres',
];
export const PARTY_CITIES = [
  'Manila',
  'Makati',
  'Pasig',
  'Cebu City',
  'Davao',
  'Quezon City',
  'Taguig',
  'Iloilo',
];

/** Party i: ten first names, ten last names, eight cities, its number in its name, a distinct phone starting 0917. */
export function seededParty(i: number) {
  return {
    id: `party${String(i).padStart(6, '0')}`,
    name: `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]} ${i}`,
    city: PARTY_CITIES[i % PARTY_CITIES.length] as string,
    phone: `0917 ${String(i).padStart(7, '0')}`,
  };
}

/** Parties written a batch at a time, so that a big address book is never all in memory. */
const BATCH = 5000;

/** Adds `count` parties with their search words to the store's open transaction, used one minute apart. */
export async function insertParties(writer: BulkWriter, count: number): Promise<void> {
  const at = Date.UTC(2026, 0, 1);
  for (let from = 0; from < count; from += BATCH) {
    const parties: Insertable<PartiesTable>[] = [];
    const terms: Insertable<PartyTermsTable>[] = [];
    for (let i = from; i < Math.min(count, from + BATCH); i++) {
      const p = seededParty(i);
      const usedAt = at + i * 60_000;
      parties.push({
        ...p,
        key: partyKey(p),
        email: '',
        street: '',
        region: '',
        district: '',
        neighbourhood: '',
        postal: '',
        country: '',
        latitude: null,
        longitude: null,
        name_words: p.name.split(' ').length,
        created_at: usedAt,
        last_used_at: usedAt,
        uses: 1,
      });
      terms.push(...termsOf(p));
    }
    await writer.insert('parties', parties);
    await writer.insert('party_terms', terms);
  }
}

/** Creates (or migrates) the store and adds `count` parties in one transaction. */
export async function seedParties(target: StoreTarget, count: number): Promise<void> {
  await writeRows(target, (writer) => insertParties(writer, count));
}
