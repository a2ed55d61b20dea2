/**
 * COD remittance: a courier's remittance file reconciled against our bookings and recorded once,
 * and the COD still outstanding. Money in cents (bigint) and decimal strings, never floats.
 *
 * Rules:
 * - A file is known by its content (SHA-256): the same content is reconciled once, whoever sends it
 *   again and on whichever replica (the store records it once; the second is told when it was).
 * - What a booking is owed is its COD amount less the fee in force on the day it was booked, so a
 *   new contract does not rewrite earlier bookings; a returned booking is owed nothing.
 */
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { BookingRecord, RemittanceFileRecord, StatusEntry, Store } from '../store/index.js';
import type { Catalog } from '../waybill/catalog.js';
import { daysBetween } from '../waybill/cod-ageing.js';
import { type CodFeeRule, codFee } from '../waybill/cod-fee.js';
import { type RemittanceColumns, readRemittanceCsv } from '../waybill/csv/read-remittance.js';
import type { OutstandingBooking } from '../waybill/csv/remittance-results.js';
import { zonedDateAndTime } from '../waybill/dates.js';
import { formatCents, isObject } from '../waybill/fields.js';
import {
  centsOf,
  type ExpectedCod,
  PAYING_OUTCOMES,
  type Reconciliation,
  reconcile,
  SETTLING_OUTCOMES,
} from '../waybill/remittance.js';

/** What reading the ledger of COD uses: the store, the clock, where the bot is and the fee rule. */
export interface LedgerDeps {
  store: Store;
  now: () => Date;
  waybill: { timeZone: string; catalog: Pick<Catalog, 'codPaymentMethod'> };
  bot: { remittance: { fee: CodFeeRule; outstandingDays: number } };
}

/** Lines in one file: a month of a busy team's COD. */
export const MAX_REMITTANCE_LINES = 5000;
const DAY_MS = 24 * 60 * 60 * 1000;
const PAGE = 500;

/**
 * What a stored booking is owed in COD (its record is the domain booking as JSON), the fee the
 * courier keeps of it, and whether it was returned (`returned`: the tracking numbers last recorded so).
 */
function expectedOf(
  deps: Pick<LedgerDeps, 'waybill' | 'bot'>,
  stored: BookingRecord,
  returned: ReadonlySet<string>,
): ExpectedCod {
  const booking = isObject(stored.record) ? stored.record : {};
  const codAmount = typeof booking.codAmount === 'string' ? booking.codAmount : '0.00';
  const cod = booking.paymentMethod === deps.waybill.catalog.codPaymentMethod && centsOf(codAmount) > 0n;
  const rule = deps.bot.remittance.fee;
  // The rule in force on the day it was booked, so a new contract does not rewrite earlier bookings.
  const bookedDay = zonedDateAndTime(stored.bookedAt, deps.waybill.timeZone).date;
  return {
    cod,
    codAmount,
    fee: cod ? codFee(rule, codAmount, bookedDay) : '0.00',
    returned: returned.has(stored.trackingNumber),
    returnFee: formatCents(rule.returnFee),
  };
}

/** Which bookings of these latest statuses were returned to sender. */
function returnedIn(latest: ReadonlyMap<string, StatusEntry>): Set<string> {
  return new Set([...latest.values()].filter((s) => s.status === 'returned').map((s) => s.trackingNumber));
}

/** What earlier files paid on each of these bookings, in cents: the lines that pay, as `PAYING_OUTCOMES` says. */
async function paidOn(
  deps: Pick<LedgerDeps, 'store'>,
  trackingNumbers: readonly string[],
): Promise<Map<string, bigint>> {
  const paid = new Map<string, bigint>();
  for (const line of await deps.store.remittances.ofBookings(trackingNumbers)) {
    if (line.amount && (PAYING_OUTCOMES as readonly string[]).includes(line.outcome)) {
      paid.set(line.trackingNumber, (paid.get(line.trackingNumber) ?? 0n) + centsOf(line.amount));
    }
  }
  return paid;
}

/** Every line matched against our bookings and what earlier files paid on them. */
async function reconcileLines(
  deps: Pick<LedgerDeps, 'store' | 'waybill' | 'bot'>,
  lines: Parameters<typeof reconcile>[0],
): Promise<Reconciliation> {
  const numbers = lines.map((l) => l.trackingNumber).filter(Boolean);
  const [bookings, paid, returned] = await Promise.all([
    deps.store.remittances.bookingsNamed(numbers),
    paidOn(deps, numbers),
    deps.store.statuses.latestOf(numbers).then(returnedIn),
  ]);
  const expected = new Map(bookings.map((b) => [b.trackingNumber, expectedOf(deps, b, returned)]));
  return reconcile(
    lines,
    (tn) => expected.get(tn),
    (tn) => paid.get(tn) ?? 0n,
  );
}

/**
 * COD bookings older than the setting (or, `all`, of any age) with money still due (their net less
 * what files paid), read in pages: the store leaves out those a line settled, short payments are
 * taken off here. Each is aged from its delivery (its last status, when that is delivered), else
 * its pickup, else its booking.
 */
export async function outstandingCod(
  deps: LedgerDeps,
  { all = false } = {},
): Promise<{ bookings: OutstandingBooking[]; total: string }> {
  const now = deps.now();
  // `all`: the latest Date there is, so a booking made this very millisecond counts too.
  const bookedBefore = new Date(all ? 8.64e15 : now.getTime() - deps.bot.remittance.outstandingDays * DAY_MS);
  const { timeZone } = deps.waybill;
  const today = zonedDateAndTime(now, timeZone).date;
  const found: OutstandingBooking[] = [];
  let total = 0n;
  let after: string | undefined;
  for (;;) {
    const page: BookingRecord[] = await deps.store.remittances.unremitted({
      bookedBefore,
      paying: SETTLING_OUTCOMES,
      limit: PAGE,
      ...(after === undefined ? {} : { afterTrackingNumber: after }),
    });
    const numbers = page.map((b) => b.trackingNumber);
    const [paid, latest] = await Promise.all([paidOn(deps, numbers), deps.store.statuses.latestOf(numbers)]);
    const returned = returnedIn(latest);
    for (const booking of page) {
      const { cod, codAmount, fee } = expectedOf(deps, booking, returned);
      const due = centsOf(codAmount) - centsOf(fee) - (paid.get(booking.trackingNumber) ?? 0n);
      // A returned booking collected nothing: nothing is outstanding on it.
      if (!cod || returned.has(booking.trackingNumber) || due <= 0n) continue;
      const record = isObject(booking.record) ? booking.record : {};
      const nameOf = (party: unknown) =>
        isObject(party) && typeof party.name === 'string' ? party.name : '';
      const status = latest.get(booking.trackingNumber);
      const since = zonedDateAndTime(
        status?.status === 'delivered' ? status.at : (booking.pickupAt ?? booking.bookedAt),
        timeZone,
      ).date;
      total += due;
      found.push({
        trackingNumber: booking.trackingNumber,
        codAmount,
        outstanding: formatCents(due),
        sender: nameOf(record.shipper),
        receiver: nameOf(record.consignee),
        bookedDate: zonedDateAndTime(booking.bookedAt, timeZone).date,
        since,
        // A status stamped by another clock may be a little ahead of this one: never a negative age.
        days: Math.max(0, daysBetween(since, today)),
      });
    }
    if (page.length < PAGE) break;
    after = page.at(-1)?.trackingNumber;
  }
  return { bookings: found, total: formatCents(total) };
}

/** A remittance file as chosen, and who sent it where. */
export interface RemittanceFile {
  name: string;
  bytes: Uint8Array;
  userId: string;
  channelId: string;
}

/** What came of reconciling a file, tagged. */
export type Reconciled =
  /** The file could not be read (its first problem): nothing recorded. */
  | { state: 'not read'; message: string }
  /** The same content was reconciled before (maybe a moment ago, on another replica): nothing changed. */
  | { state: 'reconciled before'; earlier: RemittanceFileRecord }
  /** Recorded now, once. */
  | { state: 'reconciled'; result: Reconciliation; paid: string[] };

/**
 * Reads the file, matches every line against our bookings and what earlier files paid on them,
 * and records it once. `paid`: the bookings a line of it paid, whose cards show what was remitted.
 */
export async function reconcileRemittance(
  deps: LedgerDeps & {
    logger: Logger;
    waybill: { currency: string };
    bot: { remittance: { columns: RemittanceColumns }; bulk: { maxBytes: number } };
  },
  file: RemittanceFile,
): Promise<Reconciled> {
  const read = readRemittanceCsv(file.bytes, {
    columns: deps.bot.remittance.columns,
    maxLines: MAX_REMITTANCE_LINES,
    maxBytes: deps.bot.bulk.maxBytes,
    currency: deps.waybill.currency,
  });
  const fileProblem = read.problems[0];
  if (fileProblem) return { state: 'not read', message: fileProblem.message };
  const fileHash = createHash('sha256').update(file.bytes).digest('hex');
  const earlier = await deps.store.remittances.get(fileHash);
  if (earlier) return { state: 'reconciled before', earlier };
  const result = await reconcileLines(deps, read.lines);
  const recorded = await deps.store.remittances.record(
    {
      fileHash,
      fileName: file.name,
      userId: file.userId,
      channelId: file.channelId,
      lineCount: read.lines.length,
    },
    result.lines.map((l) => ({
      line: l.line,
      trackingNumber: l.trackingNumber,
      outcome: l.outcome,
      ...(l.amount === undefined ? {} : { amount: l.amount }),
      ...(l.difference === undefined ? {} : { difference: l.difference }),
      ...(l.remittedAt ? { remittedAt: l.remittedAt } : {}),
    })),
  );
  // Another replica (a double click) recorded the same content a moment ago.
  if (!recorded.first) return { state: 'reconciled before', earlier: recorded.record };
  deps.logger.info(
    { fileHash, lines: read.lines.length, counts: result.totals.counts },
    'remittance file reconciled',
  );
  const paid = [
    ...new Set(result.lines.filter((l) => PAYING_OUTCOMES.includes(l.outcome)).map((l) => l.trackingNumber)),
  ];
  return { state: 'reconciled', result, paid };
}
