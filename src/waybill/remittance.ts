/** COD remittance reconciled: each line of the courier's file against the booking it names, in decimal money. */
import type { RemittanceLine } from './csv/read-remittance.js';
import { formatCents, type Money, parseCents } from './fields.js';
import { statusNamed } from './statuses.js';

/**
 * What one line of a remittance file is:
 * - `matched`: the booking's COD amount, exactly (with what earlier files paid of it);
 * - `short` / `over`: less or more than it, by `difference`;
 * - `already remitted`: earlier files (or earlier lines of this one) paid it in full: a double payment;
 * - `not ours`: a tracking number we never booked;
 * - `not cod`: a prepaid booking, nothing to collect;
 * - `problem`: the line could not be read (no tracking number; an amount that is no amount, in
 *   another currency, or over a booking's limit).
 */
export type RemittanceOutcome =
  | 'matched'
  | 'short'
  | 'over'
  | 'already remitted'
  | 'not ours'
  | 'not cod'
  | 'problem';

/** Outcomes that settle (part of) a booking's COD: what counts as remitted on it. */
export const PAYING_OUTCOMES: readonly RemittanceOutcome[] = ['matched', 'short', 'over'];

/** Outcomes that leave nothing due on the booking: one of them means it is no longer outstanding. */
export const SETTLING_OUTCOMES: readonly RemittanceOutcome[] = ['matched', 'over'];

/** Problems first, in the order a person should look at them. */
export const OUTCOME_ORDER: readonly RemittanceOutcome[] = [
  'problem',
  'already remitted',
  'not ours',
  'not cod',
  'short',
  'over',
  'matched',
];

export interface ExpectedCod {
  /** False for a prepaid booking. */
  cod: boolean;
  /** The gross amount the courier collects. */
  codAmount: Money;
  /** What the courier keeps of it (its fee with VAT, `cod-fee.ts`): it remits the rest, the net. */
  fee: Money;
  /** Returned to sender (its recorded status): nothing collected, the return fee charged instead. */
  returned: boolean;
  returnFee: Money;
  /** The parcel's latest status as we recorded it, if any. */
  recorded?: string;
}

/** What the courier is to remit on a booking, in cents: its COD less the fee; nothing when prepaid or returned. */
export function netCents(expected: Pick<ExpectedCod, 'cod' | 'codAmount' | 'fee' | 'returned'>): bigint {
  if (!expected.cod || expected.returned) return 0n;
  const gross = centsOf(expected.codAmount);
  const fee = centsOf(expected.fee);
  return gross > fee ? gross - fee : 0n;
}

export interface ReconciledLine extends RemittanceLine {
  outcome: RemittanceOutcome;
  /**
   * What the booking's COD was judged on: its gross (COD amount; 0 when returned), the courier's
   * fee and the net it remits (gross less fee); a returned booking's charge is its return fee.
   */
  gross?: Money;
  fee?: Money;
  net?: Money;
  returnFee?: Money;
  /** The line contradicts the status we recorded (paid as delivered after our failed attempt): why. */
  conflict?: string;
  /** What was still due on the booking before this line (its net less what earlier lines paid). */
  expected?: Money;
  /** Remitted less due, signed: `-100.00` short, `100.00` over (a double payment: the whole line). */
  difference?: Money;
  /** Why, in words (the line's problem, or what earlier files paid). */
  message: string;
}

export interface ReconcileTotals {
  counts: Record<RemittanceOutcome, number>;
  /** Of the bookings this file pays, each once: their COD amounts, the courier's fees, and their nets (gross − fee). */
  gross: Money;
  fee: Money;
  net: Money;
  /** What the courier charged for the returned bookings it lists: apart from the fee, as nothing was collected. */
  returnFees: Money;
  /** What the bookings of ours this file pays were still due (their net less what earlier files paid). */
  expected: Money;
  /** What the file pays on bookings of ours (a double payment and a prepaid booking's line included). */
  remitted: Money;
  /** remitted − expected: what our bookings were paid short (negative) or over. */
  difference: Money;
  /**
   * The short lines' differences added (negative, or 0.00) and the over ones' (a double payment's and a
   * prepaid booking's line too), so one never hides the other: short + over = difference.
   */
  short: Money;
  over: Money;
  /** Lines that contradict a status we recorded. */
  conflicts: number;
  /** What the file pays on tracking numbers we never booked: not our money, kept apart. */
  notOurs: Money;
}

export interface Reconciliation {
  lines: ReconciledLine[];
  totals: ReconcileTotals;
}

/** What lines paid in all (two-place text): the paying ones, as `PAYING_OUTCOMES` says. */
export function remittedTotal(lines: readonly { amount?: Money; outcome?: string }[]): Money {
  let cents = 0n;
  for (const line of lines) {
    const paying = line.outcome === undefined || PAYING_OUTCOMES.includes(line.outcome as RemittanceOutcome);
    if (paying && line.amount !== undefined) cents += centsOf(line.amount);
  }
  return formatCents(cents);
}

/** Two-place text of a signed amount in cents. */
export function signedMoney(cents: bigint): Money {
  return cents < 0n ? `-${formatCents(-cents)}` : formatCents(cents);
}

/** Cents of two-place text, signed; 0 for anything else (never reached with our own values). */
export function centsOf(amount: Money): bigint {
  const negative = amount.startsWith('-');
  const cents = parseCents(negative ? amount.slice(1) : amount) ?? 0n;
  return negative ? -cents : cents;
}

/**
 * Reconciles a file's lines, in file order. `booking` says what a tracking number is owed
 * (undefined: not ours); `paidBefore` what earlier files paid on it. A booking's payments add
 * up across files: a later file that tops up a short one is matched against what was still
 * due, and a line for a booking already paid in full is a double payment.
 */
export function reconcile(
  lines: readonly RemittanceLine[],
  booking: (trackingNumber: string) => ExpectedCod | undefined,
  paidBefore: (trackingNumber: string) => bigint,
): Reconciliation {
  const paid = new Map<string, bigint>();
  const counts = Object.fromEntries(OUTCOME_ORDER.map((o) => [o, 0])) as Record<RemittanceOutcome, number>;
  let expected = 0n;
  let remitted = 0n;
  let notOurs = 0n;
  let gross = 0n;
  let fee = 0n;
  let net = 0n;
  let returnFees = 0n;
  let short = 0n;
  let over = 0n;
  let conflicts = 0;
  const counted = new Set<string>();
  const result = lines.map((line): ReconciledLine => {
    const reconciled = reconcileLine(line, booking(line.trackingNumber), () => {
      if (!paid.has(line.trackingNumber)) paid.set(line.trackingNumber, paidBefore(line.trackingNumber));
      return paid.get(line.trackingNumber) ?? 0n;
    });
    counts[reconciled.outcome] += 1;
    if (reconciled.conflict) conflicts += 1;
    // A prepaid booking's line is paid over by all of it, so short + over is the difference.
    const difference = centsOf(
      (reconciled.outcome === 'not cod' ? line.amount : reconciled.difference) ?? '0.00',
    );
    if (difference < 0n) short += difference;
    else over += difference;
    if (reconciled.outcome === 'not ours') notOurs += centsOf(line.amount ?? '0.00');
    else if (reconciled.outcome !== 'problem' && line.amount !== undefined) remitted += centsOf(line.amount);
    if (PAYING_OUTCOMES.includes(reconciled.outcome) && line.amount !== undefined) {
      expected += centsOf(reconciled.expected ?? '0.00');
      if (!counted.has(line.trackingNumber)) {
        counted.add(line.trackingNumber);
        gross += centsOf(reconciled.gross ?? '0.00');
        fee += centsOf(reconciled.fee ?? '0.00');
        net += centsOf(reconciled.net ?? '0.00');
        returnFees += centsOf(reconciled.returnFee ?? '0.00');
      }
      paid.set(line.trackingNumber, (paid.get(line.trackingNumber) ?? 0n) + centsOf(line.amount));
    }
    return reconciled;
  });
  return {
    lines: result,
    totals: {
      counts,
      gross: formatCents(gross),
      fee: formatCents(fee),
      net: formatCents(net),
      returnFees: formatCents(returnFees),
      expected: formatCents(expected),
      remitted: formatCents(remitted),
      difference: signedMoney(remitted - expected),
      short: signedMoney(short),
      over: formatCents(over),
      conflicts,
      notOurs: formatCents(notOurs),
    },
  };
}

function reconcileLine(
  line: RemittanceLine,
  booking: ExpectedCod | undefined,
  paidSoFar: () => bigint,
): ReconciledLine {
  if (line.problem !== undefined || line.amount === undefined) {
    return { ...line, outcome: 'problem', message: line.problem ?? 'The amount cannot be read' };
  }
  if (!booking)
    return { ...line, outcome: 'not ours', message: 'No booking of ours has this tracking number' };
  if (!booking.cod) return { ...line, outcome: 'not cod', message: 'A prepaid booking: no COD to remit' };
  const amount = centsOf(line.amount);
  if (booking.returned || statusNamed(line.status) === 'returned') {
    // Nothing was collected, so nothing is due: any amount paid is over; the return fee is the courier's charge.
    return {
      ...line,
      gross: '0.00',
      fee: '0.00',
      net: '0.00',
      returnFee: line.statedFee ?? booking.returnFee,
      outcome: amount === 0n ? 'matched' : 'over',
      expected: '0.00',
      difference: signedMoney(amount),
      message: 'Returned to sender: no COD collected',
    };
  }
  // A fee the file states for the line wins over the rule's.
  const fee = centsOf(line.statedFee ?? booking.fee);
  const owed = netCents({ ...booking, fee: formatCents(fee) });
  const before = paidSoFar();
  const charges = { gross: booking.codAmount, fee: formatCents(fee), net: formatCents(owed) };
  const conflict =
    statusNamed(line.status) === 'delivered' && booking.recorded === 'failed_attempt'
      ? { conflict: 'Paid as delivered, but our last status is a failed attempt' }
      : {};
  if (before > 0n && before >= owed) {
    return {
      ...line,
      ...charges,
      ...conflict,
      outcome: 'already remitted',
      expected: '0.00',
      difference: signedMoney(amount),
      message: [
        `Already remitted in full (${formatCents(before)} of ${formatCents(owed)}): a double payment`,
        ...(conflict.conflict ? [conflict.conflict] : []),
      ].join('; '),
    };
  }
  const due = owed - before;
  const difference = amount - due;
  const why = [
    ...(before > 0n ? [`Earlier files paid ${formatCents(before)} of ${formatCents(owed)}`] : []),
    ...(fee > 0n && difference === fee ? ['Over by the fee: the gross amount was paid'] : []),
    ...(conflict.conflict ? [conflict.conflict] : []),
  ];
  return {
    ...line,
    ...charges,
    ...conflict,
    outcome: difference === 0n ? 'matched' : difference < 0n ? 'short' : 'over',
    expected: formatCents(due),
    difference: signedMoney(difference),
    message: why.join('; '),
  };
}
