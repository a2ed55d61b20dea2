/** The booking modal's review: exactly the wire body that will be sent, grouped as the steps were, each field named as the form names it. */
import type { KnownBlock, ModalView } from '@slack/types';
import type { Part } from '../../waybill/booking-fields.js';
import type { Catalog } from '../../waybill/catalog.js';
import { courierFields } from '../../waybill/courier-fields.js';
import type { WaybillEnv } from '../../waybill/settings.js';
import type { BookingRequestWire } from '../../waybill/wire-types.js';
import { context, cut, environmentNotice, facts, header, plain, section } from '../kit/blocks.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import { type BookingOrigin, fieldName } from './form.js';
import { ids } from './ids.js';
import { backButton, codCheck, stepTitle } from './step-view.js';

type WireKey = Exclude<keyof BookingRequestWire, 'childWaybills'>;

/** The review groups the exact wire keys by their fields' parts (booking-fields.ts), in the form's order. */
const reviewGroups: [string, WireKey[]][] = (
  [
    ['Shipment', 'shipment'],
    ['Package', 'package'],
    ['Receiver', 'receiver'],
    ['Sender', 'sender'],
    ['Return to', 'return'],
  ] as const satisfies [string, Part][]
).map(([group, part]) => [
  group,
  courierFields.flatMap((field) =>
    field.part === part && field.wire.book ? [field.wire.book as WireKey] : [],
  ),
]);

function parcelLines(wire: BookingRequestWire): string {
  return wire.childWaybills
    .map(
      (child) =>
        `• \`${escapeMrkdwn(child.trackingNumber)}\` ${escapeMrkdwn(child.packageType)}, ${child.length} × ${child.width} × ${child.height} ${escapeMrkdwn(child.uom)}, weight ${child.weight}, qty ${child.quantity}` +
        (child.itemDescription ? `, ${escapeMrkdwn(child.itemDescription)}` : '') +
        (child.remarks ? ` (${escapeMrkdwn(child.remarks)})` : ''),
    )
    .join('\n');
}

export interface ReviewInput {
  wire: BookingRequestWire;
  env: WaybillEnv;
  metadata: string;
  timeZone: string;
  currency: string;
  catalog: Catalog;
  origin?: BookingOrigin;
  /** What the dispatcher should look at before confirming: postal codes, places under WAYBILL_PLACE_CHECK=warn. */
  warnings?: readonly string[];
}

/** Exactly what will be sent: the wire body's own keys and values (empty ones are sent as ""). */
export function bookingReviewView({
  wire,
  env,
  metadata,
  timeZone,
  currency,
  catalog,
  origin,
  warnings = [],
}: ReviewInput): ModalView {
  // A COD amount copied by Rebook and not changed since is pointed out once more before sending.
  const copiedCod = origin?.kind === 'rebook' && origin.codAmount === wire.codAmount;
  const blocks: KnownBlock[] = [
    ...environmentNotice(env),
    ...(copiedCod ? codCheck(origin, currency) : []),
    ...warnings.slice(0, 6).map((warning) => context(`:warning: ${escapeMrkdwn(cut(warning, 300))}`)),
    context(
      `This is exactly what will be sent to the courier. Dates are in ${escapeMrkdwn(timeZone)}. Fields not listed are sent empty.`,
    ),
  ];
  for (const [group, keys] of reviewGroups) {
    const shown = keys.filter((key) => wire[key] !== '');
    if (shown.length === 0) continue;
    blocks.push(header(group), ...facts(shown.map((key) => [fieldName(key, catalog), wire[key]])));
  }
  if (wire.childWaybills.length > 0) {
    blocks.push(header(`Parcels (${wire.childWaybills.length})`), section(parcelLines(wire)));
  }
  blocks.push(backButton());
  return {
    type: 'modal',
    callback_id: ids.bookingReview,
    title: plain(stepTitle('review')),
    submit: plain('Confirm booking'),
    close: plain('Cancel'),
    private_metadata: metadata,
    notify_on_close: true,
    blocks,
  };
}
