/** What the booking modal's buttons and selects do to a draft, pure: the data after, and the step to show. */
import { applyProfile, type SenderProfile } from '../../waybill/profiles.js';
import { type BookingDraft, type BookingStep, bookingSteps } from './form.js';

/** The draft's data after an action and the step to show; undefined when the action changes nothing. */
export type Changed = { data: BookingDraft; step: BookingStep; notices?: string[] } | undefined;

function parcelRows(data: BookingDraft): unknown[] {
  return Array.isArray(data.input.childWaybills) ? [...data.input.childWaybills] : [];
}

/** "+ Add parcel": one more row, up to `maxParcels`; the new row starts with one of `unit`. */
export function addParcel(data: BookingDraft, maxParcels: number, unit: string | undefined): Changed {
  if (data.parcels >= maxParcels) return undefined;
  const rows = parcelRows(data);
  rows[data.parcels] = { quantity: '1', uom: unit };
  return {
    data: { ...data, parcels: data.parcels + 1, input: { ...data.input, childWaybills: rows } },
    step: 'parcels',
  };
}

/** "Remove a parcel…": the row at `selected` goes; the rows after it move up (and are renumbered). */
export function removeParcel(data: BookingDraft, selected: string | undefined): Changed {
  const index = Number(selected);
  if (!Number.isInteger(index) || index < 0 || index >= data.parcels) return undefined;
  const rows = parcelRows(data);
  rows.splice(index, 1);
  return {
    data: { ...data, parcels: data.parcels - 1, input: { ...data.input, childWaybills: rows } },
    step: 'parcels',
  };
}

/** "← Back": the previous step, with what was typed on this one kept (not validated). */
export function stepBack(data: BookingDraft): Changed {
  return { data, step: bookingSteps[Math.max(0, bookingSteps.indexOf(data.step) - 1)] ?? 'shipment' };
}

/** "Change details" after a failed booking: back to the first step, everything kept; never once booked. */
export function changeDetails(data: BookingDraft): Changed {
  return data.bookedTrackingNumber ? undefined : { data, step: 'shipment' };
}

/** A sender profile chosen: the sender and return party filled from it. */
export function chooseProfile(
  data: BookingDraft,
  profiles: readonly SenderProfile[],
  chosen: string | undefined,
): Changed {
  const profile = profiles.find((p) => p.id === chosen);
  if (!profile) return undefined;
  return { data: { ...data, input: applyProfile(data.input, profile) }, step: 'sender' };
}
