/**
 * COD remittance: a courier's remittance file reconciled against our bookings and recorded once,
 * and the COD ledger: what the courier owes, what is overdue, what is still in the pipeline. Money in cents (bigint) and decimal strings, never floats.
 *
 * Rules:
 * - A file is known by its content (SHA-256): the same content is reconciled once, whoever sends it
 *   again and on whichever replica (the store records it once; the second is told when it was).
 * - What a booking is owed is its COD amount less the fee in force on the day it was booked, so a
 *   new contract does not rewrite earlier bookings; a returned booking is owed nothing.
 * - The courier owes COD once it delivered (or a file paid on it); before that it is in the pipeline.
 */
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import * as z from 'zod';
import { envSettings, optionalSetting, wholeNumber } from '../settings/env.js';
import type { BookingRecord, RemittanceFileRecord, Store } from '../store/index.js';
import type { Catalog } from '../waybill/catalog.js';
import { ageCod, type CodAgeing, daysBetween } from '../waybill/cod-ageing.js';
import { type CodFeeRule, codFee, parsePercent } from '../waybill/cod-fee.js';
import type { RemittanceColumns } from '../waybill/csv/read-remittance.js';
import type { OutstandingBooking } from '../waybill/csv/remittance-results.js';
import { zonedDateAndTime } from '../waybill/dates.js';
import { formatCents, isObject, MAX_MONEY_CENTS, type Money, parseCents } from '../waybill/fields.js';
import {
  centsOf,
  type ExpectedCod,
  netCents,
  PAYING_OUTCOMES,
  type Reconciliation,
  reconcile,
  SETTLING_OUTCOMES,
} from '../waybill/remittance.js';

/** What reading the ledger of COD uses: the store, the clock, where the bot is and the fee rule. */
export interface LedgerDeps {
  store: Pick<Store, 'remittances' | 'statuses'>;
  now: () => Date;
  waybill: { timeZone: string; catalog: Pick<Catalog, 'codPaymentMethod'> };
  bot: { remittance: { fee: CodFeeRule; outstandingDays: number } };
}

/** Lines in one file: a month of a busy team's COD. */
export const MAX_REMITTANCE_LINES = 5000;
const PAGE = 500;

/**
 * What a stored booking is owed in COD (its record is the domain booking as JSON), the fee the
 * courier keeps of it, and whether it was returned: the one computation every surface uses.
 */
export function expectedCod(
  deps: Pick<LedgerDeps, 'waybill' | 'bot'>,
  stored: BookingRecord,
  returned: boolean,
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
    returned,
    returnFee: formatCents(rule.returnFee),
  };
}

/** What earlier files paid on a booking, in cents, and the first day a file paid on it. */
interface Paid {
  cents: bigint;
  firstDay: string;
}

/** What earlier files paid on each of these bookings: the lines that pay, as `PAYING_OUTCOMES` says. */
async function paidOn(
  deps: Pick<LedgerDeps, 'store' | 'waybill'>,
  trackingNumbers: readonly string[],
): Promise<Map<string, Paid>> {
  const paid = new Map<string, Paid>();
  for (const line of await deps.store.remittances.ofBookings(trackingNumbers)) {
    if (line.amount && (PAYING_OUTCOMES as readonly string[]).includes(line.outcome)) {
      const day = zonedDateAndTime(line.recordedAt, deps.waybill.timeZone).date;
      const before = paid.get(line.trackingNumber);
      paid.set(line.trackingNumber, {
        cents: (before?.cents ?? 0n) + centsOf(line.amount),
        firstDay: before && before.firstDay < day ? before.firstDay : day,
      });
    }
  }
  return paid;
}

/** What the courier is to remit on each of these bookings of ours, with the status we last recorded. */
export async function expectedOn(
  deps: Pick<LedgerDeps, 'store' | 'waybill' | 'bot'>,
  trackingNumbers: readonly string[],
): Promise<Map<string, ExpectedCod>> {
  const [bookings, latest] = await Promise.all([
    deps.store.remittances.bookingsNamed(trackingNumbers),
    deps.store.statuses.latestOf(trackingNumbers),
  ]);
  return new Map(
    bookings.map((b) => {
      const status = latest.get(b.trackingNumber)?.status;
      return [
        b.trackingNumber,
        { ...expectedCod(deps, b, status === 'returned'), ...(status ? { recorded: status } : {}) },
      ];
    }),
  );
}

/** Every line matched against our bookings, what earlier files paid on them and the statuses we recorded. */
async function reconcileLines(
  deps: Pick<LedgerDeps, 'store' | 'waybill' | 'bot'>,
  lines: Parameters<typeof reconcile>[0],
): Promise<Reconciliation> {
  const numbers = lines.map((l) => l.trackingNumber).filter(Boolean);
  const [expected, paid] = await Promise.all([expectedOn(deps, numbers), paidOn(deps, numbers)]);
  return reconcile(
    lines,
    (tn) => expected.get(tn),
    (tn) => paid.get(tn)?.cents ?? 0n,
  );
}

/**
 * The COD ledger, one figure per meaning:
 * - `owed`: delivered (its last status) or paid in part by a file, and not remitted in full: what
 *   the courier holds now, aged from its delivery (else from the first file that paid on it);
 * - `overdue`: of those, the ones older than REMITTANCE_OUTSTANDING_DAYS;
 * - `pipeline`: not yet delivered, returned or cancelled: what it will owe once it delivers.
 * Each is the net (COD less the fee) less what files paid. Read in pages; the store leaves out
 * those a line settled.
 */
export interface CodLedger {
  owed: OutstandingBooking[];
  owedTotal: Money;
  overdue: OutstandingBooking[];
  overdueTotal: Money;
  /** The age past which owed COD is overdue. */
  overdueDays: number;
  pipeline: { count: number; total: Money };
}

/** Nothing left to collect on these: the parcel came back or never went. */
const CLOSED_STATUSES: readonly string[] = ['returned', 'cancelled'];

export async function codLedger(deps: LedgerDeps): Promise<CodLedger> {
  const { timeZone } = deps.waybill;
  const today = zonedDateAndTime(deps.now(), timeZone).date;
  const overdueDays = deps.bot.remittance.outstandingDays;
  const owed: OutstandingBooking[] = [];
  let owedCents = 0n;
  let overdueCents = 0n;
  const pipeline = { count: 0, cents: 0n };
  let after: string | undefined;
  for (;;) {
    const page: BookingRecord[] = await deps.store.remittances.unremitted({
      // The latest Date there is: every booking, one made this very millisecond too.
      bookedBefore: new Date(8.64e15),
      paying: SETTLING_OUTCOMES,
      limit: PAGE,
      ...(after === undefined ? {} : { afterTrackingNumber: after }),
    });
    const numbers = page.map((b) => b.trackingNumber);
    const [paid, latest] = await Promise.all([paidOn(deps, numbers), deps.store.statuses.latestOf(numbers)]);
    for (const booking of page) {
      const status = latest.get(booking.trackingNumber);
      const expected = expectedCod(deps, booking, status?.status === 'returned');
      const earlier = paid.get(booking.trackingNumber);
      const due = netCents(expected) - (earlier?.cents ?? 0n);
      if (!expected.cod || CLOSED_STATUSES.includes(status?.status ?? '') || due <= 0n) continue;
      const delivered = status?.status === 'delivered';
      if (!delivered && !earlier) {
        pipeline.count += 1;
        pipeline.cents += due;
        continue;
      }
      const deliveredDay = delivered ? zonedDateAndTime(status.at, timeZone).date : undefined;
      // A status stamped by another clock may be a little ahead of this one: never a day after today.
      const since = [deliveredDay ?? earlier?.firstDay ?? today, today].sort()[0] ?? today;
      const days = daysBetween(since, today);
      const record = isObject(booking.record) ? booking.record : {};
      const nameOf = (party: unknown) =>
        isObject(party) && typeof party.name === 'string' ? party.name : '';
      owedCents += due;
      if (days > overdueDays) overdueCents += due;
      owed.push({
        trackingNumber: booking.trackingNumber,
        codAmount: expected.codAmount,
        outstanding: formatCents(due),
        sender: nameOf(record.shipper),
        receiver: nameOf(record.consignee),
        channelId: booking.channelId,
        bookedDate: zonedDateAndTime(booking.bookedAt, timeZone).date,
        since,
        days,
      });
    }
    if (page.length < PAGE) break;
    after = page.at(-1)?.trackingNumber;
  }
  return {
    owed,
    owedTotal: formatCents(owedCents),
    overdue: owed.filter((b) => b.days > overdueDays),
    overdueTotal: formatCents(overdueCents),
    overdueDays,
    pipeline: { count: pipeline.count, total: formatCents(pipeline.cents) },
  };
}

/** The ledger's figures as every surface shows them: owed by age, overdue, and in the pipeline. */
export interface CodSummary {
  owed: CodAgeing;
  overdue: { count: number; total: Money; days: number };
  pipeline: { count: number; total: Money };
}

export function summariseCod(ledger: CodLedger): CodSummary {
  return {
    owed: ageCod(ledger.owed),
    overdue: { count: ledger.overdue.length, total: ledger.overdueTotal, days: ledger.overdueDays },
    pipeline: ledger.pipeline,
  };
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
  // The CSV reader is loaded by the first file: most days no file comes.
  const { readRemittanceCsv } = await import('../waybill/csv/read-remittance.js');
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

/** COD remittance files: their column headers, and when an unpaid COD booking is outstanding. */
export interface RemittanceSettings {
  columns: RemittanceColumns;
  /** A COD booking this many days old that files have not paid in full is outstanding. */
  outstandingDays: number;
  /** What the courier keeps of each COD booking (and charges for a return). */
  fee: CodFeeRule;
}

/** A column's header in a file someone else writes: any text of at most 100 characters. */
const columnHeader = z
  .string()
  .trim()
  .min(1, 'a column header')
  .max(100, 'a column header of at most 100 characters');

/** An amount such as `25` or `25.50`, in cents. */
const moneySetting = z
  .string()
  .trim()
  .transform((value) => parseCents(value) ?? -1n)
  .refine(
    (cents) => cents >= 0n && cents <= MAX_MONEY_CENTS,
    `an amount such as 25.00, at most ${formatCents(MAX_MONEY_CENTS)}`,
  );

const percentSetting = z
  .string()
  .trim()
  .transform((value) => parsePercent(value) ?? -1n)
  .refine((percent) => percent >= 0n, 'a percentage between 0 and 100 such as 2.75 (at most four decimals)');

/** A day as YYYY-MM-DD that the calendar has. */
const daySetting = z
  .string()
  .trim()
  .refine(
    (day) => /^\d{4}-\d{2}-\d{2}$/.test(day) && new Date(`${day}T00:00:00Z`).toISOString().startsWith(day),
    'a day as YYYY-MM-DD, such as 2026-12-01',
  );

/** REMITTANCE_* (the courier's file and when COD is overdue) and the COD fee rule (COD_FEE_*, RETURN_FEE). */
export const remittanceEnv = envSettings(
  z.object({
    REMITTANCE_TRACKING_COLUMN: optionalSetting(columnHeader).default('tracking_number'),
    REMITTANCE_AMOUNT_COLUMN: optionalSetting(columnHeader).default('amount'),
    REMITTANCE_REMITTED_AT_COLUMN: optionalSetting(columnHeader).default('remitted_at'),
    REMITTANCE_STATUS_COLUMN: optionalSetting(columnHeader).default('status'),
    REMITTANCE_FEE_COLUMN: optionalSetting(columnHeader).default('fee'),
    REMITTANCE_OUTSTANDING_DAYS: optionalSetting(wholeNumber(1, 365, 'a whole number of days')).default(7),
    COD_FEE_PERCENT: optionalSetting(percentSetting).default(0n),
    COD_FEE_FIXED: optionalSetting(moneySetting).default(0n),
    COD_FEE_MIN: optionalSetting(moneySetting),
    COD_FEE_MAX: optionalSetting(moneySetting),
    COD_FEE_VAT_PERCENT: optionalSetting(percentSetting).default(0n),
    RETURN_FEE: optionalSetting(moneySetting).default(0n),
    COD_FEE_FROM: optionalSetting(daySetting),
  }),
  (settings, problems): { remittance: RemittanceSettings } => {
    if (
      settings.COD_FEE_MIN !== undefined &&
      settings.COD_FEE_MAX !== undefined &&
      settings.COD_FEE_MIN > settings.COD_FEE_MAX
    ) {
      problems.add(
        ['COD_FEE_MIN', 'COD_FEE_MAX'],
        `COD_FEE_MIN must be at most COD_FEE_MAX (${formatCents(settings.COD_FEE_MAX)}): the bounds of the courier's COD fee`,
      );
    }
    return {
      remittance: {
        columns: {
          trackingNumber: settings.REMITTANCE_TRACKING_COLUMN,
          amount: settings.REMITTANCE_AMOUNT_COLUMN,
          remittedAt: settings.REMITTANCE_REMITTED_AT_COLUMN,
          status: settings.REMITTANCE_STATUS_COLUMN,
          fee: settings.REMITTANCE_FEE_COLUMN,
        },
        outstandingDays: settings.REMITTANCE_OUTSTANDING_DAYS,
        fee: {
          percent: settings.COD_FEE_PERCENT,
          fixed: settings.COD_FEE_FIXED,
          ...(settings.COD_FEE_MIN === undefined ? {} : { min: settings.COD_FEE_MIN }),
          ...(settings.COD_FEE_MAX === undefined ? {} : { max: settings.COD_FEE_MAX }),
          vatPercent: settings.COD_FEE_VAT_PERCENT,
          returnFee: settings.RETURN_FEE,
          ...(settings.COD_FEE_FROM === undefined ? {} : { from: settings.COD_FEE_FROM }),
        },
      },
    };
  },
);
