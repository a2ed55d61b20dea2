/** What reminders say: an owner's DM (each item with what the call needs and the buttons that end it) and the escalation to the channel (pure). */
import type { KnownBlock } from '@slack/types';
import type { AttentionItem } from '../../operations/attention.js';
import { itemBlocks, itemLine, type ViewerCalls } from '../attention/index.js';
import { context, plural, section } from '../kit/blocks.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';

/** Items a DM lists with their buttons: two blocks each, within a message's 50 with the rest. */
export const ITEMS_SHOWN = 20;
/** Lines an escalation lists in its one section: far below a section's 3,000 characters, as attention's lists. */
const ESCALATED_SHOWN = 15;

/** Past the first `shown`: how many more, and where they all are. */
function andMore(count: number, shown: number): KnownBlock[] {
  const more = count - shown;
  return more > 0 ? [context(`…and ${more} more: \`/waybill attention\` lists them all.`)] : [];
}

/**
 * An owner's DM: why each item needs them, what the call needs where `owner` may see the booking,
 * with its buttons; past ITEMS_SHOWN, how many more and where.
 */
export function reminderMessage(
  items: readonly AttentionItem[],
  now: Date,
  owner: ViewerCalls,
): { text: string; blocks: KnownBlock[] } {
  const text = `${plural(items.length, 'booking')} ${items.length === 1 ? 'needs' : 'need'} your attention.`;
  return {
    text,
    blocks: [
      section(`:bell: *${text}*`),
      ...items
        .slice(0, ITEMS_SHOWN)
        .flatMap((item) => itemBlocks(item, now, owner, { withOwner: false, snooze: true })),
      ...andMore(items.length, ITEMS_SHOWN),
    ],
  };
}

/** A redrawn DM's line: an item still open, or one settled (its number, and how). */
export type RedrawnLine = { item: AttentionItem } | { settled: { trackingNumber?: string; how: string } };

/**
 * A DM redrawn after some of its items were settled: those say so, without buttons; the rest as
 * first drawn. `total`: the items the DM reminded, of which `lines` are the first.
 */
export function redrawnMessage(
  lines: readonly RedrawnLine[],
  total: number,
  now: Date,
  owner: ViewerCalls,
): { text: string; blocks: KnownBlock[] } {
  const open = lines.filter((line) => 'item' in line).length + (total - lines.length);
  const text =
    open === 0
      ? 'Settled: nothing here needs your attention now.'
      : `${plural(open, 'booking')} here still ${open === 1 ? 'needs' : 'need'} your attention.`;
  return {
    text,
    blocks: [
      section(`${open === 0 ? ':white_check_mark:' : ':bell:'} *${text}*`),
      ...lines.flatMap((line) =>
        'item' in line
          ? itemBlocks(line.item, now, owner, { withOwner: false, snooze: true })
          : [section(settledLine(line.settled))],
      ),
      ...andMore(total, lines.length),
    ],
  };
}

function settledLine({ trackingNumber, how }: { trackingNumber?: string; how: string }): string {
  const what = trackingNumber ? `\`${escapeMrkdwn(trackingNumber)}\`` : 'A booking';
  return `:white_check_mark: ~${what}~ settled: ${how}`;
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
      ...andMore(items.length, ESCALATED_SHOWN),
    ],
  };
}
