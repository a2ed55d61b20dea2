/** COD still owed by the courier, aged: buckets by days since delivery, totals by bucket and by sender, in decimal money. */
import { formatCents, type Money, parseCents } from './fields.js';

/** The buckets, by the most days each holds: 0–7, 8–14, 15–30, over 30. */
export const AGE_BUCKETS = [
  { label: '0\u20137 days', maxDays: 7 },
  { label: '8\u201314 days', maxDays: 14 },
  { label: '15\u201330 days', maxDays: 30 },
  { label: 'over 30 days', maxDays: Number.POSITIVE_INFINITY },
] as const;

/** One booking's COD still due, and the days since it was delivered (or picked up). */
export interface AgedCod {
  sender: string;
  outstanding: Money;
  days: number;
}

export interface AgeTotals {
  count: number;
  /** Per bucket, in AGE_BUCKETS order. */
  buckets: { count: number; total: Money }[];
  total: Money;
}

export interface CodAgeing extends AgeTotals {
  /** The senders, most owed first, each with its own buckets. */
  bySender: (AgeTotals & { sender: string })[];
}

/** The index in AGE_BUCKETS of an age in days (a day in the future counts as 0). */
export function bucketOf(days: number): number {
  return AGE_BUCKETS.findIndex((bucket) => Math.max(0, days) <= bucket.maxDays);
}

function tally(items: readonly AgedCod[]): AgeTotals {
  const cents = AGE_BUCKETS.map(() => 0n);
  const counts = AGE_BUCKETS.map(() => 0);
  for (const item of items) {
    const bucket = bucketOf(item.days);
    cents[bucket] = (cents[bucket] ?? 0n) + (parseCents(item.outstanding) ?? 0n);
    counts[bucket] = (counts[bucket] ?? 0) + 1;
  }
  return {
    count: items.length,
    buckets: cents.map((c, i) => ({ count: counts[i] ?? 0, total: formatCents(c) })),
    total: formatCents(cents.reduce((a, b) => a + b, 0n)),
  };
}

/** The ageing of these bookings' COD: in all, and sender by sender (most owed first, then by name). */
export function ageCod(items: readonly AgedCod[]): CodAgeing {
  const senders = new Map<string, AgedCod[]>();
  for (const item of items) {
    const own = senders.get(item.sender) ?? [];
    own.push(item);
    senders.set(item.sender, own);
  }
  const bySender = [...senders].map(([sender, own]) => ({ sender, ...tally(own) }));
  const cents = (total: Money) => parseCents(total) ?? 0n;
  bySender.sort((a, b) =>
    cents(a.total) === cents(b.total)
      ? a.sender.localeCompare(b.sender)
      : cents(b.total) > cents(a.total)
        ? 1
        : -1,
  );
  return { ...tally(items), bySender };
}

/** Whole days from one calendar day (YYYY-MM-DD) to another. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}
