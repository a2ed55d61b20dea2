/** Block Kit for booking: each step, the review of the exact wire body, and the outcome modals. */
import type { ActionsBlock, KnownBlock, ModalView } from '@slack/types';
import type { WaybillEnv } from '../../config.js';
import type { Catalog } from '../../waybill/catalog.js';
import type { SenderProfile } from '../../waybill/profiles.js';
import type { BookingResult } from '../../waybill/responses.js';
import type { BookingRequestWire } from '../../waybill/wire-types.js';
import { partyPicker } from '../addresses/index.js';
import { bookingIds, resolveActions } from '../booking/index.js';
import {
  context,
  cut,
  environmentNotice,
  facts,
  formatMoney,
  header,
  plain,
  retryActions,
  section,
} from '../kit/blocks.js';
import { inputBlock, option } from '../kit/forms.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import { type Outcome, type OutcomeWords, outcomeScreen, outcomeView, type Screen } from '../kit/outcome.js';
import {
  type BookingDraft,
  type BookingOrigin,
  type BookingStep,
  bookingSteps,
  stepFields,
  stepTitles,
} from './form.js';
import { ids } from './ids.js';

const stepNumber = (step: BookingStep) => bookingSteps.indexOf(step) + 1;

function title(step: BookingStep): string {
  return `Book ${stepNumber(step)}/${bookingSteps.length} · ${step === 'sender' ? 'Sender' : stepTitles[step]}`;
}

/** Lines in as few sections as hold them (a section's text holds 3000 characters). */
function sectionsOf(lines: readonly string[]): KnownBlock[] {
  const texts: string[] = [];
  for (const line of lines) {
    const last = texts.at(-1);
    if (last !== undefined && last.length + line.length < 2900) texts[texts.length - 1] = `${last}\n${line}`;
    else texts.push(line);
  }
  return texts.map(section);
}

/** "Check the COD amount": a rebooked COD is kept, but may not be right for this delivery. */
function codCheck(origin: Extract<BookingOrigin, { kind: 'rebook' }>, currency: string): KnownBlock[] {
  if (!origin.codAmount) return [];
  return [
    context(
      `:warning: *Check the COD amount*: ${escapeMrkdwn(formatMoney(origin.codAmount, currency))} is copied from \`${escapeMrkdwn(origin.trackingNumber)}\`. Change it if this delivery collects a different amount.`,
    ),
  ];
}

/** At the top of the first step: what was copied or read, and from where, to check before going on. */
function originBlocks(origin: BookingOrigin | undefined, currency: string): KnownBlock[] {
  if (!origin) return [];
  if (origin.kind === 'rebook') {
    return [
      context(
        `:repeat: *Rebooking \`${escapeMrkdwn(origin.trackingNumber)}\`*: its parties, service, payment, package and parcels are copied; the tracking number and dates are new. Nothing is sent before the review.`,
      ),
      ...codCheck(origin, currency),
    ];
  }
  const found = origin.recognised.map(
    (r) =>
      `• *${escapeMrkdwn(r.label)}*: ${escapeMrkdwn(cut(r.value, 80))}  _from_ “${escapeMrkdwn(cut(r.words, 80))}”`,
  );
  return [
    ...(found.length > 0
      ? sectionsOf([':mag: *Read from the message*: check these before going on.', ...found])
      : [
          section(
            ':warning: *Nothing in the message could be read for certain*, so the form is empty: fill it in from the message.',
          ),
        ]),
    ...origin.notes.slice(0, 10).map((note) => context(`:warning: ${escapeMrkdwn(cut(note, 300))}`)),
    context(`_The message:_ ${escapeMrkdwn(cut(origin.text, 600))}`),
  ];
}

export interface StepViewInput {
  step: Exclude<BookingStep, 'review'>;
  draft: BookingDraft;
  catalog: Catalog;
  currency: string;
  required: ReadonlySet<string>;
  profiles: readonly SenderProfile[];
  maxParcels: number;
  env: WaybillEnv;
  metadata: string;
  notices?: readonly string[];
}

function backButton(): ActionsBlock {
  return {
    type: 'actions',
    elements: [{ type: 'button', action_id: ids.bookingBack, text: plain('← Back') }],
  };
}

function profileSelect(profiles: readonly SenderProfile[], suffix: string): KnownBlock[] {
  if (profiles.length === 0) return [];
  return [
    {
      type: 'input',
      block_id: `profile#${suffix}`,
      optional: true,
      dispatch_action: true,
      label: plain('Sender profile'),
      hint: plain('Fills in the sender and return party; everything stays editable'),
      element: {
        type: 'static_select',
        action_id: ids.bookingProfile,
        placeholder: plain('Choose a regular sender'),
        options: profiles.map((profile) => option({ value: profile.id, label: profile.label })),
      },
    },
  ];
}

function parcelActions(draft: BookingDraft, maxParcels: number): ActionsBlock {
  const elements: ActionsBlock['elements'] = [];
  if (draft.parcels < maxParcels) {
    elements.push({ type: 'button', action_id: ids.bookingAddParcel, text: plain('+ Add parcel') });
  }
  if (draft.parcels > 0) {
    elements.push({
      type: 'static_select',
      action_id: ids.bookingRemoveParcel,
      placeholder: plain('Remove a parcel…'),
      options: Array.from({ length: draft.parcels }, (_, i) =>
        option({ value: String(i), label: `Parcel ${i + 1}` }),
      ),
    });
  }
  elements.push({ type: 'button', action_id: ids.bookingBack, text: plain('← Back') });
  return { type: 'actions', block_id: `parcel_actions#${draft.rev}`, elements };
}

export function bookingStepView(input: StepViewInput): ModalView {
  const { step, draft, catalog, required, env } = input;
  const suffix = String(draft.rev);
  const values = input.draft.input;
  const fields = stepFields(step, catalog, draft.parcels);
  const blocks: KnownBlock[] = [
    ...environmentNotice(env),
    ...(step === 'shipment' ? originBlocks(draft.origin, input.currency) : []),
    ...(input.notices ?? []).map((notice) => context(`:warning: ${escapeMrkdwn(notice)}`)),
  ];
  const inputs = (from: number, to?: number) =>
    fields.slice(from, to).map((field) => inputBlock(field, { values, required, suffix }));
  const picker = (party: string, label: string) =>
    partyPicker({ party, label, actionId: ids.bookingParty, suffix });
  switch (step) {
    case 'shipment':
      blocks.push(...inputs(0));
      break;
    case 'receiver':
      blocks.push(
        header('Receiver (consignee)'),
        picker('consignee', 'Saved receiver'),
        ...inputs(0),
        backButton(),
      );
      break;
    case 'sender': {
      const returnStart = fields.findIndex((field) => field.path.startsWith('returnTo.'));
      blocks.push(
        ...profileSelect(input.profiles, suffix),
        header('Sender (shipper)'),
        picker('shipper', 'Saved sender'),
        ...inputs(0, returnStart),
        header('Return to'),
        context('Leave the return party empty to return undelivered goods to the sender.'),
        picker('returnTo', 'Saved return party'),
        ...inputs(returnStart),
        backButton(),
      );
      break;
    }
    case 'parcels':
      blocks.push(
        context(
          `Parcels are child waybills, numbered from the booking's tracking number. Up to ${input.maxParcels}.`,
        ),
        ...inputs(0),
        parcelActions(draft, input.maxParcels),
      );
      break;
  }
  return {
    type: 'modal',
    callback_id: ids.bookingStep,
    title: plain(title(step)),
    submit: plain('Next'),
    close: plain('Cancel'),
    private_metadata: input.metadata,
    notify_on_close: true,
    blocks,
  };
}

type WireKey = Exclude<keyof BookingRequestWire, 'childWaybills'>;

const party = (prefix: 'shipper' | 'consignee' | 'return'): WireKey[] =>
  (
    [
      'Name',
      'Contact',
      'Email',
      'Address',
      'Address1',
      'Address2',
      'Address3',
      'Address4',
      'Postal',
      'Country',
      'Latitude',
      'Longitude',
    ] as const
  ).map((suffix) => `${prefix}${suffix}` as WireKey);

/** The review groups the exact wire keys the way the steps did. */
const reviewGroups: [string, WireKey[]][] = [
  [
    'Shipment',
    [
      'trackingNumber',
      'ServiceType',
      'paymentMethod',
      'codAmount',
      'declaredValue',
      'quantity',
      'pickupDate',
      'expectedDeliveryDate',
      'itemDescription',
      'handlingInstructions',
      'OperatorContactNumber',
      'referenceNumber1',
      'referenceNumber2',
      'referenceNumber3',
      'referenceNumber4',
      'referenceNumber5',
    ],
  ],
  [
    'Package',
    ['packageType', 'packageLength', 'packageWidth', 'packageHeight', 'Packagevolume', 'PackageWeight'],
  ],
  ['Receiver', party('consignee')],
  ['Sender', ['shipperCode', ...party('shipper'), 'merchantName', 'warehouseName']],
  ['Return to', party('return')],
];

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
    blocks.push(header(group), ...facts(shown.map((key) => [key, wire[key]])));
  }
  if (wire.childWaybills.length > 0) {
    blocks.push(header(`Parcels (${wire.childWaybills.length})`), section(parcelLines(wire)));
  }
  blocks.push(backButton());
  return {
    type: 'modal',
    callback_id: ids.bookingReview,
    title: plain(title('review')),
    submit: plain('Confirm booking'),
    close: plain('Cancel'),
    private_metadata: metadata,
    notify_on_close: true,
    blocks,
  };
}

/** What a booked attempt shows: the courier's reference, and where the card went (or why not). */
export interface BookingDone {
  trackingRefNo: string;
  postedNote: string;
}

/** The booking's words for each outcome of its courier call (rendered by kit/outcome.ts). */
const bookingOutcomes: OutcomeWords<BookingDone> = {
  callbackId: bookingIds.bookingOutcome,
  working: (_, trackingNumber) => ({
    title: 'Booking…',
    blocks: [
      section(`:hourglass_flowing_sand: *Booking \`${escapeMrkdwn(trackingNumber)}\`…*`),
      context('You can close this window: the booking card will be posted to the channel.'),
    ],
  }),
  done: ({ trackingRefNo, postedNote }, trackingNumber) => ({
    title: 'Booked',
    blocks: [
      section(
        `:white_check_mark: *Booked \`${escapeMrkdwn(trackingNumber)}\`*\nCourier reference: \`${escapeMrkdwn(trackingRefNo)}\``,
      ),
      context(postedNote),
    ],
  }),
  failed: (reason) => ({
    title: 'Booking failed',
    blocks: [
      section(`:warning: *Not booked.*\n${escapeMrkdwn(reason)}`),
      context('Your booking is kept: try again as it is, or change it first.'),
      retryActions(ids.bookingEdit, ids.bookingRetry, 'Change details'),
    ],
  }),
  unknown: (reason, attemptKey, trackingNumber) => ({
    title: 'Outcome unknown',
    blocks: [
      section(
        `:question: *${escapeMrkdwn(reason || `Booking outcome unknown: ${trackingNumber} may or may not have been created.`)}*`,
      ),
      context(
        'The bot will not send this booking again by itself. Check with the courier (or the courier reference on your next list), then *Resolve*: say whether the courier has it.',
      ),
      resolveActions(attemptKey),
    ],
  }),
  inFlight: (trackingNumber) => ({
    title: 'Booking…',
    blocks: [
      section(
        `:hourglass_flowing_sand: \`${escapeMrkdwn(trackingNumber)}\` is already being booked; it is sent once.`,
      ),
    ],
  }),
};

/** The outcome modal of a booking. */
export function bookingOutcomeView(
  outcome: Outcome<BookingDone>,
  trackingNumber: string,
  env: WaybillEnv,
  metadata: string,
): ModalView {
  return outcomeView(bookingOutcomes, outcome, { trackingNumber, env, metadata });
}

export function bookingWorkingView(trackingNumber: string, env: WaybillEnv, metadata: string): ModalView {
  return bookingOutcomeView({ state: 'working', detail: undefined }, trackingNumber, env, metadata);
}

export function bookingDoneView(
  trackingNumber: string,
  result: Pick<BookingResult, 'trackingRefNo'>,
  postedNote: string,
  env: WaybillEnv,
  metadata: string,
): ModalView {
  const detail = { trackingRefNo: result.trackingRefNo, postedNote };
  return bookingOutcomeView({ state: 'done', detail }, trackingNumber, env, metadata);
}

/** Resolved as not booked: the usual confirmation sends it again. */
export function resolvedNotBookedView(trackingNumber: string, env: WaybillEnv, metadata: string): ModalView {
  const screen: Screen = {
    title: 'Not booked',
    blocks: [
      section(
        `:heavy_multiplication_x: *Recorded: the courier does not have \`${escapeMrkdwn(trackingNumber)}\`.*`,
      ),
      context('Nothing is booked. Your booking is kept: send it again, or change it first.'),
      {
        type: 'actions',
        elements: [
          { type: 'button', action_id: ids.bookingRetry, text: plain('Send again'), style: 'primary' },
          { type: 'button', action_id: ids.bookingEdit, text: plain('Change details') },
        ],
      },
    ],
  };
  return outcomeScreen(bookingOutcomes, screen, { env, metadata });
}

export function bookingExpiredView(env: WaybillEnv): ModalView {
  const screen: Screen = {
    title: 'Booking expired',
    blocks: [section('This booking form has expired and nothing was sent. Type `/book` to start again.')],
  };
  return outcomeScreen(bookingOutcomes, screen, { env, metadata: '' });
}
