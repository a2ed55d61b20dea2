/** Rebook: /book opened with a booked waybill copied, from its card's button or `/waybill rebook`. */
import type { App } from '@slack/bolt';
import type { ModalView } from '@slack/types';
import type { Booking } from '../../waybill/schemas.js';
import { bookingIds, storedBooking } from '../booking/index.js';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { refusalOnBooking, unseenText } from '../guards/booking-access.js';
import {
  answerWithForm,
  type CommandAnswer,
  trackingNumberFirst,
  waybillVerb,
} from '../kit/command-request.js';
import { ackNow, type ButtonClick, type Opening, openingModal } from '../kit/listener.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import type { SlackClient } from '../runtime/delivery.js';
import { type BookDeps, createBookingDraft } from './draft.js';
import { showStep } from './steps.js';

/** What a rebooking does not copy: new numbers and dates are given, and the references name the old order. */
const notCopied = new Set([
  'trackingNumber',
  'pickupAt',
  'expectedDeliveryAt',
  'reference1',
  'reference2',
  'reference3',
  'reference4',
  'reference5',
]);

/**
 * A booking as booking form values for a new one: parties, service, payment, package, what is
 * sent and the parcels' measures; not its tracking numbers, dates and references. What only
 * repeats a default is left empty: a return party that is the sender, an amount of 0, a number
 * of parcels that is the parcels' count.
 */
export function rebookInput(booking: Booking): Record<string, unknown> {
  const copied = Object.fromEntries(Object.entries(booking).filter(([key]) => !notCopied.has(key)));
  const { returnTo, shipper, codAmount, declaredValue, quantity, childWaybills } = booking;
  const amount = (value: string) => (Number(value) > 0 ? value : undefined);
  return {
    ...copied,
    returnTo: JSON.stringify(returnTo) === JSON.stringify(shipper) ? {} : returnTo,
    codAmount: amount(codAmount),
    declaredValue: amount(declaredValue),
    quantity: quantity === Math.max(1, childWaybills.length) ? undefined : quantity,
    childWaybills: childWaybills.map(({ trackingNumber: _, ...parcel }) => parcel),
  };
}

/**
 * /book's first step with the booking copied, or, when there is no such booking or the person may
 * not book from its conversation, what they are told instead. A COD amount is kept, and pointed
 * out on the first step and at review.
 */
async function rebookForm(
  deps: Pick<BookDeps, 'store' | 'schemas' | 'logger' | 'access' | 'waybill' | 'profiles' | 'bot' | 'now'>,
  client: SlackClient,
  where: { userId: string; channelId: string; responseUrl?: string },
  trackingNumber: string,
): Promise<(() => Promise<ModalView>) | string> {
  const known = await storedBooking(deps, trackingNumber);
  // Refused or unknown, the same answer: a refusal never tells whether a booking exists.
  const unknown = `${unseenText(trackingNumber, 'book')} There is nothing to copy: type \`/book\` to book.`;
  if (!known) return unknown;
  if (await refusalOnBooking(deps, { client, userId: where.userId }, 'book', known.record)) return unknown;
  const { booking } = known;
  const input = rebookInput(booking);
  const origin = {
    kind: 'rebook' as const,
    trackingNumber: booking.trackingNumber,
    ...(typeof input.codAmount === 'string' ? { codAmount: input.codAmount } : {}),
  };
  return async () => showStep(deps, await createBookingDraft(deps, where, input, origin), 'shipment');
}

/** `/waybill rebook <tracking number>`: the form with that booking copied, or why there is none. */
const rebookCommand: CommandAnswer<
  { trackingNumber: string },
  Pick<
    BookDeps,
    'store' | 'schemas' | 'logger' | 'access' | 'waybill' | 'profiles' | 'bot' | 'now' | 'inFlight'
  >
> = async (deps, args, { trackingNumber }) => {
  const { command } = args;
  const where = { userId: command.user_id, channelId: command.channel_id, responseUrl: command.response_url };
  const form = await rebookForm(deps, args.client, where, trackingNumber);
  await answerWithForm(deps, args, `type \`/waybill rebook ${escapeMrkdwn(trackingNumber)}\``, form);
};

/** "Rebook" on a booking card. */
export function register(app: App, deps: Core): void {
  app.action<ButtonClick, Opening>(
    bookingIds.bookRebook,
    requires(deps, 'book'),
    ackNow,
    openingModal(deps, 'click *Rebook*'),
    async ({ action: { value: trackingNumber = '' }, body, client, context }) => {
      const where = {
        userId: body.user.id,
        channelId: body.channel?.id ?? '',
        responseUrl: body.response_url,
      };
      return context.openModal(await rebookForm(deps, client, where, trackingNumber));
    },
  );
}

/** `/waybill rebook`. */
export const rebookVerb = waybillVerb({
  verb: 'rebook',
  usage: '`/waybill rebook <tracking number>`: book again with the same parties, package and parcels',
  example: '/waybill rebook WB000123',
  permission: 'book',
  parse: trackingNumberFirst,
  answer: rebookCommand,
});
