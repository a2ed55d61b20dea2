/** What the weekly report says, read from the store: the 7 days before its day, by outcome, returns and COD. */
import type { AuditEntry, BookingRecord, Store, TimeRange } from '../../store/index.js';
import { type AgeTotals, ageCod } from '../../waybill/cod-ageing.js';
import { codFee } from '../../waybill/cod-fee.js';
import { instantFromZonedDateTime, zonedDateAfter, zonedDateAndTime } from '../../waybill/dates.js';
import { fieldOf, formatCents, parseCents, stringOf } from '../../waybill/fields.js';
import { remittedTotal } from '../../waybill/remittance.js';
import type { Core } from '../core.js';
import { codLedger } from '../remittance/index.js';

/** More than any week has: the report reads a bounded week, never a whole table. */
const WEEK_LIMIT = 50_000;
export const TOP_SHOWN = 5;
const LOOKUP_CHUNK = 500;
/** Audit entries read at a time. */
const AUDIT_PAGE = 1000;

/** A booking's outcome as the report counts it: its latest status. */
export const OUTCOMES = ['delivered', 'failed_attempt', 'returned', 'other'] as const;
export type Outcome = (typeof OUTCOMES)[number];

export interface ReportDay {
  /** YYYY-MM-DD in WAYBILL_TIMEZONE. */
  date: string;
  /** Bookings made that day, by their outcome now, in OUTCOMES order. */
  byOutcome: number[];
}

export interface ReportData {
  /** The first and last day reported, YYYY-MM-DD. */
  from: string;
  to: string;
  days: ReportDay[];
  bookings: number;
  parcels: number;
  /** Bookings by outcome, in OUTCOMES order. */
  outcomes: number[];
  /** Most returns first, at most TOP_SHOWN each. */
  returnsBySender: { name: string; returns: number }[];
  returnsByCity: { name: string; returns: number }[];
  /** Cash on delivery booked in the week, in cents; and of that, the bookings delivered (collected by the courier). */
  codBookedCents: bigint;
  codCollectedCents: bigint;
  /** What the courier paid so far for the week's COD bookings (every paying remittance line), and its fees on them (the return fee on those returned), in cents. */
  codRemittedCents: bigint;
  codFeeCents: bigint;
  /** Every COD booking with money still due, of any age, by days since delivery. */
  codOutstanding: AgeTotals;
  /** The courier's prices given in the week (`/quote` and the quote step), and their total charges in cents. */
  quotes: number;
  quotedCents: bigint;
}

/** The quotes the courier priced in `range`, as the audit trail holds them, read a page at a time. */
async function quotedIn(
  deps: { store: Pick<Store, 'audit'> },
  range: TimeRange,
): Promise<{ quotes: number; quotedCents: bigint }> {
  let quotes = 0;
  let quotedCents = 0n;
  let after: AuditEntry | undefined;
  for (;;) {
    const page = await deps.store.audit.between({
      ...range,
      operations: ['quote'],
      limit: AUDIT_PAGE,
      ...(after ? { after } : {}),
    });
    for (const entry of page) {
      const cents =
        entry.outcome === 'ok' ? parseCents(stringOf(fieldOf(entry.response, 'totalCharge'))) : undefined;
      if (cents === undefined) continue;
      quotes += 1;
      quotedCents += cents;
    }
    if (page.length < AUDIT_PAGE) return { quotes, quotedCents };
    after = page.at(-1);
  }
}

const top = (counts: Map<string, number>) =>
  [...counts]
    .map(([name, returns]) => ({ name, returns }))
    .sort((a, b) => b.returns - a.returns || a.name.localeCompare(b.name))
    .slice(0, TOP_SHOWN);

/** The report of the 7 days `from`..`to` (YYYY-MM-DD, inclusive), as the store holds them now. */
export async function reportData(
  deps: Pick<Core, 'waybill' | 'bot' | 'now'> & {
    store: Pick<Store, 'audit' | 'bookings' | 'remittances' | 'statuses'>;
  },
  from: string,
  to: string,
): Promise<ReportData> {
  const { timeZone, catalog } = deps.waybill;
  const start = instantFromZonedDateTime(from, '00:00', timeZone);
  const end = instantFromZonedDateTime(
    zonedDateAfter(instantFromZonedDateTime(to, '12:00', timeZone), 1, timeZone),
    '00:00',
    timeZone,
  );
  const [booked, statuses, owed, quoted] = await Promise.all([
    deps.store.bookings.listBooked({ from: start, to: end, limit: WEEK_LIMIT }),
    // Statuses recorded up to now: a booking of the week delivered since still counts as delivered.
    deps.store.statuses.between({ from: start, to: new Date(Math.max(end.getTime(), deps.now().getTime())) }),
    codLedger(deps),
    quotedIn(deps, { from: start, to: end }),
  ]);
  const latest = new Map<string, string>();
  for (const entry of statuses) latest.set(entry.trackingNumber, entry.status);
  const outcomeOf = (booking: BookingRecord): Outcome => {
    const status = latest.get(booking.trackingNumber);
    return OUTCOMES.find((outcome) => outcome === status) ?? 'other';
  };
  const days = new Map<string, ReportDay>();
  for (
    let date = from;
    date <= to;
    date = zonedDateAfter(instantFromZonedDateTime(date, '12:00', timeZone), 1, timeZone)
  ) {
    days.set(date, { date, byOutcome: OUTCOMES.map(() => 0) });
  }
  const outcomes = OUTCOMES.map(() => 0);
  const bySender = new Map<string, number>();
  const byCity = new Map<string, number>();
  let parcels = 0;
  let codBookedCents = 0n;
  let codCollectedCents = 0n;
  let codFeeCents = 0n;
  const codBookings: string[] = [];
  const rule = deps.bot.remittance.fee;
  for (const booking of booked) {
    const record = booking.record;
    const outcome = OUTCOMES.indexOf(outcomeOf(booking));
    outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    const day = days.get(zonedDateAndTime(booking.bookedAt, timeZone).date);
    if (day) day.byOutcome[outcome] = (day.byOutcome[outcome] ?? 0) + 1;
    parcels += Number(fieldOf(record, 'quantity')) || 0;
    if (fieldOf(record, 'paymentMethod') === catalog.codPaymentMethod) {
      const cod = parseCents(stringOf(fieldOf(record, 'codAmount'))) ?? 0n;
      codBookedCents += cod;
      if (OUTCOMES[outcome] === 'delivered') codCollectedCents += cod;
      codBookings.push(booking.trackingNumber);
      // The rule in force on the booking's day, as the reconciliation judges it.
      const bookedDay = zonedDateAndTime(booking.bookedAt, timeZone).date;
      codFeeCents +=
        OUTCOMES[outcome] === 'returned'
          ? rule.returnFee
          : (parseCents(codFee(rule, formatCents(cod), bookedDay)) ?? 0n);
    }
    if (OUTCOMES[outcome] === 'returned') {
      const sender = stringOf(fieldOf(fieldOf(record, 'shipper'), 'name')) || '(no sender)';
      const city = stringOf(fieldOf(fieldOf(record, 'consignee'), 'city')) || '(no city)';
      bySender.set(sender, (bySender.get(sender) ?? 0) + 1);
      byCity.set(city, (byCity.get(city) ?? 0) + 1);
    }
  }
  let codRemittedCents = 0n;
  // A bounded list of tracking numbers per query, whatever the week.
  for (let at = 0; at < codBookings.length; at += LOOKUP_CHUNK) {
    const lines = await deps.store.remittances.ofBookings(codBookings.slice(at, at + LOOKUP_CHUNK));
    codRemittedCents += parseCents(remittedTotal(lines)) ?? 0n;
  }
  return {
    from,
    to,
    days: [...days.values()],
    bookings: booked.length,
    parcels,
    outcomes,
    returnsBySender: top(bySender),
    returnsByCity: top(byCity),
    codBookedCents,
    codCollectedCents,
    codRemittedCents,
    codFeeCents,
    codOutstanding: ageCod(owed.owed),
    ...quoted,
  };
}
