/** What reminders say: an owner's DM (each item with what the call needs and the buttons that end it) and the escalation to the channel (pure). */
import type { ActionsBlock, KnownBlock } from '@slack/types';
import type { AttentionItem } from '../../operations/attention.js';
import { SNOOZE_CHOICES, type SnoozeChoice } from '../../operations/reminders.js';
import { phoneKey } from '../../waybill/phones.js';
import { itemLine } from '../attention/index.js';
import { bookingIds, ownerBlockId, statusLine } from '../booking/index.js';
import { context, plain, plural, section } from '../kit/blocks.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import { remittanceIds } from '../remittance/index.js';
import { updateIds } from '../update/index.js';
import type { ItemCall, OwnerCalls } from './calls.js';
import { ids } from './ids.js';

/** Items a DM lists with their buttons: two blocks each, within a message's 50 with the rest. */
export const ITEMS_SHOWN = 20;
/** Lines an escalation lists in its one section: far below a section's 3,000 characters, as attention's lists. */
const ESCALATED_SHOWN = 15;

/** The Snooze menu's value: the choice and the item it snoozes. */
export function snoozeValue(choice: SnoozeChoice, item: Pick<AttentionItem, 'rule' | 'key'>): string {
  return `${choice} ${item.rule} ${item.key}`;
}

/** The Snooze menu's value read back; undefined for anything else. */
export function readSnoozeValue(
  value: string | undefined,
): { choice: SnoozeChoice; rule: string; key: string } | undefined {
  const [choice = '', rule = '', ...key] = (value ?? '').split(' ');
  if (!(choice in SNOOZE_CHOICES) || !rule || key.length === 0) return undefined;
  return { choice: choice as SnoozeChoice, rule, key: key.join(' ') };
}

const button = (action_id: string, text: string, value: string) => ({
  type: 'button' as const,
  action_id,
  text: plain(text),
  value,
});

/**
 * A failed attempt's ways forward, before the courier returns the parcel: Reattempt (the update form,
 * to correct the phone, address or delivery date) and Return to sender. Calling is the phone's link.
 */
function attemptButtons(item: AttentionItem) {
  if (item.rule !== 'failed' || !item.trackingNumber) return [];
  return [
    { ...button(updateIds.reattemptOpen, 'Reattempt', item.trackingNumber), style: 'primary' as const },
    button(ids.reminderReturn, 'Return to sender', item.trackingNumber),
  ];
}

/** The button that ends an item: Resolve, the remittance import for COD not remitted, else Record status. */
function endButton(item: AttentionItem, remittance: boolean) {
  if (item.rule === 'unknown')
    return button(
      item.operation === 'update' ? updateIds.resolveUpdateOpen : bookingIds.resolveOpen,
      'Resolve',
      item.key,
    );
  if (!item.trackingNumber) return undefined;
  // A delivered COD parcel is settled by the courier's remittance file, not by another status; only
  // someone who may import it is offered it.
  if (item.rule === 'cod')
    return remittance
      ? button(remittanceIds.remittanceOpen, 'COD remittance', item.trackingNumber)
      : undefined;
  return button(bookingIds.statusOpen, 'Record status', item.trackingNumber);
}

/** The buttons of an item: a failed attempt's ways forward, how it ends, Snooze, and Assign where there is a booking. */
function itemActions(item: AttentionItem, remittance: boolean): ActionsBlock {
  // An unknown outcome is its caller's to resolve, and its booking may not be stored yet: no Assign.
  const trackingNumber = item.rule === 'unknown' ? undefined : item.trackingNumber;
  const end = endButton(item, remittance);
  return {
    type: 'actions',
    // The people picker carries no value: the block names the booking, as on the card.
    ...(trackingNumber ? { block_id: ownerBlockId(trackingNumber) } : {}),
    elements: [
      ...attemptButtons(item),
      ...(end ? [end] : []),
      {
        type: 'static_select',
        action_id: ids.reminderSnooze,
        placeholder: plain('Snooze'),
        options: Object.entries(SNOOZE_CHOICES).map(([choice, text]) => ({
          text: plain(text),
          value: snoozeValue(choice as SnoozeChoice, item),
        })),
      },
      ...(trackingNumber
        ? [{ type: 'users_select' as const, action_id: bookingIds.ownerAssign, placeholder: plain('Assign') }]
        : []),
    ],
  };
}

/** Past the first `shown`: how many more, and where they all are. */
function andMore(items: readonly AttentionItem[], shown: number): KnownBlock[] {
  const more = items.length - shown;
  return more > 0 ? [context(`…and ${more} more: \`/waybill attention\` lists them all.`)] : [];
}

/** The number the receiver's phone is dialled on; undefined when it cannot be dialled. */
const dialledOf = ({ phone, country }: ItemCall) => (phone ? phoneKey(phone, country) : undefined);

/** The receiver's phone, as a `tel:` link when it can be dialled. */
function phoneText(call: ItemCall): string {
  const dialled = dialledOf(call);
  return dialled ? `<tel:${dialled}|${escapeMrkdwn(call.phone)}>` : escapeMrkdwn(call.phone);
}

/** A failed attempt's Call receiver: the phone's link, one click, where it can be dialled. */
function callReceiver(item: AttentionItem, call: ItemCall): string {
  const dialled = item.rule === 'failed' ? dialledOf(call) : undefined;
  return dialled ? `\n:telephone_receiver: <tel:${dialled}|Call receiver>` : '';
}

/** Under an item's line, what its call needs: receiver, phone, COD, then the last status with its reason and note. */
function callLines(item: AttentionItem, call: ItemCall, timeZone: string): string {
  const who = [escapeMrkdwn(call.receiver), phoneText(call), call.cod && `COD ${escapeMrkdwn(call.cod)}`];
  const last = call.status ? `\nLast: ${statusLine(call.status, timeZone)}` : '';
  return `\n${who.filter(Boolean).join(' · ')}${last}${callReceiver(item, call)}`;
}

/**
 * An owner's DM: why each item needs them, what the call needs where `owner` may see the booking,
 * with its buttons; past ITEMS_SHOWN, how many more and where.
 */
export function reminderMessage(
  items: readonly AttentionItem[],
  now: Date,
  owner: OwnerCalls,
): { text: string; blocks: KnownBlock[] } {
  const text = `${plural(items.length, 'booking')} ${items.length === 1 ? 'needs' : 'need'} your attention.`;
  return {
    text,
    blocks: [
      section(`:bell: *${text}*`),
      ...items.slice(0, ITEMS_SHOWN).flatMap((item) => {
        const call = item.trackingNumber ? owner.calls.get(item.trackingNumber) : undefined;
        return [
          section(itemLine(item, now, false) + (call ? callLines(item, call, owner.timeZone) : '')),
          itemActions(item, owner.remittance),
        ];
      }),
      ...andMore(items, ITEMS_SHOWN),
    ],
  };
}

/** The escalation: items still open after their reminder, each naming its owner. */
export function escalationMessage(
  items: readonly AttentionItem[],
  now: Date,
): { text: string; blocks: KnownBlock[] } {
  const text = `${plural(items.length, 'booking')} still ${items.length === 1 ? 'needs' : 'need'} attention after a reminder.`;
  const lines = items.slice(0, ESCALATED_SHOWN).map((item) => itemLine(item, now, true));
  return {
    text,
    blocks: [
      section(`:rotating_light: *${text}*`),
      section(lines.join('\n')),
      ...andMore(items, ESCALATED_SHOWN),
    ],
  };
}

/** Said to whoever snoozed. */
export function snoozedText(until: string): string {
  return `Snoozed: I will remind you again ${until}.`;
}

export const notSnoozedText = 'That reminder is no longer open: nothing to snooze.';

/** Said to someone who snoozes another person's reminder: nothing changes. */
export function notYoursText(ownerId: string | undefined): string {
  return ownerId
    ? `Only <@${ownerId}>, whose reminder it is, can snooze it; to take it over, assign it to yourself.`
    : notSnoozedText;
}
