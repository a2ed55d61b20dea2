/**
 * One item needing attention as its viewer acts on it (pure): its line, what the call needs where they
 * may see the booking, and its buttons; shared by a reminder DM, `/waybill attention` and the Home tab.
 */
import type { ActionsBlock, KnownBlock } from '@slack/types';
import type { AttentionItem } from '../../operations/attention.js';
import { SNOOZE_CHOICES, type SnoozeChoice } from '../../operations/reminders.js';
import { phoneKey } from '../../waybill/phones.js';
import { bookingIds, ownerBlockId, statusLine } from '../booking/index.js';
import { plain, plural, section } from '../kit/blocks.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import { remittanceIds } from '../remittance/index.js';
import { updateIds } from '../update/index.js';
import type { ItemCall, ViewerCalls } from './calls.js';
import { ids } from './ids.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "40 min", "3 h", "6 days": how long ago, roughly, as a dispatcher says it. */
export function age(ms: number): string {
  if (ms < HOUR) return `${Math.max(1, Math.floor(ms / MINUTE))} min`;
  if (ms < 2 * DAY) return `${Math.floor(ms / HOUR)} h`;
  return `${Math.floor(ms / DAY)} days`;
}

/** One item: what it is, why it needs attention (a plain sentence) and since when. */
export function itemLine(item: AttentionItem, now: Date, withOwner: boolean): string {
  const ago = age(now.getTime() - item.since.getTime());
  const what = item.trackingNumber ? `\`${escapeMrkdwn(item.trackingNumber)}\`` : 'A booking';
  const why: Record<AttentionItem['rule'], string> = {
    unknown: `the courier call's outcome is still unknown, ${ago} after it was made: Resolve it`,
    failed: `a failed attempt ${ago} ago, and nothing recorded since`,
    pickup: `no pickup recorded, ${ago} after its pickup time`,
    stale: `picked up or in transit ${ago} ago, and not delivered`,
    cod: `COD delivered ${ago} ago, and not remitted`,
  };
  return `• ${what}: ${why[item.rule]}${attemptsLeftText(item)}${withOwner ? ` · <@${item.ownerId}>` : ''}`;
}

/** A failed attempt's attempts to come, as the courier counts them; nothing for other items. */
function attemptsLeftText({ attemptsLeft }: AttentionItem): string {
  if (attemptsLeft === undefined) return '';
  return attemptsLeft > 0
    ? ` · *${plural(attemptsLeft, 'attempt')} left*`
    : ' · *no attempts left*: the courier returns it to the sender';
}

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

/**
 * The buttons of an item: a failed attempt's ways forward, how it ends, Snooze (its owner's alone, so
 * only where `snooze`), and Assign where there is a booking.
 */
function itemActions(item: AttentionItem, remittance: boolean, snooze: boolean): ActionsBlock {
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
      ...(snooze
        ? [
            {
              type: 'static_select' as const,
              action_id: ids.reminderSnooze,
              placeholder: plain('Snooze'),
              options: Object.entries(SNOOZE_CHOICES).map(([choice, text]) => ({
                text: plain(text),
                value: snoozeValue(choice as SnoozeChoice, item),
              })),
            },
          ]
        : []),
      ...(trackingNumber
        ? [{ type: 'users_select' as const, action_id: bookingIds.ownerAssign, placeholder: plain('Assign') }]
        : []),
    ],
  };
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
 * An item's two blocks: its line (with its owner where `withOwner`), its call where `viewer` may see the
 * booking, and its buttons (Snooze where `snooze`: the viewer owns it).
 */
export function itemBlocks(
  item: AttentionItem,
  now: Date,
  viewer: ViewerCalls,
  { withOwner, snooze }: { withOwner: boolean; snooze: boolean },
): KnownBlock[] {
  const call = item.trackingNumber ? viewer.calls.get(item.trackingNumber) : undefined;
  return [
    section(itemLine(item, now, withOwner) + (call ? callLines(item, call, viewer.timeZone) : '')),
    itemActions(item, viewer.remittance, snooze),
  ];
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
