/** Booking values as typed (a form, a CSV row) to the Booking schema's input: dates and times, numbered parcels. */
import type { Catalog } from './catalog.js';
import { instantFromZonedDateTime, zonedDateAfter, zonedDateAndTime } from './dates.js';
import { isCalendarDate, isObject, writtenTrackingNumber } from './fields.js';

function field(source: unknown, key: string): unknown {
  return isObject(source) ? source[key] : undefined;
}

function childTrackingNumber(parent: string, index: number): string {
  return `${parent}-${String(index + 1).padStart(2, '0')}`;
}

/**
 * A date picker's day and a time picker's time as one instant: in the zone Slack reports for the
 * picker (the dispatcher's own) when `zone` is 'reported', else in `timeZone`.
 */
function pickedInstant(picked: unknown, timeZone: string, zone: PickerZone): Date | string | undefined {
  const date = field(picked, 'date');
  const time = field(picked, 'time');
  const clock = typeof time === 'string' ? time : field(time, 'time');
  const reported = field(time, 'timeZone');
  if (typeof date !== 'string' || typeof clock !== 'string' || !date || !clock) return undefined;
  // Not a picker's (or a well-typed cell's) value: passed on as text the schema refuses ("must be a date and time").
  if (!isCalendarDate(date) || !/^([01]\d|2[0-3]):[0-5]\d$/.test(clock)) return `${date} ${clock}`;
  const useReported = zone === 'reported' && typeof reported === 'string' && reported !== '';
  return instantFromZonedDateTime(date, clock, useReported ? reported : timeZone);
}

export type PickerZone = 'reported' | 'configured';

/**
 * Form values to the booking schema's input: date + time pickers become instants (in the
 * dispatcher's own zone, which Slack's time picker reports), an empty tracking number becomes the
 * generated one, and parcels are numbered from the parent (`WB000123-01`).
 */
export function toBookingInput(
  given: Record<string, unknown> | null | undefined,
  {
    trackingNumber,
    timeZone,
    parcels,
    pickerZone = 'reported',
  }: { trackingNumber: string; timeZone: string; parcels: number; pickerZone?: PickerZone },
): Record<string, unknown> {
  const input = typeof given === 'object' && given !== null ? given : {};
  const typed = typeof input.trackingNumber === 'string' ? writtenTrackingNumber(input.trackingNumber) : '';
  const parent = typed || trackingNumber;
  const rows = Array.isArray(input.childWaybills) ? input.childWaybills.slice(0, parcels) : [];
  return {
    ...input,
    trackingNumber: parent,
    pickupAt: pickedInstant(input.pickupAt, timeZone, pickerZone),
    expectedDeliveryAt: pickedInstant(input.expectedDeliveryAt, timeZone, pickerZone),
    childWaybills: rows.map((row, index) => ({
      ...(typeof row === 'object' && row !== null ? row : {}),
      trackingNumber: childTrackingNumber(parent, index),
    })),
  };
}

/** A dispatcher in a hurry: pickup today at the next full hour, delivery tomorrow at 17:00. */
export function bookingDefaults(now: Date, timeZone: string, catalog: Catalog): Record<string, unknown> {
  const today = zonedDateAndTime(now, timeZone);
  const nextHour = Math.min(Number(today.time.slice(0, 2)) + 1, 23);
  return {
    pickupAt: { date: today.date, time: `${String(nextHour).padStart(2, '0')}:00` },
    expectedDeliveryAt: { date: zonedDateAfter(now, 1, timeZone), time: '17:00' },
    ...(catalog.serviceTypes.length === 1 ? { serviceType: catalog.serviceTypes[0]?.value } : {}),
  };
}
