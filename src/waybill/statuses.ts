/**
 * What happened to a parcel after booking, as a dispatcher records it: the courier's interface has no
 * tracking, so every status is what someone learned (a rider, a customer, the portal) and says who.
 */

export const PARCEL_STATUSES = {
  picked_up: 'Picked up',
  in_transit: 'In transit',
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
 * A status as typed after `/waybill status <tracking number>`: its key or its words, any case, spaces or
 * dashes for underscores ("delivered", "picked-up", "failed attempt", "returned to sender").
 */
export function readParcelStatus(words: string): ParcelStatus | undefined {
  const key = words
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  if (isParcelStatus(key)) return key;
  return (Object.keys(PARCEL_STATUSES) as ParcelStatus[]).find(
    (status) => PARCEL_STATUSES[status].toLowerCase().replace(/\s+/g, '_') === key,
  );
}
