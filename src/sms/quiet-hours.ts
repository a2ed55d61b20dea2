/** Quiet hours for receivers: no SMS between `from` and `to` Manila time; one due then waits for `to`. */
import { instantFromZonedDateTime, zonedDateAfter, zonedDateAndTime } from '../waybill/dates.js';

/** Receivers are texted on Philippine mobiles only, so their evening is Manila's, whatever the team's zone. */
export const RECEIVERS_TIME_ZONE = 'Asia/Manila';

export interface QuietHours {
  /** HH:MM; later than `to` when they span midnight. */
  from: string;
  to: string;
}

export const DEFAULT_QUIET_HOURS: QuietHours = { from: '21:00', to: '08:00' };

/** When an SMS due at `at` may go: `at` outside quiet hours, else their end (`to`, that day or the next). */
export function sendableFrom(at: Date, quiet: QuietHours | undefined): Date {
  if (!quiet) return at;
  const { date, time } = zonedDateAndTime(at, RECEIVERS_TIME_ZONE);
  const acrossMidnight = quiet.from > quiet.to;
  const inside = acrossMidnight
    ? time >= quiet.from || time < quiet.to
    : time >= quiet.from && time < quiet.to;
  if (!inside) return at;
  const endDay = time < quiet.to ? date : zonedDateAfter(at, 1, RECEIVERS_TIME_ZONE);
  return instantFromZonedDateTime(endDay, quiet.to, RECEIVERS_TIME_ZONE);
}
