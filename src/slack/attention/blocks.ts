/** What needs attention, in words: each rule a plain sentence with its age; the list for /waybill attention and the Home tab. */
import type { KnownBlock } from '@slack/types';
import { ATTENTION_RULES, type AttentionItem } from '../../operations/attention.js';
import { reminderId } from '../../operations/reminders.js';
import { context, header, section } from '../kit/blocks.js';
import type { ViewerCalls } from './calls.js';
import { itemBlocks, itemLine } from './item.js';

/** How much of each section (yours, the team's) is shown: items with their call and buttons, then plain lines. */
export interface Shown {
  /** Items with their call and buttons: two blocks each. */
  acted: number;
  /** Lines after those, in one section far below Slack's 3,000 characters. */
  lines: number;
}

/** The command's: 2 × (1 + 10 × 2 + 1) + 1 = 45 blocks at most, within a message's 50. */
export const SHOWN: Shown = { acted: 10, lines: 15 };

/** The Home tab's, less: at most 17 blocks of its 100, the tab has its own lists below. */
export const HOME_SHOWN: Shown = { acted: 3, lines: 5 };

function listed(
  items: readonly AttentionItem[],
  now: Date,
  viewer: ViewerCalls,
  mine: boolean,
  { acted, lines }: Shown,
  reminded: ReadonlySet<string>,
): KnownBlock[] {
  const rest = items.slice(acted, acted + lines).map((item) => itemLine(item, now, !mine));
  const more = items.length - Math.min(items.length, acted + lines);
  const tail = [...rest, ...(more > 0 ? [`…and ${more} more`] : [])];
  return [
    // Only an item's owner may snooze it, once it was reminded.
    ...items
      .slice(0, acted)
      .flatMap((item) =>
        itemBlocks(item, now, viewer, { withOwner: !mine, snooze: mine && reminded.has(reminderId(item)) }),
      ),
    ...(tail.length > 0 ? [section(tail.join('\n'))] : []),
  ];
}

/**
 * Yours first, then the team's (with their owners): the blocks of the list, the first items of each
 * with what the call needs where `viewer` may see the booking, and their buttons; Snooze on those of
 * `reminded` (their ids) that are the viewer's.
 */
export function attentionBlocks(
  items: readonly AttentionItem[],
  userId: string,
  now: Date,
  viewer: ViewerCalls,
  { shown = SHOWN, reminded = new Set<string>() }: { shown?: Shown; reminded?: ReadonlySet<string> } = {},
): KnownBlock[] {
  const mine = items.filter((item) => item.ownerId === userId);
  const others = items.filter((item) => item.ownerId !== userId);
  if (items.length === 0) return [header('Needs attention'), context('Nothing needs attention.')];
  const part = (title: string, list: readonly AttentionItem[], own: boolean): KnownBlock[] =>
    list.length
      ? [section(`*${title} (${list.length})*`), ...listed(list, now, viewer, own, shown, reminded)]
      : [section(`*${title} (0)*\nNothing.`)];
  return [
    header(`Needs attention (${items.length})`),
    ...part('Yours', mine, true),
    ...part("The team's", others, false),
  ];
}

/** The items whose call the list reads: the first of each section. */
export function actedOn(items: readonly AttentionItem[], userId: string, { acted }: Shown = SHOWN) {
  const mine = items.filter((item) => item.ownerId === userId);
  const others = items.filter((item) => item.ownerId !== userId);
  return [...mine.slice(0, acted), ...others.slice(0, acted)];
}

/** The message text of the list, for notifications and screen readers. */
export function attentionText(items: readonly AttentionItem[], userId: string): string {
  const mine = items.filter((item) => item.ownerId === userId).length;
  return `Needs attention: ${items.length}, ${mine} of them yours.`;
}

/** Each rule's items, counted, as the daily digest says it: "2 failed attempts · 1 COD not remitted". */
export function attentionCounts(items: readonly AttentionItem[]): string {
  const named: Record<AttentionItem['rule'], string> = {
    unknown: 'outcome unknown',
    failed: 'failed, nothing since',
    pickup: 'not picked up',
    stale: 'in transit too long',
    cod: 'COD not remitted',
  };
  return ATTENTION_RULES.map((rule) => [rule, items.filter((item) => item.rule === rule).length] as const)
    .filter(([, n]) => n > 0)
    .map(([rule, n]) => `${n} ${named[rule]}`)
    .join(' · ');
}
