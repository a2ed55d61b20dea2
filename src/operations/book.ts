/**
 * The whole booking, the same from the modal, a workflow step and a file's row: its tracking
 * number, its attempt begun, the receiver's record checked, the courier called once, the card
 * posted through the caller's port and where it went kept, the attempt finished. Or a booking of
 * unknown outcome settled with what a person found out from the courier. Either way recorded as
 * one booking (recordBooking), its parties saved in the address book, with what else the caller keeps.
 *
 * Rules:
 * - A number is held by one holder (a draft, a file's row): a typed one is reserved for it, or
 *   the booking is not sent; none typed, the one handed out to it before, or the next free one.
 * - An attempt is begun under the holder and number before anything is sent (beginAttempt): a
 *   second confirmation, delivery or replica finds it and is answered with its outcome.
 * - The card is posted only once the booking is recorded; where it went is worth keeping, not
 *   worth failing a booking for.
 */
import type { Logger } from 'pino';
import * as z from 'zod';
import { envSettings, optionalSetting } from '../settings/env.js';
import {
  type Attempt,
  type BookedVia,
  DuplicateTrackingNumberError,
  type ReceiverCheck,
  type Store,
  type StoreTables,
} from '../store/index.js';
import type { WaybillClient } from '../waybill/client.js';
import type { BookingResult } from '../waybill/responses.js';
import { type Booking, validate, type WaybillSchemas } from '../waybill/schemas.js';
import { toBookingWire, toQuotationWire } from '../waybill/wire.js';
import type { BookingRequestWire } from '../waybill/wire-types.js';
import { type AccessPolicy, teamScope } from './access.js';
import { beginAttempt, bookingAttempt, type CourierAttempt } from './attempts.js';
import { type CallResult, callOnce, type OperationDeps } from './call-once.js';
import { keepCheck, type ReceiverRiskSettings, receiverCheck } from './receiver-record.js';
import { settleUnknown, verdictAudit } from './resolve.js';
import { queueBookedSms } from './sms.js';

/** What an attempt to book records, so a replayed confirmation is answered with the first outcome. */
export type BookingAttemptResult = { trackingRefNo: string; postedNote: string } | { message: string };

/** What booking uses besides an operation's: where the bot is, its numbers' prefix, the receiver rule and the team's channels. */
export interface BookingDeps extends OperationDeps {
  waybill: { timeZone: string };
  bot: {
    trackingPrefix: string;
    receiverRisk: ReceiverRiskSettings;
    access: Pick<AccessPolicy, 'channelIds'>;
  };
}

type NumberDeps = { store: Pick<Store, 'trackingNumbers'>; bot: { trackingPrefix: string } };

/**
 * The holder's tracking number: a typed one reserved for it (or `taken`, when another holds it),
 * else the one handed out to it before (`held`), else the next free one, held for it from now.
 */
export async function trackingNumberFor(
  deps: NumberDeps,
  holder: string,
  given: { held?: string },
): Promise<string>;
export async function trackingNumberFor(
  deps: NumberDeps,
  holder: string,
  given: { typed?: string; held?: string },
): Promise<string | { taken: string }>;
export async function trackingNumberFor(
  deps: NumberDeps,
  holder: string,
  { typed, held }: { typed?: string; held?: string },
): Promise<string | { taken: string }> {
  const { trackingNumbers } = deps.store;
  if (typed && typed !== held)
    return (await trackingNumbers.reserve(typed, holder)) ? typed : { taken: typed };
  return held ?? (await trackingNumbers.next(deps.bot.trackingPrefix, holder));
}

/** A booking to begin: its holder (a draft, a file's row), the booking with its number, who books it and where. */
export interface BookingOrder {
  holder: string;
  booking: Booking;
  who: { userId: string; channelId: string; viewId?: string };
  /** Begun again after a refusal (Try again). */
  again?: 'failed';
  /** The receiver's record as the person confirmed it (Confirm booking); absent: looked up here. */
  confirmed?: { check?: ReceiverCheck };
  /**
   * Given when the booking's number is the holder's to claim here (a form's): `held`, the number
   * handed out to it before, if any; a typed other one is reserved for it (trackingNumberFor).
   */
  number?: { held?: string };
}

/** A booking begun: its attempt, the body to send and the receiver's record to keep with it. */
export interface BegunBooking {
  attempt: CourierAttempt;
  request: BookingRequestWire;
  booking: Booking;
  who: { userId: string; channelId: string };
  receiver?: ReceiverCheck;
}

type BeginDeps = Pick<BookingDeps, 'store' | 'waybill' | 'bot'>;

/** What came of beginning a booking, tagged. */
export type Begin =
  | { state: 'begun'; begun: BegunBooking }
  /** An attempt of the same holder, number and body was begun before: its outcome answers. */
  | { state: 'answered'; attempt: Attempt<BookingAttemptResult> }
  /** The typed number is another holder's: nothing begun. */
  | { state: 'number taken' };

/**
 * The number claimed (when `number` says it is the holder's to claim here), the receiver's record
 * checked (unless confirmed already) and the attempt begun.
 */
export async function beginBooking(
  deps: BeginDeps,
  order: BookingOrder & { number?: undefined },
): Promise<Exclude<Begin, { state: 'number taken' }>>;
export async function beginBooking(deps: BeginDeps, order: BookingOrder): Promise<Begin>;
export async function beginBooking(deps: BeginDeps, order: BookingOrder): Promise<Begin> {
  const { booking, who } = order;
  if (order.number) {
    const typed = booking.trackingNumber;
    const given = await trackingNumberFor(deps, order.holder, { typed, held: order.number.held });
    if (typeof given !== 'string') return { state: 'number taken' };
  }
  const request = toBookingWire(booking, deps.waybill.timeZone);
  const attempt = bookingAttempt(order.holder, request);
  const receiver = order.confirmed
    ? order.confirmed.check
    : await receiverCheck(deps.store, deps.bot.receiverRisk, booking.consignee, teamScope(deps.bot.access));
  const started = await beginAttempt<BookingAttemptResult>(deps.store, attempt, who, { again: order.again });
  if (!started.started) return { state: 'answered', attempt: started.attempt };
  const { userId, channelId } = who;
  return {
    state: 'begun',
    begun: { attempt, request, booking, who: { userId, channelId }, ...(receiver ? { receiver } : {}) },
  };
}

/** What a booking's card shows of it, once it is recorded. */
export interface BookedCard {
  booking: Booking;
  trackingRefNo: string;
  bookedBy: string;
  bookedAt: Date;
  receiver?: ReceiverCheck;
  bookedVia?: BookedVia;
}

/**
 * Where a card went: its conversation and message (absent when Slack took it nowhere, or gave no
 * message), its copy in the audit channel, and what the attempt keeps of it for a replay.
 */
export interface CardPlace {
  channelId?: string;
  ts?: string;
  auditTs?: string;
  note: string;
}

/** The caller's port: posts the card where it belongs (Slack, say) and says where it went. */
export type PostCard = (card: BookedCard) => Promise<CardPlace>;

/** The attempt's note when the card went nowhere. */
export const CARD_NOT_POSTED = 'Slack did not accept the booking card; the booking is stored.';

/**
 * The card posted through `post`, and where it went kept with the booking (an update is told in
 * the card's thread then). The port's failure is logged, never the booking's: it is stored.
 */
export async function placeCard(
  deps: { store: Pick<Store, 'bookings'>; logger: Logger },
  card: BookedCard,
  post: PostCard,
): Promise<CardPlace | undefined> {
  const { trackingNumber } = card.booking;
  const placed = await post(card).catch((err: unknown) => {
    deps.logger.error({ err, trackingNumber }, 'booking card could not be posted');
    return undefined;
  });
  const kept = {
    ...(placed?.channelId && placed.ts ? { cardChannelId: placed.channelId, cardTs: placed.ts } : {}),
    ...(placed?.auditTs ? { auditCardTs: placed.auditTs } : {}),
  };
  if (Object.keys(kept).length > 0) {
    await deps.store.bookings.setCard(trackingNumber, kept).catch(cardPlaceLost(deps, trackingNumber));
  }
  return placed;
}

/** Where a booking's card went, as kept (placeCard): to link to it again. */
export async function cardPlaceOf(
  store: Pick<Store, 'bookings'>,
  trackingNumber: string,
): Promise<{ channelId?: string; ts?: string }> {
  const stored = await store.bookings.get(trackingNumber);
  return { channelId: stored?.cardChannelId, ts: stored?.cardTs };
}

/** Without where a card went, an update is told in the channel instead of in the card's thread. */
function cardPlaceLost(deps: { logger: Logger }, trackingNumber: string) {
  return (err: unknown) =>
    deps.logger.warn({ err, trackingNumber }, 'where the booking card went could not be recorded');
}

/**
 * What the courier would charge for the booking's values (a workflow's `total_charge`); '' when it
 * will not price them. A price is never worth stopping a booking for.
 */
export async function chargeOf(
  deps: { courier: Pick<WaybillClient, 'quote'>; schemas: Pick<WaybillSchemas, 'quote'> },
  values: Record<string, unknown>,
): Promise<string> {
  const { pickupAt, expectedDeliveryAt } = values as Record<string, { date?: string } | undefined>;
  const quote = validate(deps.schemas.quote, {
    ...values,
    pickupDate: pickupAt?.date,
    expectedDeliveryDate: expectedDeliveryAt?.date,
  });
  if (!quote.ok) return '';
  return deps.courier.quote(toQuotationWire(quote.value)).then(
    (price) => price.totalCharge,
    () => '',
  );
}

/** What came of a booking: the call's outcome, and where its card went when it was posted. */
export type Booked<T> =
  | Exclude<CallResult<BookingResult, T | undefined>, { state: 'done' }>
  | (Extract<CallResult<BookingResult, T | undefined>, { state: 'done' }> & { card?: CardPlace });

/**
 * A begun booking sent once (sendBooking); once it is recorded, its card posted through `card`
 * (placeCard) and the attempt finished with where it went, for a replay to answer with. A booking
 * not recorded (the database never answered) gets no card: nothing would know it.
 */
export async function bookOnce<T = undefined>(
  deps: OperationDeps,
  begun: BegunBooking,
  input: Pick<BookingToSend<T>, 'postedNote' | 'alsoRecord' | 'bookedVia' | 'waiting'> & {
    /** Where the card goes; absent (a file's row): no card, the attempt keeps `postedNote`. */
    card?: PostCard;
  },
): Promise<Booked<T>> {
  const { attempt, booking, who, receiver } = begun;
  const sent = await sendBooking(deps, {
    attempt,
    request: begun.request,
    booking,
    userId: who.userId,
    channelId: who.channelId,
    postedNote: input.postedNote,
    ...(receiver ? { receiver } : {}),
    ...(input.bookedVia ? { bookedVia: input.bookedVia } : {}),
    ...(input.alsoRecord ? { alsoRecord: input.alsoRecord } : {}),
    ...(input.waiting ? { waiting: input.waiting } : {}),
  });
  if (sent.state !== 'done' || !input.card) return sent;
  const { trackingRefNo } = sent.answer;
  const card = await placeCard(
    deps,
    {
      booking,
      trackingRefNo,
      bookedBy: who.userId,
      bookedAt: sent.at,
      ...(receiver ? { receiver } : {}),
      ...(input.bookedVia ? { bookedVia: input.bookedVia } : {}),
    },
    input.card,
  );
  await deps.store.attempts
    .finish<BookingAttemptResult>(attempt.key, 'succeeded', {
      trackingRefNo,
      postedNote: card?.note ?? CARD_NOT_POSTED,
    })
    .catch(cardPlaceLost(deps, booking.trackingNumber));
  return card ? { ...sent, card } : sent;
}

export interface BookingToSend<T> {
  /** Begun already (beginAttempt). */
  attempt: CourierAttempt;
  request: BookingRequestWire;
  booking: Booking;
  userId: string;
  channelId: string;
  /** The attempt's note until the caller has posted the booking somewhere. */
  postedNote: string;
  /** More bookkeeping in the same transaction (a booking form's draft marked booked, a file's row done), with the courier's answer. */
  alsoRecord?: (tx: StoreTables, result: BookingResult) => Promise<T>;
  /** The receiver's record it was checked against (receiver-record.ts), kept with it. */
  receiver?: ReceiverCheck;
  /** How it is booked when no person typed it, kept with it. */
  bookedVia?: BookedVia;
  /** Told once, with the courier's answer, when the database keeps the bookkeeping waiting. */
  waiting?: (result: BookingResult) => Promise<unknown>;
}

/** A booking the courier has, as it is stored. */
export interface BookedBooking {
  booking: Booking;
  trackingRefNo: string;
  channelId: string;
  bookedBy: string;
  bookedAt: Date;
  /** The receiver's record it was checked against, when it was. */
  receiver?: ReceiverCheck;
  bookedVia?: BookedVia;
}

/**
 * The booking stored, then the caller's bookkeeping (`also`), then its parties in the address book;
 * in the caller's transaction. Sending and Resolve both record a booking this way.
 */
export async function recordBooking<T>(
  tx: StoreTables,
  booked: BookedBooking,
  also: () => Promise<T>,
): Promise<T> {
  const { booking } = booked;
  await tx.bookings.insert({
    trackingNumber: booking.trackingNumber,
    trackingRefNo: booked.trackingRefNo,
    record: booking,
    channelId: booked.channelId,
    bookedBy: booked.bookedBy,
    bookedAt: booked.bookedAt,
    pickupAt: booking.pickupAt,
    ...(booked.bookedVia ? { bookedVia: booked.bookedVia } : {}),
  });
  if (booked.receiver) await keepCheck(tx, booking.trackingNumber, booked.bookedBy, booked.receiver);
  // The receiver's SMS, with the booking: neither is kept without the other.
  await queueBookedSms(tx, booking, booked.bookedAt);
  const recorded = await also();
  // Last, just before the commit: a party every booking of a file shares (its sender) is locked for
  // as short a time as can be.
  await tx.parties.save([booking.consignee, booking.shipper, booking.returnTo]);
  return recorded;
}

/**
 * Sends the booking once (callOnce); a success is stored as the booking, its parties in the
 * address book and the caller's bookkeeping, with the attempt and the audit entry. A booking form
 * and a file's rows both book this way.
 */
function sendBooking<T = undefined>(
  deps: OperationDeps,
  input: BookingToSend<T>,
): Promise<CallResult<BookingResult, T | undefined>> {
  const { request, booking } = input;
  const { trackingNumber } = booking;
  const also = async (tx: StoreTables, result: BookingResult) => input.alsoRecord?.(tx, result);
  return callOnce(deps, {
    attempt: input.attempt,
    userId: input.userId,
    request,
    send: (courier) => courier.book(request),
    succeeded: (result): BookingAttemptResult => ({
      trackingRefNo: result.trackingRefNo,
      postedNote: input.postedNote,
    }),
    record: (tx, result, bookedAt) =>
      recordBooking(
        tx,
        {
          booking,
          trackingRefNo: result.trackingRefNo,
          channelId: input.channelId,
          bookedBy: input.userId,
          bookedAt,
          receiver: input.receiver,
          ...(input.bookedVia ? { bookedVia: input.bookedVia } : {}),
        },
        () => also(tx, result),
      ),
    instead: (err) => {
      // Reserved numbers make this all but impossible; the booking exists, so the rest is kept.
      if (!(err instanceof DuplicateTrackingNumberError)) return undefined;
      deps.logger.error({ err, trackingNumber }, 'booked, but a booking with this number was stored already');
      return also;
    },
    waiting: input.waiting,
  });
}

/** What a person found out from the courier about a booking of unknown outcome. */
export interface BookingVerdict<T> {
  /** The attempt of unknown outcome. */
  key: string;
  trackingNumber: string;
  /** Who answered. */
  decidedBy: string;
  /** The courier has it: the booking to store (its reference, if typed, with it); absent: it does not. */
  booked?: Omit<BookedBooking, 'bookedAt'> & {
    /** The attempt's note until the caller has posted the booking somewhere. */
    postedNote: string;
    /** More bookkeeping in the same transaction (a booking form's draft marked booked). */
    alsoRecord?: (tx: StoreTables) => Promise<T>;
  };
}

/** What came of a verdict, tagged. */
export type SettledBooking<T> =
  | { state: 'booked'; bookedAt: Date; recorded: T | undefined }
  | { state: 'not booked' }
  /** Someone settled it first (on any replica): nothing recorded. */
  | { state: 'settled before' };

/**
 * Settles a booking of unknown outcome once, whoever answers first: "the courier has it" records
 * the booking (recordBooking) with the attempt succeeded; "it does not" settles the attempt as
 * failed, which frees its claim. Audited either way.
 */
export async function settleBooking<T = undefined>(
  deps: { store: Store; logger: Logger; now: () => Date; activity: OperationDeps['activity'] },
  verdict: BookingVerdict<T>,
): Promise<SettledBooking<T>> {
  const { key, trackingNumber, decidedBy, booked } = verdict;
  const audit = (outcome: string, detail: string) => verdictAudit(decidedBy, trackingNumber, outcome, detail);
  if (!booked) {
    const settled = await settleUnknown(deps, {
      key,
      state: 'failed',
      result: {
        message: `Not booked: <@${decidedBy}> checked with the courier, who does not have it.`,
      } satisfies BookingAttemptResult,
      audit: audit('not booked', 'the courier does not have it'),
    });
    return settled ? { state: 'not booked' } : { state: 'settled before' };
  }
  const { trackingRefNo, postedNote, alsoRecord } = booked;
  const bookedAt = deps.now();
  const settled = await settleUnknown(deps, {
    key,
    state: 'succeeded',
    result: { trackingRefNo, postedNote } satisfies BookingAttemptResult,
    audit: audit('booked', `the courier has it${trackingRefNo ? ` (reference ${trackingRefNo})` : ''}`),
    record: (tx) => recordBooking(tx, { ...booked, bookedAt }, async () => alsoRecord?.(tx)),
  });
  if (!settled) return { state: 'settled before' };
  deps.activity.changed(decidedBy);
  return { state: 'booked', bookedAt, recorded: settled.recorded };
}

/** TRACKING_PREFIX: the generated numbers' prefix. */
export const trackingNumbersEnv = envSettings(
  z.object({
    TRACKING_PREFIX: optionalSetting(
      z
        .string()
        .trim()
        .regex(/^[A-Za-z0-9_-]{1,20}$/, 'letters, digits, - or _ (at most 20), e.g. WB')
        // Tracking numbers are written in upper case (writtenTrackingNumber), the generated ones too.
        .transform((prefix) => prefix.toUpperCase()),
    ).default('WB'),
  }),
  (settings): { trackingPrefix: string } => ({ trackingPrefix: settings.TRACKING_PREFIX }),
);
