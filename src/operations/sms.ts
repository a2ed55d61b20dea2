/**
 * Texting receivers: an SMS queued with the booking and with each status that calls for one (in the
 * same transaction, so none is lost and none doubled), then sent by whichever replica claims it.
 *
 * Rules:
 * - One SMS per booking and event (the status's number; 0 for the booking): the outbox's key.
 * - Sent only between quiet hours (Manila): one due inside them is held until they end, said once.
 * - A call is begun in the database before it is made, within the gateway's calls a minute across
 *   replicas. A call begun and never recorded (its replica gone) may have reached the gateway: it is
 *   recorded as unknown, never made again; so is any answer that may mean it was taken.
 * - The gateway said it did not take it (429, 503, not reached): queued again, for after its
 *   Retry-After or a back-off; the thread is told once that it waits.
 * - A receiver's phone that is not a Philippine mobile is not texted, nor one whose receiver asked a
 *   dispatcher not to be texted (setOptedOut); the thread says so.
 * - Each outcome, a hold and a wait is one line in the booking card's thread, posted through the
 *   caller's port once (post-once); the outbox row says which lines are out.
 * - The event's switch and the language are read when it is sent: the booking's channel's language,
 *   else the default.
 */
import type { Logger } from 'pino';
import * as z from 'zod';
import {
  baseUrl,
  commaList,
  envSettings,
  filePath,
  oneOf,
  optionalSetting,
  secretsNamed,
} from '../settings/env.js';
import { SEMAPHORE_URL, type SendOutcome, type SmsGateway } from '../sms/gateway.js';
import { readMobile } from '../sms/mobile.js';
import {
  DEFAULT_QUIET_HOURS,
  type QuietHours,
  RECEIVERS_TIME_ZONE,
  sendableFrom,
} from '../sms/quiet-hours.js';
import {
  deliveryDay,
  REASON_TEXT,
  SMS_EVENTS,
  SMS_LANGUAGES,
  type SmsEvent,
  type SmsLanguage,
  SmsTemplates,
  type SmsValues,
  TemplateError,
} from '../sms/templates.js';
import type { SmsKey, SmsNote, SmsRow, Store, StoreTables } from '../store/index.js';
import { formatCents, parseCents } from '../waybill/fields.js';
import { phoneKey } from '../waybill/phones.js';
import type { Booking } from '../waybill/schemas.js';
import type { ParcelStatus } from '../waybill/statuses.js';
import { type Scope, scopeChannels } from './access.js';
import { postOnce } from './post-once.js';

export interface SmsSettings {
  /** Which gateway texts (SMS_GATEWAY) and, for Semaphore, how to reach it. */
  gateway: { kind: 'log' } | { kind: 'semaphore'; apiKey: string; url: string; senderName: string };
  templates: SmsTemplates;
  /** Undefined: off. */
  quietHours?: QuietHours;
  /** The events receivers are texted at (SMS_EVENTS). */
  events: readonly SmsEvent[];
  /** The language of a booking whose channel has none of its own. */
  language: SmsLanguage;
  /** A channel's own language (SMS_CHANNEL_LANGUAGES). */
  channelLanguages: Readonly<Record<string, SmsLanguage>>;
}

/** The statuses a receiver is texted at, by the event they are. */
const STATUS_EVENTS: Partial<Record<ParcelStatus, SmsEvent>> = {
  out_for_delivery: 'out_for_delivery',
  failed_attempt: 'failed_attempt',
};

/** The receiver's phone key of a booking, for their record of texts. */
function receiverKey(booking: Pick<Booking, 'consignee'>): string | undefined {
  return phoneKey(booking.consignee.phone, booking.consignee.country);
}

/** Queues the booking's SMS, in the booking's transaction. */
export async function queueBookedSms(
  tx: Pick<StoreTables, 'sms'>,
  booking: Pick<Booking, 'trackingNumber' | 'consignee'>,
  bookedAt: Date,
): Promise<void> {
  await tx.sms.enqueue({
    trackingNumber: booking.trackingNumber,
    event: 'booked',
    occurrence: 0,
    phoneKey: receiverKey(booking),
    dueAt: bookedAt,
  });
}

/** Queues the SMS a status calls for (out for delivery, a failed attempt), in the status's transaction. */
export async function queueStatusSms(
  tx: Pick<StoreTables, 'sms' | 'statuses' | 'bookings'>,
  entry: { trackingNumber: string; seq: number; status: string; reason?: string; at: Date },
): Promise<void> {
  const event = STATUS_EVENTS[entry.status as ParcelStatus];
  if (!event) return;
  const booking = await tx.bookings.get(entry.trackingNumber);
  const record = booking?.record as Booking | undefined;
  const attempt =
    event === 'failed_attempt'
      ? (await tx.statuses.history(entry.trackingNumber)).filter(
          (earlier) => earlier.status === 'failed_attempt' && earlier.seq <= entry.seq,
        ).length
      : undefined;
  await tx.sms.enqueue({
    trackingNumber: entry.trackingNumber,
    event,
    occurrence: entry.seq,
    ...(entry.reason ? { reason: entry.reason } : {}),
    ...(attempt ? { attempt } : {}),
    phoneKey: record ? receiverKey(record) : undefined,
    dueAt: entry.at,
  });
}

/** Which SMS a booking in `channelId` is sent, and in which language: for the review. */
export function smsPlan(
  settings: Pick<SmsSettings, 'events' | 'language' | 'channelLanguages'>,
  channelId: string,
): { events: readonly SmsEvent[]; language: SmsLanguage } {
  return { events: settings.events, language: settings.channelLanguages[channelId] ?? settings.language };
}

/**
 * How often texts to this receiver's phone failed, counting only bookings `scope` sees (the access
 * rule, as the receiver's record): undefined when the phone cannot be dialled.
 */
export async function receiverTexts(
  store: Pick<StoreTables, 'sms'>,
  receiver: { phone: string; country?: string },
  scope: Scope,
): Promise<{ texts: number; failed: number } | undefined> {
  const key = phoneKey(receiver.phone, receiver.country);
  return key ? store.sms.failuresTo(key, { channelIds: scopeChannels(scope) }) : undefined;
}

/**
 * A receiver asked (a dispatcher heard it) not to be texted, or to be again: by their phone, however it
 * is typed; audited. Undefined when the phone is not a Philippine mobile.
 */
export async function setReceiverOptOut(
  store: Pick<Store, 'sms' | 'audit'>,
  input: { phone: string; optedOut: boolean; userId: string },
): Promise<{ changed: boolean; number: string } | undefined> {
  const mobile = readMobile(input.phone, 'PH');
  const key = mobile.ok ? phoneKey(input.phone, 'PH') : undefined;
  if (!(mobile.ok && key)) return undefined;
  const changed = await store.sms.setOptedOut(key, input.optedOut, input.userId);
  if (changed) {
    await store.audit.record({
      userId: input.userId,
      operation: 'sms',
      outcome: 'ok',
      detail: `${input.optedOut ? 'not to be texted' : 'texted again'}: ${mobile.number}`,
    });
  }
  return { changed, number: mobile.number };
}

/** The message of `event` for a booking, as the receiver reads it. */
export function smsText(
  deps: { settings: Pick<SmsSettings, 'templates'>; currency?: string },
  input: { booking: Booking; row: Pick<SmsRow, 'event' | 'reason' | 'attempt'>; language: SmsLanguage },
): string {
  const { booking, row, language } = input;
  const cents = parseCents(booking.codAmount ?? '') ?? 0n;
  const values: SmsValues = {
    merchant: booking.merchantName || booking.shipper.name,
    trackingNumber: booking.trackingNumber,
    cod: cents > 0n ? 'yes' : 'no',
    codAmount: Number(formatCents(cents)).toLocaleString('en-PH', { minimumFractionDigits: 2 }),
    date: deliveryDay(new Date(booking.expectedDeliveryAt), language, RECEIVERS_TIME_ZONE),
    teamPhone: booking.operatorContactNumber || booking.shipper.phone,
    ...(row.reason ? { reason: REASON_TEXT[language][row.reason] ?? row.reason } : {}),
    ...(row.attempt ? { attempt: row.attempt } : {}),
  };
  return deps.settings.templates.render(language, row.event as SmsEvent, values);
}

/** Where each thread line goes: the booking card's thread (the caller's port). */
export interface SmsPort {
  /** Posts the row's line (its `note`, with its outcome) in the booking's thread. */
  tell(row: SmsRow, gateway: string): Promise<unknown>;
}

export interface SmsDeps {
  store: Pick<Store, 'sms' | 'bookings'>;
  logger: Logger;
  now: () => Date;
  settings: SmsSettings;
  gateway: SmsGateway;
}

/** Rows claimed a turn: a turn every 10 s takes up to 300 a minute, more than a gateway's 120. */
export const SMS_TURN_ROWS = 50;

/** How long an SMS the gateway did not take waits without a Retry-After: a minute, doubling to 15. */
function backOffMs(tries: number): number {
  return Math.min(15, 2 ** Math.max(0, tries - 1)) * 60_000;
}

/** What a turn did, for the logs, the tests and the bench. */
export interface SmsTurn {
  claimed: number;
  called: number;
}

/** One turn: every SMS due now claimed, sent or held, and every line waiting posted. */
export async function smsTurn(deps: SmsDeps, port: SmsPort): Promise<SmsTurn> {
  const rows = await deps.store.sms.claim(SMS_TURN_ROWS);
  let called = 0;
  // Once the minute's calls are spent, the rest wait for the next turn (their lines are still posted).
  const turn = { spent: false };
  try {
    for (const claimed of rows) {
      const row = await settle(deps, claimed, turn).catch((err: unknown) => {
        deps.logger.warn({ err, trackingNumber: claimed.trackingNumber }, 'an SMS could not be settled');
        return undefined;
      });
      if (!row) continue;
      if (row.called) called += 1;
      if (row.note) await tell(deps, port, row);
    }
  } finally {
    await deps.store.sms.release().catch(() => undefined);
  }
  return { claimed: rows.length, called };
}

/** The row after what is due now: sent, held, queued again or found done. */
async function settle(
  deps: SmsDeps,
  row: SmsRow,
  turn: { spent: boolean },
): Promise<(SmsRow & { called?: boolean }) | undefined> {
  const change = async (change: Partial<SmsRow>) => {
    const note = change.note && row.noted.includes(change.note) ? undefined : change.note;
    const next = { ...row, ...change, note: note ?? row.note };
    await deps.store.sms.update(row, { ...change, note: next.note });
    return next;
  };
  if (row.state === 'calling') {
    return change({
      state: 'done',
      outcome: 'unknown',
      detail: 'the replica sending it stopped: it may have been sent, so it is not sent again',
      note: 'done',
    });
  }
  if (row.state === 'done' || turn.spent || row.dueAt.getTime() > deps.now().getTime()) return row;
  const stored = await deps.store.bookings.get(row.trackingNumber);
  if (!stored) return change({ state: 'done', outcome: 'no booking' });
  const booking = stored.record as Booking;
  if (!deps.settings.events.includes(row.event as SmsEvent)) return change({ state: 'done', outcome: 'off' });
  const mobile = readMobile(booking.consignee.phone, booking.consignee.country);
  if (!mobile.ok)
    return change({ state: 'done', outcome: 'not_mobile', detail: mobile.problem, note: 'done' });
  const key = receiverKey(booking);
  if (key && (await deps.store.sms.isOptedOut(key)))
    return change({ state: 'done', outcome: 'opted_out', note: 'done' });
  const now = deps.now();
  const from = sendableFrom(now, deps.settings.quietHours);
  if (from.getTime() > now.getTime()) return change({ dueAt: from, heldUntil: from, note: 'held' });
  const { language } = smsPlan(deps.settings, stored.channelId);
  const message = smsText(deps, { booking, row, language });
  if (!(await deps.store.sms.startCall(row, deps.gateway.perMinute))) {
    turn.spent = true;
    return row;
  }
  const outcome = await deps.gateway.send(mobile.number, message);
  return { ...(await change(recorded(outcome, row, now, message, language))), called: true };
}

/** What an outcome changes in the row. */
function recorded(
  outcome: SendOutcome,
  row: SmsRow,
  now: Date,
  message: string,
  language: string,
): Partial<SmsRow> {
  const done = { state: 'done' as const, outcome: outcome.kind, message, language, note: 'done' as SmsNote };
  switch (outcome.kind) {
    case 'sent':
      return { ...done, ...(outcome.messageId ? { detail: outcome.messageId } : {}) };
    case 'logged':
      return done;
    case 'refused':
    case 'unknown':
      return { ...done, detail: outcome.reason };
    case 'unavailable':
      return {
        state: 'queued',
        detail: outcome.reason,
        language,
        dueAt: new Date(now.getTime() + (outcome.retryAfterMs ?? backOffMs(row.tries + 1))),
        note: 'waiting',
      };
  }
}

/** Posts the row's line once; a failure leaves it waiting for the next turn. */
async function tell(deps: SmsDeps, port: SmsPort, row: SmsRow): Promise<void> {
  const note = row.note as SmsNote;
  await postOnce<SmsKey, unknown>(
    {
      // Held already (this turn's claim): the line is this replica's to post.
      claim: async () => row,
      release: async () => undefined,
      sent: () => deps.store.sms.update(row, { note: undefined, noted: [...row.noted, note] }),
    },
    () => port.tell(row, deps.gateway.name),
  ).catch((err: unknown) =>
    deps.logger.warn(
      { err, trackingNumber: row.trackingNumber },
      "an SMS's thread line could not be posted; the next turn tries again",
    ),
  );
}

const smsLanguage = z.enum(Object.keys(SMS_LANGUAGES) as [SmsLanguage], 'one of en, fil');

/** Receivers' SMS (SMS_*, SEMAPHORE_*; docs/receiver-messages.md), the templates read and checked. */
export const smsEnv = envSettings(
  z.object({
    SMS_GATEWAY: optionalSetting(oneOf(['log', 'semaphore'])).default('log'),
    // The value is never echoed.
    SEMAPHORE_API_KEY: optionalSetting(
      z.string().trim().min(8, 'the API key from semaphore.co (Account → API)'),
    ),
    SEMAPHORE_URL: optionalSetting(baseUrl).default(SEMAPHORE_URL),
    SMS_SENDER_NAME: optionalSetting(
      z
        .string()
        .trim()
        .regex(
          /^[A-Za-z0-9 .-]{1,11}$/,
          'the sender name registered with Semaphore: at most 11 letters, digits or spaces',
        ),
    ),
    SMS_QUIET_HOURS: optionalSetting(
      z
        .string()
        .trim()
        .regex(
          /^(off|([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-3]):[0-5]\d)$/,
          'HH:MM-HH:MM such as 21:00-08:00 (Manila time), or off',
        )
        .refine(
          (text) => text.slice(0, 5) !== text.slice(6),
          'two different times, such as 21:00-08:00, or off',
        )
        .transform((text) => (text === 'off' ? null : { from: text.slice(0, 5), to: text.slice(6) })),
    ).default(DEFAULT_QUIET_HOURS),
    SMS_EVENTS: optionalSetting(
      z
        .string()
        .trim()
        .transform((text) => (text === 'off' ? [] : text.split(',').map((item) => item.trim())))
        .refine(
          (events) => events.every((event) => (SMS_EVENTS as readonly string[]).includes(event)),
          `a comma-separated list of ${SMS_EVENTS.join(', ')}, or off`,
        )
        .transform((events) => events as SmsEvent[]),
    ).default([...SMS_EVENTS]),
    SMS_LANGUAGE: optionalSetting(z.string().trim().pipe(smsLanguage)).default('en'),
    SMS_CHANNEL_LANGUAGES: optionalSetting(
      commaList()
        .refine(
          (items) => items.every((item) => /^[CG][A-Z0-9]{2,}=(en|fil)$/.test(item)),
          'a comma-separated list of channel=language items, such as C0123ABCD=fil',
        )
        .transform(
          (items) => Object.fromEntries(items.map((item) => item.split('='))) as Record<string, SmsLanguage>,
        ),
    ).default({}),
    SMS_TEMPLATES_FILE: optionalSetting(filePath()),
  }),
  (settings, problems): { sms: SmsSettings } => {
    if (
      settings.SMS_GATEWAY === 'semaphore' &&
      !settings.SEMAPHORE_API_KEY &&
      !problems.has('SEMAPHORE_API_KEY')
    )
      problems.add(['SEMAPHORE_API_KEY'], 'SEMAPHORE_API_KEY must be set when SMS_GATEWAY is semaphore');
    let templates: SmsTemplates;
    try {
      templates = SmsTemplates.load(settings.SMS_TEMPLATES_FILE);
    } catch (err) {
      if (!(err instanceof TemplateError)) throw err;
      problems.add(['SMS_TEMPLATES_FILE'], err.message);
      // Read as unset, as a bad value is: the settings are refused anyway.
      templates = SmsTemplates.load(undefined);
    }
    return {
      sms: {
        gateway:
          settings.SMS_GATEWAY === 'semaphore'
            ? {
                kind: 'semaphore',
                apiKey: settings.SEMAPHORE_API_KEY ?? '',
                url: settings.SEMAPHORE_URL,
                senderName: settings.SMS_SENDER_NAME ?? '',
              }
            : { kind: 'log' },
        templates,
        ...(settings.SMS_QUIET_HOURS ? { quietHours: settings.SMS_QUIET_HOURS } : {}),
        events: settings.SMS_EVENTS,
        language: settings.SMS_LANGUAGE,
        channelLanguages: settings.SMS_CHANNEL_LANGUAGES,
      },
    };
  },
  secretsNamed('SEMAPHORE_API_KEY'),
);
