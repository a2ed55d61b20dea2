/**
 * What happened to a parcel after booking, as a dispatcher records it: the courier's interface has no
 * tracking, so every status is what someone learned (a rider, a customer, the portal) and says who.
 */

export const PARCEL_STATUSES = {
  picked_up: 'Picked up',
  in_transit: 'In transit',
  out_for_delivery: 'Out for delivery',
  delivered: 'Delivered',
  failed_attempt: 'Failed attempt',
  returned: 'Returned to sender',
  cancelled: 'Cancelled with the courier',
} as const;

export type ParcelStatus = keyof typeof PARCEL_STATUSES;

/** Why a delivery attempt failed. */
export const FAILURE_REASONS = {
  not_at_home: 'Not at home',
  refused: 'Refused',
  wrong_address: 'Wrong address',
  other: 'Other',
} as const;

export type FailureReason = keyof typeof FAILURE_REASONS;

/** A note, like any text the bot keeps: short enough for one line of a card and of its thread. */
export const STATUS_NOTE_MAX = 500;

export function isParcelStatus(value: string): value is ParcelStatus {
  return Object.hasOwn(PARCEL_STATUSES, value);
}

export function isFailureReason(value: string): value is FailureReason {
  return Object.hasOwn(FAILURE_REASONS, value);
}

/** The status as words: "Failed attempt (not at home)". */
export function statusLabel(status: string, reason?: string): string {
  const label = isParcelStatus(status) ? PARCEL_STATUSES[status] : status;
  const why = reason && isFailureReason(reason) ? FAILURE_REASONS[reason].toLowerCase() : reason;
  return why ? `${label} (${why})` : label;
}

/**
 * Words dispatchers type for each status besides its key and its label, the usual one first; and
 * words couriers' portals write in their status exports ("undelivered", "returned to shipper").
 */
export const STATUS_WORDS: { readonly [S in ParcelStatus]: readonly string[] } = {
  picked_up: ['picked up', 'pickup', 'picked'],
  in_transit: ['in transit', 'transit'],
  out_for_delivery: ['out for delivery', 'ofd', 'on delivery'],
  delivered: ['delivered'],
  failed_attempt: ['failed', 'fail', 'failed delivery', 'undelivered'],
  returned: ['returned', 'rts', 'return to sender', 'return', 'returned to shipper'],
  cancelled: ['cancelled', 'canceled', 'cancel'],
};

/** Words dispatchers type for each reason besides its key and its label, the usual one first. */
export const REASON_WORDS: { readonly [R in FailureReason]: readonly string[] } = {
  not_at_home: ['not at home', 'not home', 'nobody home', 'no one home'],
  refused: ['refused'],
  wrong_address: ['wrong address'],
  other: ['other'],
};

/** A phrase as it is compared: lower case, `-` and `_` as spaces, one word at a time. */
export function phraseWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[\s_-]+/)
    .filter(Boolean);
}

/** Every phrase that names the value: its key, its label and its words. */
function phrasesOf<K extends string>(
  labels: Record<K, string>,
  words: { readonly [V in K]: readonly string[] },
) {
  return (Object.keys(labels) as K[]).flatMap((value) =>
    [value, labels[value], ...words[value]].map((phrase) => ({ words: phraseWords(phrase), value })),
  );
}

/** Each status's phrases; a failed attempt's reason, Other aside, also names a failed attempt on its own ("refused"). */
export const STATUS_PHRASES: readonly {
  words: string[];
  value: { status: ParcelStatus; reason?: FailureReason };
}[] = [
  ...phrasesOf(PARCEL_STATUSES, STATUS_WORDS).map(({ words, value }) => ({
    words,
    value: { status: value },
  })),
  ...phrasesOf(FAILURE_REASONS, REASON_WORDS)
    .filter(({ value }) => value !== 'other')
    .map(({ words, value }) => ({ words, value: { status: 'failed_attempt' as const, reason: value } })),
];

/** A status named whole by one of its phrases, as a courier's file writes it ("Returned to sender", "RTS", "delivered"). */
export function statusNamed(text: string): ParcelStatus | undefined {
  const said = phraseWords(text).join(' ');
  return STATUS_PHRASES.find(({ words, value }) => !value.reason && words.join(' ') === said)?.value.status;
}

/** Each reason's phrases, after a failed attempt. */
export const REASON_PHRASES: readonly { words: string[]; value: FailureReason }[] = phrasesOf(
  FAILURE_REASONS,
  REASON_WORDS,
);
