// The address book: every party booked, one row per name and phone, found by the words of its name, city and phone.
import { createHash, randomBytes } from 'node:crypto';
import { type Selectable, sql } from 'kysely';
import type { Party } from '../waybill/schemas.js';
import type { Context, Scope } from './context.js';
import type { Db, PartiesTable } from './schema.js';
import type { Parties, PartyEditResult, SavedParty, SearchThresholds } from './types.js';

/** Slack shows at most 100 options: no search needs more. */
export const PARTY_SEARCH_LIMIT = 100;
const NAMED_IN_LIMIT = 20;
/** Words read from a query, and from a message for `namedIn`: more only cost time. */
const MAX_QUERY_WORDS = 5;
const MAX_MESSAGE_WORDS = 1000;
const MAX_TERM = 100;
/** Where SQLite's search changes strategy on a big address book (SearchThresholds says how). */
export const PARTY_THRESHOLDS: SearchThresholds['parties'] = { few: 2000, recent: 10_000, many: 10_000 };
/** Above every character: `term < prefix + TOP` holds for every term starting with `prefix` (byte order). */
const TOP = '\u{10FFFF}';

/** Lower case, accents off, split into words of letters and digits. */
export function wordsOf(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map((word) => word.slice(0, MAX_TERM));
}

const digitsOf = (phone: string) => phone.replace(/\D/g, '');

/** One key per party: the name as written, ignoring case and spacing, and the phone's last ten digits. */
export function partyKey({ name, phone }: Pick<Party, 'name' | 'phone'>): string {
  const person = name.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
  return `${person}|${digitsOf(phone).slice(-10)}`;
}

/**
 * A phone is found by its digits as written, by its last ten with or without a leading 0 (`+63 918…`
 * as `0918…`), and by its last seven or four (`555 0202`, "the one ending 0202").
 */
export function phoneTerms(phone: string): string[] {
  const digits = digitsOf(phone);
  if (!digits) return [];
  const national = digits.slice(-10);
  const trunk = national.length === 10 && !national.startsWith('0') ? [`0${national}`] : [];
  return [...new Set([digits, national, ...trunk, digits.slice(-7), digits.slice(-4)])];
}

/** The words a party is found by, as saved with it (exported for seeding big stores fast). */
export function termsOf(row: Pick<Selectable<PartiesTable>, 'id' | 'name' | 'city' | 'phone'>) {
  const rows = [
    ...wordsOf(row.name).map((term) => ({ term, field: 'name' })),
    ...wordsOf(row.city).map((term) => ({ term, field: 'city' })),
    ...phoneTerms(row.phone).map((term) => ({ term, field: 'phone' })),
  ];
  const unique = new Map(rows.map((r) => [`${r.field} ${r.term}`, { ...r, party_id: row.id }]));
  return [...unique.values()];
}

function columns(details: Party) {
  const text = (value: string | undefined) => (value ?? '').trim();
  return {
    name: text(details.name),
    phone: text(details.phone),
    email: text(details.email),
    street: text(details.street),
    region: text(details.region),
    city: text(details.city),
    district: text(details.district),
    // The column keeps its first name (a shipped migration's): the barangay.
    neighbourhood: text(details.barangay),
    postal: text(details.postal),
    country: text(details.country),
    latitude: details.latitude ?? null,
    longitude: details.longitude ?? null,
    name_words: new Set(wordsOf(details.name)).size,
  };
}

/**
 * A saved party's details as one short text: equal while nobody changes them. An edit made on the
 * details read earlier names their revision, so it cannot silently undo a change made since.
 */
export function partyRevision(party: Party): string {
  const { name_words: _words, ...details } = columns(party);
  return createHash('sha256').update(JSON.stringify(details)).digest('base64url').slice(0, 16);
}

function toParty(row: Selectable<PartiesTable>): SavedParty {
  return {
    id: row.id,
    name: row.name,
    phone: row.phone,
    email: row.email,
    street: row.street,
    region: row.region,
    city: row.city,
    district: row.district,
    barangay: row.neighbourhood,
    postal: row.postal,
    country: row.country,
    latitude: row.latitude ?? undefined,
    longitude: row.longitude ?? undefined,
    createdAt: new Date(row.created_at),
    lastUsedAt: new Date(row.last_used_at),
    uses: row.uses,
  };
}

/** The party's search words, replaced by those of its current details. */
async function indexTerms(db: Db, row: Selectable<PartiesTable>): Promise<void> {
  await db.deleteFrom('party_terms').where('party_id', '=', row.id).execute();
  const terms = termsOf(row);
  if (terms.length > 0) await db.insertInto('party_terms').values(terms).execute();
}

/** What a query looks for: phone digits, or words of a name or city. */
function searchOf(query: string): { words: string[]; phoneOnly: boolean } {
  const typed = query.slice(0, 200);
  const compact = typed.replace(/[\s+\-().]/g, '');
  if (/^\d+$/.test(compact)) return { words: [compact], phoneOnly: true };
  // A phone typed among other words is one word: `maria 0918 555` looks for 0918555.
  const joined = typed.replace(/(\d)[\s\-().]+(?=\d)/g, '$1');
  return { words: [...new Set(wordsOf(joined))].slice(0, MAX_QUERY_WORDS), phoneOnly: false };
}

function checkLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`limit must be a whole number ≥ 1, got ${limit}`);
  return Math.min(limit, PARTY_SEARCH_LIMIT);
}

export function parties({ db, atomically, lock, kind }: Scope, context: Context): Parties {
  const get = async (id: string) => {
    const row = await db.selectFrom('parties').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toParty(row);
  };
  return {
    save: (list) =>
      atomically(async (tx) => {
        const byKey = new Map<string, Party>();
        for (const details of list) {
          if (details.name.trim()) byKey.set(partyKey(details), details);
        }
        const at = context.now();
        const saved = new Map<string, SavedParty>();
        // In key order: two transactions saving the same parties lock their rows in the same order.
        for (const key of [...byKey.keys()].sort()) {
          const values = columns(byKey.get(key) as Party);
          // What it is found by now; locked (PostgreSQL) so no other save changes it before ours.
          const before = await tx
            .selectFrom('parties')
            .select(['name', 'city', 'phone'])
            .where('key', '=', key)
            .$if(kind === 'postgres', (q) => q.forUpdate())
            .executeTakeFirst();
          const row = await tx
            .insertInto('parties')
            .values({
              id: randomBytes(16).toString('base64url'),
              key,
              ...values,
              created_at: at,
              last_used_at: at,
              uses: 1,
            })
            .onConflict((conflict) =>
              conflict.column('key').doUpdateSet((eb) => ({
                ...values,
                last_used_at: at,
                uses: eb(eb.ref('parties.uses'), '+', 1),
              })),
            )
            .returningAll()
            .executeTakeFirstOrThrow();
          // A party used again as it was (a file's sender on every row) keeps its words: no rewrite.
          const same =
            before && before.name === row.name && before.city === row.city && before.phone === row.phone;
          if (!same) await indexTerms(tx, row);
          saved.set(key, toParty(row));
        }
        return [...byKey.keys()].map((key) => saved.get(key) as SavedParty);
      }),

    async find(query, limit = PARTY_SEARCH_LIMIT) {
      const { words, phoneOnly } = searchOf(query);
      const termsFrom = (word: string) => {
        let terms = db
          .selectFrom('party_terms')
          .where('party_terms.term', '>=', word)
          .where('party_terms.term', '<', `${word}${TOP}`);
        if (phoneOnly) terms = terms.where('party_terms.field', '=', 'phone');
        return terms;
      };
      const matchingIds = (word: string) => termsFrom(word).select('party_terms.party_id');
      /** The word matching the fewest terms, if fewer than `bound`; else -1. */
      const rareWord = async (bound: number) => {
        let rarest = -1;
        let fewest = bound;
        for (const [i, word] of words.entries()) {
          const first = matchingIds(word).limit(fewest).as('first');
          const { n } = await db
            .selectFrom(first)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow();
          if (Number(n) < fewest) [rarest, fewest] = [i, Number(n)];
        }
        return rarest;
      };
      const wanted = checkLimit(limit);
      const thresholds = context.searchThresholds.parties;
      /** Parties matching every word, most recent first: `rare`'s by its terms, the others' among each party's own. */
      const search = (rare: number) =>
        words
          .reduce(
            (parties, word, i) =>
              kind === 'postgres' || i === rare
                ? parties.where('parties.id', 'in', matchingIds(word))
                : parties.where(({ exists }) =>
                    exists(
                      matchingIds(word).where('party_terms.party_id', '=', sql.ref<string>('parties.id')),
                    ),
                  ),
            db.selectFrom('parties').selectAll(),
          )
          .orderBy('parties.last_used_at', 'desc')
          .orderBy('parties.id')
          .limit(wanted);
      // PostgreSQL's planner weighs each word's range of terms from its statistics, then walks the
      // parties most recent first or collects and sorts, by itself.
      if (kind === 'postgres') return (await search(-1).execute()).map(toParty);
      // SQLite always collects every match and sorts them (100 ms for 50,000), so here the words are
      // counted first (one short index range each). A rare word's parties are fetched and sorted.
      let rare = await rareWord(thresholds.few);
      if (rare < 0 && words.length > 1) {
        // Common words, maybe seldom together: the `recent` most recent parties first. A full page
        // among them is the page; else a word's parties are fetched, up to `many`.
        const recent = await search(-1)
          .where('parties.last_used_at', '>=', (eb) =>
            eb
              .selectFrom('parties')
              .select('parties.last_used_at')
              .orderBy('parties.last_used_at', 'desc')
              .orderBy('parties.id')
              .offset(thresholds.recent - 1)
              .limit(1),
          )
          .execute();
        if (recent.length === wanted) return recent.map(toParty);
        rare = await rareWord(thresholds.many);
      }
      // If every word is common, the parties are walked most recent first until a page is full.
      return (await search(rare).execute()).map(toParty);
    },

    async namedIn(text, limit = NAMED_IN_LIMIT) {
      const words = [...new Set(wordsOf(text))].slice(0, MAX_MESSAGE_WORDS);
      if (words.length === 0) return [];
      const named = db
        .selectFrom('party_terms')
        .select((eb) => ['party_terms.party_id', eb.fn.countAll<number>().as('hits')])
        .where('party_terms.field', '=', 'name')
        .where('party_terms.term', 'in', words)
        .groupBy('party_terms.party_id')
        .as('named');
      const rows = await db
        .selectFrom('parties')
        .innerJoin(named, 'named.party_id', 'parties.id')
        .selectAll('parties')
        .whereRef('named.hits', '>=', 'parties.name_words')
        .orderBy('parties.last_used_at', 'desc')
        .orderBy('parties.id')
        .limit(checkLimit(limit))
        .execute();
      return rows.map(toParty);
    },

    get,

    edit: (id, details, revision) =>
      atomically(async (tx): Promise<PartyEditResult> => {
        if (!details.name.trim()) throw new RangeError('A saved party must have a name');
        const key = partyKey(details);
        // Edits of one party queue here, so each sees the one before it.
        await lock(tx, `party:${id}`);
        const current = await tx.selectFrom('parties').selectAll().where('id', '=', id).executeTakeFirst();
        if (!current) return { ok: false, reason: 'missing' };
        if (revision !== undefined && partyRevision(toParty(current)) !== revision)
          return { ok: false, reason: 'changed', current: toParty(current) };
        const other = await tx
          .selectFrom('parties')
          .selectAll()
          .where('key', '=', key)
          .where('id', '<>', id)
          .executeTakeFirst();
        if (other) return { ok: false, reason: 'duplicate', other: toParty(other) };
        // A booking saving this party meanwhile counts a use: then this edit would undo its details.
        const row = await tx
          .updateTable('parties')
          .set({ key, ...columns(details) })
          .where('id', '=', id)
          .where('uses', '=', current.uses)
          .returningAll()
          .executeTakeFirst();
        if (!row) {
          const now = await tx.selectFrom('parties').selectAll().where('id', '=', id).executeTakeFirst();
          return now
            ? { ok: false, reason: 'changed', current: toParty(now) }
            : { ok: false, reason: 'missing' };
        }
        await indexTerms(tx, row);
        return { ok: true, party: toParty(row) };
      }),

    async delete(id) {
      // Its terms go with it (ON DELETE CASCADE).
      const deleted = await db.deleteFrom('parties').where('id', '=', id).executeTakeFirst();
      return Number(deleted.numDeletedRows) > 0;
    },
  };
}
