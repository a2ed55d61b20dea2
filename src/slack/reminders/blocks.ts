/** What reminders say: an owner's DM (each item with the buttons that end it) and the escalation to the channel (pure). */
import type { ActionsBlock, KnownBlock } from '@slack/types';
import type { AttentionItem } from '../../operations/attention.js';
import { SNOOZE_CHOICES, type SnoozeChoice } from '../../operations/reminders.js';
import { itemLine } from '../attention/index.js';
import { bookingIds, ownerBlockId } from '../booking/index.js';
import { context, plain, plural, section } from '../kit/blocks.js';
import { updateIds } from '../update/index.js';
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

/** The buttons that end an item: Record status or Resolve, Snooze, and Assign where there is a booking. */
function itemActions(item: AttentionItem): ActionsBlock {
  // An unknown outcome is its caller's to resolve, and its booking may not be stored yet: no Assign.
  const trackingNumber = item.rule === 'unknown' ? undefined : item.trackingNumber;
  const end =
    item.rule === 'unknown'
      ? {
          type: 'button' as const,
          action_id: item.operation === 'update' ? updateIds.resolveUpdateOpen : bookingIds.resolveOpen,
          text: plain('Resolve'),
          value: item.key,
        }
      : trackingNumber && {
          type: 'button' as const,
          action_id: bookingIds.statusOpen,
          text: plain('Record status'),
          value: trackingNumber,
        };
  return {
    type: 'actions',
    // The people picker carries no value: the block names the booking, as on the card.
    ...(trackingNumber ? { block_id: ownerBlockId(trackingNumber) } : {}),
    elements: [
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

/** An owner's DM: why each item needs them, with its buttons; past ITEMS_SHOWN, how many more and where. */
export function reminderMessage(
  items: readonly AttentionItem[],
  now: Date,
): { text: string; blocks: KnownBlock[] } {
  const text = `${plural(items.length, 'booking')} ${items.length === 1 ? 'needs' : 'need'} your attention.`;
  return {
    text,
    blocks: [
      section(`:bell: *${text}*`),
      ...items
        .slice(0, ITEMS_SHOWN)
        .flatMap((item) => [section(itemLine(item, now, false)), itemActions(item)]),
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
