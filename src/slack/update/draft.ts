/** An update's draft: opened on a stored booking at its version, found from a modal, and the change it proposes. */

import type { FieldChange } from '../../operations/update.js';
import { toBookingInput } from '../../waybill/booking-input.js';
import type { Catalog } from '../../waybill/catalog.js';
import { zonedDateAndTime } from '../../waybill/dates.js';
import type { Booking, Validation } from '../../waybill/schemas.js';
import { validate } from '../../waybill/schemas.js';
import { toUpdateWire } from '../../waybill/wire.js';
import type { UpdateRequestWire } from '../../waybill/wire-types.js';
import { fieldName } from '../book/index.js';
import { storedBooking } from '../booking/index.js';
import type { Core } from '../core.js';
import type { FormDraftData } from '../kit/drafts.js';

/** An update in progress: which booking, the version it was opened at, and what is typed. */
/**
 * What the update feature uses of the core: its register hands the whole core on, and each
 * working function takes only the part of this it uses.
 */
export type UpdateDeps = Pick<
  Core,
  'store' | 'courier' | 'logger' | 'now' | 'activity' | 'inFlight' | 'access' | 'waybill' | 'schemas' | 'bot'
>;

export interface UpdateDraft extends FormDraftData {
  trackingNumber: string;
  baseVersion: number;
  input: Record<string, unknown>;
  rev: number;
  /** Opened by Reattempt: once the courier has the update, the parcel is back in transit for its next attempt. */
  reattempt?: true;
}

/** A booking as form values: dates split for the pickers, in WAYBILL_TIMEZONE. */
export function formValuesOf(booking: Booking, timeZone: string): Record<string, unknown> {
  return {
    ...booking,
    pickupAt: zonedDateAndTime(booking.pickupAt, timeZone),
    expectedDeliveryAt: zonedDateAndTime(booking.expectedDeliveryAt, timeZone),
  };
}

/** What an update of an unknown booking, or of one the person may not update, is answered: the same. */
export function unknownWaybillText(trackingNumber: string): string {
  return `I have no record of waybill \`${trackingNumber}\` in a conversation where you may update waybills, so I cannot update it: an update sends the complete record, and only waybills booked through this bot are known here. Check the tracking number (\`/waybill show ${trackingNumber}\`), or change it with the courier directly.`;
}

export async function createUpdateDraft(
  deps: Pick<UpdateDeps, 'store' | 'waybill' | 'logger' | 'schemas'>,
  where: { userId: string; channelId: string },
  trackingNumber: string,
  options: Pick<UpdateDraft, 'reattempt'> = {},
) {
  const stored = await storedBooking(deps, trackingNumber);
  if (!stored) return undefined;
  return deps.store.drafts.create<UpdateDraft>({
    kind: 'update',
    ...where,
    data: {
      trackingNumber,
      baseVersion: stored.record.version,
      input: formValuesOf(stored.booking, deps.waybill.timeZone),
      rev: 0,
      ...options,
    },
  });
}

/** What the courier will see change: the Update bodies before and after, key by key, each named as the form names it. */
export function changesBetween(
  before: UpdateRequestWire,
  after: UpdateRequestWire,
  catalog: Catalog,
): FieldChange[] {
  return (Object.keys(after) as (keyof UpdateRequestWire)[])
    .filter((key) => before[key] !== after[key])
    .map((key) => ({ key, field: fieldName(key, catalog), from: before[key], to: after[key] }));
}

export interface ProposedUpdate {
  /** The stored booking with the typed changes applied (Booking-only fields kept). */
  booking: Booking;
  changes: FieldChange[];
}

/** The typed changes, validated by the Update schema, and what they change on the wire. */
export function proposedUpdate(
  deps: Pick<UpdateDeps, 'waybill' | 'schemas'>,
  current: Booking,
  data: UpdateDraft,
): Validation<ProposedUpdate> {
  const input = toBookingInput(data.input, {
    trackingNumber: data.trackingNumber,
    timeZone: deps.waybill.timeZone,
    parcels: 0,
    pickerZone: 'configured',
  });
  const result = validate(deps.schemas.update, { ...input, trackingNumber: data.trackingNumber });
  if (!result.ok) return result;
  const booking = { ...current, ...result.value, trackingNumber: current.trackingNumber };
  const { timeZone, catalog } = deps.waybill;
  return {
    ok: true,
    value: {
      booking,
      changes: changesBetween(toUpdateWire(current, timeZone), toUpdateWire(booking, timeZone), catalog),
    },
  };
}
