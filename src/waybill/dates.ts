import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns';

/**
 * The interface writes date-times as `YYYY-MM-DD HH:MM:SS.mmm` with no zone, so the bot writes
 * them as wall-clock time in WAYBILL_TIMEZONE; dispatchers pick them in their own zone.
 */

export function toWireDateTime(instant: Date, timeZone: string): string {
  return format(new TZDate(instant, timeZone), 'yyyy-MM-dd HH:mm:ss.SSS');
}

/**
 * The instant a dispatcher means by a date and an `HH:mm` time in their zone. In a daylight-saving
 * gap (a wall-clock time that does not exist) the time moves forward by the gap, as clocks do.
 */
export function instantFromZonedDateTime(date: string, time: string, timeZone: string): Date {
  const [year = 0, month = 1, day = 1] = date.split('-').map(Number);
  const [hours = 0, minutes = 0] = time.split(':').map(Number);
  return new Date(new TZDate(year, month - 1, day, hours, minutes, timeZone).getTime());
}

/** The calendar date and `HH:mm` time of an instant in a zone, for pre-filling pickers. */
export function zonedDateAndTime(instant: Date, timeZone: string): { date: string; time: string } {
  const zoned = new TZDate(instant, timeZone);
  return { date: format(zoned, 'yyyy-MM-dd'), time: format(zoned, 'HH:mm') };
}
