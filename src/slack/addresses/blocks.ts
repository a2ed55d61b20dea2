/** Block Kit for the address book: the type-ahead on each party's step, its options, the list and the edit form. */
import type { ActionsBlock, InputBlock, KnownBlock, ModalView, Option } from '@slack/types';
import type { SavedParty } from '../../store/index.js';
import { context, cut, plain, section } from '../kit/blocks.js';
import { type FormField, inputBlocks, MAX_OPTION_TEXT, MAX_OPTIONS } from '../kit/forms.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import { ids } from './ids.js';

/** Parties the list shows: two blocks each, well inside a modal's 100. */
export const MAX_LISTED = 30;

/** The picker's block id names the party it fills: `party_picker:consignee#3`. */
const PICKER_BLOCK = 'party_picker:';

export function pickerBlockId(party: string, suffix?: string): string {
  return `${PICKER_BLOCK}${party}${suffix ? `#${suffix}` : ''}`;
}

/** The party a picker fills, from its block id; undefined for any other block. */
export function partyOfPicker(blockId: string | undefined): string | undefined {
  if (!blockId?.startsWith(PICKER_BLOCK)) return undefined;
  return blockId.slice(PICKER_BLOCK.length).split('#')[0] || undefined;
}

/**
 * A type-ahead over the address book at the top of a party's fields: choosing a party fills them
 * (block_actions), and they stay editable. Slack asks for its options as the dispatcher types
 * (block_suggestion).
 */
export function partyPicker(input: {
  party: string;
  actionId: string;
  label: string;
  suffix?: string;
}): InputBlock {
  return {
    type: 'input',
    block_id: pickerBlockId(input.party, input.suffix),
    optional: true,
    dispatch_action: true,
    label: plain(input.label),
    hint: plain('Type a name, phone or city. Fills in the fields below; change anything after.'),
    element: {
      type: 'external_select',
      action_id: input.actionId,
      min_query_length: 1,
      placeholder: plain('Find a saved party…'),
    },
  };
}

/** Where a party is, in one line: street, barangay, district, city, province, postal code, country. */
function addressLine(party: SavedParty): string {
  const parts = [
    party.street,
    party.barangay,
    party.district,
    party.city,
    party.region,
    party.postal,
    party.country,
  ];
  return parts.filter(Boolean).join(', ');
}

/** One option: "Name · phone" above the address; plain text (Slack shows it as typed), cut to fit. */
export function partyOption(party: SavedParty): Option {
  const where = addressLine(party);
  return {
    text: plain(cut([party.name, party.phone].filter(Boolean).join(' · '), MAX_OPTION_TEXT)),
    value: party.id,
    ...(where ? { description: plain(cut(where, MAX_OPTION_TEXT)) } : {}),
  };
}

export function partyOptions(parties: readonly SavedParty[]): { options: Option[] } {
  return { options: parties.slice(0, MAX_OPTIONS).map(partyOption) };
}

// ---------------------------------------------------------------------------------------------------
// /waybill addresses
// ---------------------------------------------------------------------------------------------------

export const SEARCH_BLOCK = 'addresses_query';

function partyBlocks(party: SavedParty, at: (date: Date) => string): KnownBlock[] {
  const who = [`*${escapeMrkdwn(cut(party.name, 100))}*`, party.phone, party.email]
    .filter(Boolean)
    .map((text, i) => (i === 0 ? text : escapeMrkdwn(text)))
    .join(' · ');
  const used = `booked ${party.uses} time${party.uses === 1 ? '' : 's'}, last ${at(party.lastUsedAt)}`;
  const actions: ActionsBlock = {
    type: 'actions',
    block_id: `party:${party.id}`,
    elements: [
      { type: 'button', action_id: ids.addressesEdit, text: plain('Edit'), value: party.id },
      {
        type: 'button',
        action_id: ids.addressesDelete,
        text: plain('Delete'),
        value: party.id,
        style: 'danger',
        confirm: {
          title: plain('Delete this saved party?'),
          text: plain(
            cut(
              `${party.name} is taken out of the address book. Bookings already made keep their details.`,
              300,
            ),
          ),
          confirm: plain('Delete'),
          deny: plain('Keep it'),
          style: 'danger',
        },
      },
    ],
  };
  return [section(`${who}\n${escapeMrkdwn(addressLine(party))}\n_${used}_`), actions];
}

export interface AddressBookInput {
  query: string;
  /** Up to MAX_LISTED + 1: one more than shown says there are more. */
  parties: readonly SavedParty[];
  metadata: string;
  /** How a date is shown (the dispatchers' time zone). */
  at: (date: Date) => string;
  notice?: string;
}

/** The parties matching a search, each with Edit and Delete, and a field to search again. */
export function addressBookView({ query, parties, metadata, at, notice }: AddressBookInput): ModalView {
  const shown = parties.slice(0, MAX_LISTED);
  const quoted = `“${escapeMrkdwn(cut(query, 100))}”`;
  const summary =
    shown.length === 0
      ? query
        ? `No saved party matches ${quoted}.`
        : 'The address book is empty: every party booked is saved here.'
      : query
        ? `Saved parties matching ${quoted}, most recently booked first.`
        : 'The most recently booked parties. Search by name, phone or city.';
  const blocks: KnownBlock[] = [
    ...(notice ? [context(`:white_check_mark: ${escapeMrkdwn(notice)}`)] : []),
    {
      type: 'input',
      block_id: SEARCH_BLOCK,
      optional: true,
      label: plain('Find a saved party'),
      element: {
        type: 'plain_text_input',
        action_id: SEARCH_BLOCK,
        max_length: 100,
        placeholder: plain('A name, phone or city'),
        ...(query ? { initial_value: cut(query, 100) } : {}),
      },
    },
    context(summary),
    ...shown.flatMap((party) => partyBlocks(party, at)),
    ...(parties.length > MAX_LISTED
      ? [context(`Only the first ${MAX_LISTED} are shown: search for more words to find the others.`)]
      : []),
  ];
  return {
    type: 'modal',
    callback_id: ids.addressesList,
    title: plain('Address book'),
    submit: plain('Search'),
    close: plain('Close'),
    private_metadata: metadata,
    blocks,
  };
}

export interface PartyEditInput {
  fields: readonly FormField[];
  required: ReadonlySet<string>;
  /** By the fields' paths: `party.name`, … */
  values: unknown;
  metadata: string;
  uses: number;
  /** Why the form is shown again (someone changed the party meanwhile). */
  notice?: string;
}

/** A saved party's details, to change; validated by the domain's party schema on Save. */
export function partyEditView({
  fields,
  required,
  values,
  metadata,
  uses,
  notice,
}: PartyEditInput): ModalView {
  return {
    type: 'modal',
    callback_id: ids.addressesEditForm,
    title: plain('Edit saved party'),
    submit: plain('Save'),
    close: plain('Back'),
    private_metadata: metadata,
    blocks: [
      ...(notice ? [section(`:warning: ${escapeMrkdwn(notice)}`)] : []),
      context(
        `Booked ${uses} time${uses === 1 ? '' : 's'}. Changes apply to the next bookings; those already made keep their details.`,
      ),
      ...inputBlocks(fields, { values, required }),
    ],
  };
}

/** Where a saved party was chosen in a type-ahead but has been deleted since it was offered. */
export function partyGoneNotice(name: string): string {
  return `The saved party "${name}" was deleted from the address book meanwhile, so nothing was filled in.`;
}

/** Said instead of the form when the party is gone (someone deleted it meanwhile). */
export function partyGoneView(metadata: string): ModalView {
  return {
    type: 'modal',
    callback_id: ids.addressesEditForm,
    title: plain('Edit saved party'),
    close: plain('Back'),
    private_metadata: metadata,
    blocks: [section('This party is no longer in the address book: someone deleted it meanwhile.')],
  };
}
