/** For unit tests of the Slack layer's pure parts: the little of a core they read, and a booking typed step by step without Bolt. */
import { stateFor } from '../../fakes/view-state.js';
import { addParcel } from '../../src/slack/book/changes.js';
import { withTyped } from '../../src/slack/book/draft.js';
import type { BookingDraft } from '../../src/slack/book/form.js';
import { renderStep } from '../../src/slack/book/steps.js';
import type { Core } from '../../src/slack/core.js';
import type { Draft } from '../../src/store/index.js';
import { bookingDefaults } from '../../src/waybill/booking-input.js';
import { defaultCatalog } from '../../src/waybill/catalog.js';
import { givenProfiles } from '../../src/waybill/profiles.js';
import { createWaybillSchemas } from '../../src/waybill/schemas.js';
import type { WaybillConfig } from '../../src/waybill/settings.js';
import { parcel, receiver, shipment } from './booking-typed.js';

export const MAX_PARCELS = 10;

/** What the views and validation read of a core, and nothing more. */
export type UnitDeps = Pick<Core, 'waybill' | 'schemas' | 'profiles' | 'now'> & {
  bot: Pick<Core['bot'], 'maxParcels'>;
};

/** The views' and validation's part of a core: the default catalog, Manila, the sandbox. */
export function unitCore(): UnitDeps {
  const catalog = defaultCatalog;
  const waybill: WaybillConfig = {
    env: 'sandbox',
    timeZone: 'Asia/Manila',
    timeoutMs: 10_000,
    currency: 'PHP',
    catalog,
    sandboxLatencyMs: 0,
    placeCheck: 'refuse',
  };
  return {
    waybill,
    schemas: createWaybillSchemas(catalog, { places: waybill.placeCheck }),
    bot: { maxParcels: MAX_PARCELS },
    profiles: givenProfiles([]),
    now: () => new Date('2026-03-02T01:00:00Z'),
  };
}

/** A stored draft holding `data`, as the store hands it back. */
export function draftOf<T>(data: T, kind = 'booking'): Draft<T> {
  const at = new Date('2026-03-02T01:00:00Z');
  return {
    id: 'D1',
    kind,
    userId: 'U1',
    channelId: 'C1',
    data,
    version: 1,
    createdAt: at,
    updatedAt: at,
    expiresAt: at,
  };
}

/** A new booking draft, at the shipment step with the defaults, its tracking number handed out. */
export function newBookingDraft(core: UnitDeps): Draft<BookingDraft> {
  const { timeZone, catalog } = core.waybill;
  return draftOf<BookingDraft>({
    input: bookingDefaults(core.now(), timeZone, catalog),
    step: 'shipment',
    parcels: 0,
    rev: 0,
    generatedTrackingNumber: 'WB000001',
  });
}

export const sender = {
  'shipper.name': 'Acme Pasig Warehouse',
  'shipper.phone': '02 8555 0100',
  'shipper.street': '1 Industrial Rd',
  'shipper.city': 'Pasig',
  'shipper.country': 'ph',
  'shipper.postal': '1600',
};

/**
 * The booking typed into each step's view as Slack would send it back (its state), merged by
 * withTyped: shipment, receiver, sender, and two parcels. `over` is typed over any step's values.
 */
export function typedBooking(core: UnitDeps, over: Record<string, string> = {}): BookingDraft {
  let data = newBookingDraft(core).data;
  const steps = [
    ['shipment', shipment],
    ['receiver', receiver],
    ['sender', sender],
    ['parcels', { ...parcel(0, '1.5'), ...parcel(1, '2') }],
  ] as const;
  for (const [step, typed] of steps) {
    data = { ...data, step };
    // The rows as "+ Add parcel" makes them: one of the first unit.
    if (step === 'parcels') {
      const unit = core.waybill.catalog.units[0]?.value;
      for (let i = 0; i < 2; i += 1) data = addParcel(data, MAX_PARCELS, unit)?.data ?? data;
    }
    const view = renderStep(core, draftOf(data));
    data = withTyped(data, stateFor(view.blocks, { ...typed, ...over }));
  }
  return data;
}
