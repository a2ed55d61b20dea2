/** The booking modal's step forms (shipment, receiver, sender, parcels): their inputs, pickers and buttons, and what was copied or read on top. */
import type { ActionsBlock, KnownBlock, ModalView } from '@slack/types';
import type { Catalog } from '../../waybill/catalog.js';
import type { SenderProfile } from '../../waybill/profiles.js';
import type { WaybillEnv } from '../../waybill/settings.js';
import { partyPicker } from '../addresses/index.js';
import { context, cut, environmentNotice, formatMoney, header, plain, section } from '../kit/blocks.js';
import { inputBlock, option } from '../kit/forms.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
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

/** A step's modal title: where it is among the steps. */
export function stepTitle(step: BookingStep): string {
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
export function codCheck(origin: Extract<BookingOrigin, { kind: 'rebook' }>, currency: string): KnownBlock[] {
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

export function backButton(): ActionsBlock {
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
    title: plain(stepTitle(step)),
    submit: plain('Next'),
    close: plain('Cancel'),
    private_metadata: input.metadata,
    notify_on_close: true,
    blocks,
  };
}
