/** What one day's digest says, read from the store: bookings, refusals, unknown outcomes, statuses, tomorrow's pickups. */
import type { Attempt, AuditEntry, BookingRecord, StatusEntry, Store } from '../../store/index.js';
import { instantFromZonedDateTime, zonedDateAfter, zonedDateAndTime } from '../../waybill/dates.js';
import { fieldOf, parseCents, stringOf } from '../../waybill/fields.js';
import { attentionCounts, attentionNow } from '../attention/index.js';
import type { Core } from '../core.js';
import { type CodSummary, codLedger, summariseCod } from '../remittance/index.js';

/** More than any day has: a digest reads a whole day, never an unbounded table. */
const DAY_LIMIT = 10_000;

export interface SenderLine {
  sender: string;
  bookings: number;
  parcels: number;
  /** Cash on delivery to collect, in cents: added exactly, never as floats. */
  codCents: bigint;
}

export interface DigestData {
  /** YYYY-MM-DD in WAYBILL_TIMEZONE. */
  day: string;
  bookings: BookingRecord[];
  parcels: number;
  codCents: bigint;
  bySender: SenderLine[];
  refused: AuditEntry[];
  /** Bookings, then updates, whose outcome is still unknown (of any day: each stays until resolved). */
  unknown: Attempt[];
  statuses: StatusEntry[];
  tomorrowPickups: BookingRecord[];
  /** The COD ledger's figures: owed, overdue, in the pipeline. */
  cod: CodSummary;
  /** What needs attention now, each rule counted. */
  attention: { items: number; counts: string };
  /** The day's bookings whose receiver the risk rule flagged. */
  flaggedReceivers: number;
}

/** The day `date` (YYYY-MM-DD) in the time zone, as [start, start of the next day). */
function dayRange(date: string, timeZone: string): { from: Date; to: Date } {
  const from = instantFromZonedDateTime(date, '00:00', timeZone);
  const to = instantFromZonedDateTime(zonedDateAfter(from, 1, timeZone), '00:00', timeZone);
  return { from, to };
}

/** Today's date in WAYBILL_TIMEZONE, and the time of day. */
export function localNow(deps: Pick<Core, 'now' | 'waybill'>): { date: string; time: string } {
  return zonedDateAndTime(deps.now(), deps.waybill.timeZone);
}

/** The digest of `day`, as the store holds it now. */
export async function digestData(
  deps: Pick<Core, 'waybill' | 'bot' | 'now'> & {
    store: Pick<
      Store,
      'attempts' | 'attention' | 'audit' | 'bookings' | 'receivers' | 'remittances' | 'statuses'
    >;
  },
  day: string,
): Promise<DigestData> {
  const { timeZone, catalog } = deps.waybill;
  const today = dayRange(day, timeZone);
  const tomorrow = dayRange(zonedDateAfter(today.from, 1, timeZone), timeZone);
  const [
    bookings,
    booksAudited,
    unknownBookings,
    unknownUpdates,
    statuses,
    tomorrowPickups,
    ledger,
    attention,
  ] = await Promise.all([
    deps.store.bookings.listBooked({ ...today, limit: DAY_LIMIT }),
    deps.store.audit.between({ ...today, operations: ['book'], limit: DAY_LIMIT }),
    deps.store.attempts.listUnknown('book', DAY_LIMIT),
    deps.store.attempts.listUnknown('update', DAY_LIMIT),
    deps.store.statuses.between(today),
    deps.store.bookings.listByPickup({ ...tomorrow, limit: DAY_LIMIT }),
    codLedger(deps),
    attentionNow(deps),
  ]);
  const flaggedReceivers = await deps.store.receivers.countFlagged(today);
  const senders = new Map<string, SenderLine>();
  let parcels = 0;
  let codCents = 0n;
  for (const booking of [...bookings].reverse()) {
    const record = booking.record;
    const sender = stringOf(fieldOf(fieldOf(record, 'shipper'), 'name')) || '(no sender)';
    const quantity = Number(fieldOf(record, 'quantity')) || 0;
    const cod =
      fieldOf(record, 'paymentMethod') === catalog.codPaymentMethod
        ? (parseCents(stringOf(fieldOf(record, 'codAmount'))) ?? 0n)
        : 0n;
    const line = senders.get(sender) ?? { sender, bookings: 0, parcels: 0, codCents: 0n };
    line.bookings += 1;
    line.parcels += quantity;
    line.codCents += cod;
    senders.set(sender, line);
    parcels += quantity;
    codCents += cod;
  }
  return {
    day,
    bookings,
    parcels,
    codCents,
    bySender: [...senders.values()].sort(
      (a, b) => b.bookings - a.bookings || a.sender.localeCompare(b.sender),
    ),
    refused: booksAudited.filter((entry) => entry.outcome === 'failed'),
    unknown: [...unknownBookings, ...unknownUpdates],
    statuses,
    tomorrowPickups,
    cod: summariseCod(ledger),
    attention: { items: attention.length, counts: attentionCounts(attention) },
    flaggedReceivers,
  };
}
