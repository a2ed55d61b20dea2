/**
 * Attempt keys: the one name under which a courier call is recorded, so a double click, a replay or
 * a retry finds the call already made, and a restart can say which waybill a lost call was about.
 */

/** One booking of one draft under one tracking number. */
export function bookingAttemptKey(draftId: string, trackingNumber: string): string {
  return `book:${draftId}:${trackingNumber}`;
}

/** One update of a waybill from the version it was opened at. */
export function updateAttemptKey(trackingNumber: string, baseVersion: number): string {
  return `update:${trackingNumber}:v${baseVersion}`;
}

/** The waybill an attempt key names; undefined for a key of another format. */
export function trackingNumberOfAttempt(key: string): string | undefined {
  const booking = /^book:[^:]*:(.+)$/.exec(key);
  if (booking) return booking[1];
  const update = /^update:(.+):v\d+$/.exec(key);
  return update ? update[1] : undefined;
}
