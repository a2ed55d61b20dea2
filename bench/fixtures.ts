/** What the bench sends: its secrets and channel, the /quote commands and submissions, and booking drafts. */
import { pino } from 'pino';
import { ids } from '../fakes/ids.js';
import { quoteCommandText as quoteText, quoteTyped } from '../fakes/quote-values.js';
import type { FakeCall, FakeSlack } from '../fakes/slack-fake.js';
import {
  externalSelect,
  interactiveBody,
  plainText,
  slashCommandBody,
  viewSubmissionPayload,
} from '../fakes/slack-requests.js';
import { stateFor } from '../fakes/view-state.js';
import { loadBotConfig, loadWaybillConfig } from '../src/config.js';
import { validateDraft } from '../src/slack/book/draft.js';
import type { BookingDraft } from '../src/slack/book/form.js';
import { createCore } from '../src/slack/core.js';
import { placeOptions } from '../src/slack/places/options.js';
import { openStore } from '../src/store/index.js';
import type { WaybillClient } from '../src/waybill/client.js';
import { type Json, viewOf } from './slack-calls.js';

export const secrets = {
  botToken: 'xoxb-bench-0000-BENCHTOKEN',
  signingSecret: 'bench-signing-secret-0123456789',
};
export const CHANNEL = 'CDISPATCH';

/** A booking as the review step holds it (what the end-to-end tests type through the steps), dated ahead. */
function bookingInput(): Record<string, unknown> {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const contact = (name: string, phone: string) => ({ name, phone, email: null });
  const place = (street: string, city: string, postal: string, country: string) => ({
    street,
    region: null,
    city,
    district: null,
    barangay: null,
    postal,
    country,
    latitude: null,
    longitude: null,
  });
  const parcel = (i: number, weight: string) => ({
    quantity: '1',
    uom: 'CM',
    packageType: 'BOX',
    itemDescription: `Scale ${i}`,
    remarks: null,
    length: '30',
    width: '20',
    height: '10',
    weight,
  });
  return {
    pickupAt: { date: day(1), time: { time: '10:00', timeZone: 'Asia/Manila' } },
    expectedDeliveryAt: { date: day(2), time: { time: '17:00', timeZone: 'Asia/Manila' } },
    serviceType: 'DOOR_TO_DOOR',
    trackingNumber: null,
    paymentMethod: 'COD',
    codAmount: '1500',
    declaredValue: '2000',
    itemDescription: 'Kitchen scales',
    handlingInstructions: 'Fragile',
    package: { type: 'BOX', weight: '4.5', length: '40', width: '30', height: '20', volume: null },
    operatorContactNumber: '+63 917 555 0100',
    reference1: 'PO-77',
    consignee: {
      ...contact('Maria Santos', '0917 123 4567'),
      ...place('88 Rizal Ave', 'Cebu City', '6000', 'ph'),
    },
    shipperCode: 'ACME-PSG',
    shipper: {
      ...contact('Acme Pasig Warehouse', '0917 000 0202'),
      ...place('25 E. Rodriguez Jr. Avenue', 'Pasig', '1600', 'PH'),
    },
    merchantName: 'Acme Trading Inc.',
    warehouseName: 'Pasig Warehouse 2',
    returnTo: {
      ...contact('Acme Returns Desk', '0917 000 0303'),
      ...place('88 Sample Street', 'Quezon City', '1101', 'PH'),
    },
    quantity: null,
    childWaybills: [parcel(1, '1.5'), parcel(2, '1.5'), parcel(3, '1.25')],
  };
}

export function quoteCommand(fake: FakeSlack, tag: string, i: number) {
  const key = `${tag}.quote.${i}`;
  const body = slashCommandBody({
    command: '/quote',
    text: quoteText,
    user_id: `U${tag.toUpperCase()}${i}`,
    channel_id: CHANNEL,
    trigger_id: `trigger.${key}`,
    response_url: fake.responseUrl(`commands/${key}`),
  });
  return { key, body };
}

/** What a dispatcher types into each place input of the quote form before picking the first name offered. */
const placesTyped = {
  shipper: { region: 'metro', city: 'makati', barangay: 'bel-a' },
  consignee: { region: 'cebu', city: 'cebu c', barangay: 'lahu' },
};

let placesPicked: Record<string, string> | undefined;

/**
 * The quote form's places as a dispatcher fills them: a few letters typed into each type-ahead, the
 * first name it offers (the bot's own answer) picked, province, city, then barangay, so that the bot
 * prices every form rather than refusing a place.
 */
function pickedPlaces(): Record<string, string> {
  if (placesPicked) return placesPicked;
  const picked: Record<string, string> = {};
  for (const [party, fields] of Object.entries(placesTyped)) {
    const state: Record<string, Record<string, ReturnType<typeof plainText>>> = {
      [`${party}.country`]: { value: plainText('PH') },
    };
    for (const [field, typed] of Object.entries(fields)) {
      const path = `${party}.${field}`;
      const first = placeOptions(path, typed, state, 'refuse')[0]?.value;
      if (first === undefined)
        throw new Error(`the bench's place type-ahead offers nothing for "${typed}" in ${path}`);
      picked[path] = first;
      state[path] = { value: externalSelect(first) };
    }
  }
  placesPicked = picked;
  return picked;
}

export interface OpenedForm {
  viewId: string;
  draftId: string;
  user: string;
  body: string;
}

/** The submission of a form the bot opened: its blocks, with the quote typed in. */
export function quoteSubmission(open: FakeCall): OpenedForm {
  const sent = viewOf(open);
  const answered = ((open.response?.body as Json | undefined)?.view ?? {}) as Json;
  const viewId = String(answered.id ?? '');
  const privateMetadata = String(sent.private_metadata ?? '');
  const blocks = (sent.blocks ?? []) as unknown[];
  const key = String(open.body.trigger_id).replace(/^trigger\./, '');
  const user = `U${key.split('.')[0]?.toUpperCase()}${key.split('.').at(-1)}`;
  const payload = viewSubmissionPayload({
    callbackId: String(sent.callback_id),
    privateMetadata,
    viewId,
    hash: String(answered.hash ?? 'h1'),
    // biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON as the fake recorded it
    blocks: blocks as any[],
    // biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON as the fake recorded it
    stateValues: stateFor(blocks as any[], { ...quoteTyped, ...pickedPlaces() }),
    user,
  });
  return {
    viewId,
    draftId: String((JSON.parse(privateMetadata) as { draftId?: string }).draftId),
    user,
    body: interactiveBody(payload),
  };
}

export interface BookingCase {
  draftId: string;
  trackingNumber: string;
  viewId: string;
  user: string;
}

/** `n` booking drafts at the review step, written to the bot's database (as `env` names it) before it starts. */
export async function createBookingDrafts(fake: FakeSlack, tag: string, env: NodeJS.ProcessEnv, n: number) {
  const bot = loadBotConfig(env);
  const store = await openStore({ ...bot.database, leaseRenewMs: 0 });
  const waybill = loadWaybillConfig(env);
  const deps = createCore({
    waybill,
    courier: {} as WaybillClient,
    store,
    logger: pino({ level: 'silent' }),
    bot,
  });
  const cases: BookingCase[] = [];
  try {
    for (let i = 0; i < n; i += 1) {
      const user = `UBK${tag.toUpperCase()}${i}`;
      const data: BookingDraft = {
        input: bookingInput(),
        step: 'review',
        parcels: 3,
        rev: 1,
        generatedTrackingNumber: await store.trackingNumbers.next(`BN${tag.toUpperCase()}`),
        responseUrl: fake.responseUrl(`commands/${tag}.book.${i}`),
      };
      const checked = validateDraft(deps, data);
      if (!checked.ok) {
        throw new Error(`bench booking draft is not valid: ${JSON.stringify(checked.errors.slice(0, 3))}`);
      }
      const draft = await store.drafts.create<BookingDraft>({
        kind: 'booking',
        userId: user,
        channelId: CHANNEL,
        data,
      });
      cases.push({
        draftId: draft.id,
        trackingNumber: data.generatedTrackingNumber ?? '',
        viewId: `VBOOK${tag.toUpperCase()}${String(i).padStart(5, '0')}`,
        user,
      });
    }
  } finally {
    await store.close();
  }
  return cases;
}

export function bookingSubmission(c: BookingCase): { key: string; body: string } {
  const payload = viewSubmissionPayload({
    callbackId: ids.bookingReview,
    privateMetadata: JSON.stringify({ draftId: c.draftId }),
    viewId: c.viewId,
    hash: 'h1',
    blocks: [],
    stateValues: {},
    user: c.user,
  });
  return { key: c.trackingNumber, body: interactiveBody(payload) };
}
