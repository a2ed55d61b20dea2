/** Dates and times in the waybill's time zone: a day and a clock time to an instant, and back. */
import { TZDate, tzOffset } from '@date-fns/tz';
// Each function's own module, not the package index (which loads all ~300 of them).
import { addDays } from 'date-fns/addDays';
import { format } from 'date-fns/format';
import { Recent } from './recent.js';

/**
 * The interface writes date-times as `YYYY-MM-DD HH:MM:SS.mmm` with no zone, so the bot writes
 * them as wall-clock time in WAYBILL_TIMEZONE; dispatchers pick them in their own zone.
 */

export function toWireDateTime(instant: Date, timeZone: string): string {
  return format(new TZDate(instant, timeZone), 'yyyy-MM-dd HH:mm:ss.SSS');
}

/**
 * The instant a dispatcher means by a date and an `HH:mm` time in their zone, worked out from the
 * zone's offsets alone (never the server's own zone). A wall-clock time that happens twice (clocks
 * going back) is its first occurrence; one that does not exist (clocks going forward) moves
 * forward by the gap, as clocks do.
 */
export function instantFromZonedDateTime(date: string, time: string, timeZone: string): Date {
  const instant = recentInstants.get(`${timeZone} ${date} ${time}`, () =>
    instantOfWallClock(date, time, timeZone),
  );
  return new Date(instant);
}

/**
 * The instants of the wall-clock times asked for last, and the wall-clock times of the minutes: a form's
 * or a bulk file's dates are mostly the same few days and times, and each working out asks the runtime
 * for the zone's offsets, three or four times (about 3% of a bulk row's CPU, npm run bench).
 */
const TIMES_REMEMBERED = 100;
const recentInstants = new Recent<string, number>(TIMES_REMEMBERED);
const recentWallClocks = new Recent<string, { date: string; time: string }>(TIMES_REMEMBERED);

function instantOfWallClock(date: string, time: string, timeZone: string): number {
  const [year = 0, month = 1, day = 1] = date.split('-').map(Number);
  const [hours = 0, minutes = 0] = time.split(':').map(Number);
  const wall = Date.UTC(year, month - 1, day, hours, minutes);
  const minute = 60_000;
  // The offsets in force around that wall-clock time: at most two (either side of a change).
  const first = tzOffset(timeZone, new Date(wall));
  const second = tzOffset(timeZone, new Date(wall - first * minute));
  const offsets = [...new Set([first, second, tzOffset(timeZone, new Date(wall - second * minute))])];
  const matching = offsets
    .map((offset) => wall - offset * minute)
    .filter((instant) => wall - tzOffset(timeZone, new Date(instant)) * minute === instant);
  if (matching.length > 0) return Math.min(...matching);
  // In a gap, the offset from before the change carries the time past it.
  return wall - Math.min(...offsets) * minute;
}

/** The calendar date and `HH:mm` time of an instant in a zone, for pre-filling pickers. */
export function zonedDateAndTime(instant: Date, timeZone: string): { date: string; time: string } {
  const minute = Math.floor(instant.getTime() / 60_000);
  const wallClock = recentWallClocks.get(`${timeZone} ${minute}`, () => {
    const zoned = new TZDate(instant, timeZone);
    return { date: format(zoned, 'yyyy-MM-dd'), time: format(zoned, 'HH:mm') };
  });
  return { ...wallClock };
}

/**
 * `yyyy-MM-dd HH:mm` of instants in a zone, as zonedDateAndTime gives them: for the many lines of
 * an export, where a TZDate and two formats per line cost ~0.1 ms and even one formatToParts a line
 * was a tenth of a year's export. The zone's offset is looked up once per quarter hour of UTC (zones
 * change offset on quarter hours), and checked at both ends of it: where it differs, each instant
 * of that quarter is looked up on its own.
 */
export function zonedStamper(timeZone: string): (instant: Date) => string {
  const formatter = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  /** Local wall-clock time minus UTC at an instant, in ms. */
  const offsetAt = (ms: number) => {
    const part: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
    for (const { type, value } of formatter.formatToParts(ms)) part[type] = value;
    const wall = Date.UTC(
      Number(part.year),
      Number(part.month) - 1,
      Number(part.day),
      Number(part.hour),
      Number(part.minute),
      Number(part.second),
    );
    return wall - Math.floor(ms / 1000) * 1000;
  };
  let quarter = Number.NaN;
  let quarterOffset: number | undefined;
  return (instant) => {
    const ms = instant.getTime();
    const thisQuarter = Math.floor(ms / QUARTER_HOUR_MS);
    if (thisQuarter !== quarter) {
      quarter = thisQuarter;
      const start = offsetAt(thisQuarter * QUARTER_HOUR_MS);
      quarterOffset = start === offsetAt((thisQuarter + 1) * QUARTER_HOUR_MS - 1000) ? start : undefined;
    }
    const wall = new Date(ms + (quarterOffset ?? offsetAt(ms)));
    return `${wall.getUTCFullYear()}-${twoDigits(wall.getUTCMonth() + 1)}-${twoDigits(wall.getUTCDate())} ${twoDigits(wall.getUTCHours())}:${twoDigits(wall.getUTCMinutes())}`;
  };
}

const QUARTER_HOUR_MS = 15 * 60_000;
const twoDigits = (n: number) => String(n).padStart(2, '0');

/**
 * The calendar date `days` after the day an instant falls on in a zone, counted on that zone's
 * calendar: adding days to a plain Date counts them in the host's zone, and across a DST change
 * there "tomorrow" can be today in WAYBILL_TIMEZONE.
 */
export function zonedDateAfter(instant: Date, days: number, timeZone: string): string {
  return format(addDays(new TZDate(instant, timeZone), days), 'yyyy-MM-dd');
}
