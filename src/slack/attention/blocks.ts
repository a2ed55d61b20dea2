/** What needs attention, in words: each rule a plain sentence with its age; the list for /waybill attention and the Home tab. */
import type { KnownBlock } from '@slack/types';
import { ATTENTION_RULES, type AttentionItem } from '../../operations/attention.js';
import { context, header, plural, section } from '../kit/blocks.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';

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

/** The lines one section lists at most: a section's text stays far below Slack's 3,000 characters. */
export const LINES_SHOWN = 15;

function listed(items: readonly AttentionItem[], now: Date, withOwner: boolean, shown: number): string {
  const lines = items.slice(0, shown).map((item) => itemLine(item, now, withOwner));
  const more = items.length - Math.min(items.length, shown);
  return [...lines, ...(more > 0 ? [`…and ${more} more`] : [])].join('\n');
}

/** Yours first, then the team's (with their owners): the blocks of the list. */
export function attentionBlocks(
  items: readonly AttentionItem[],
  userId: string,
  now: Date,
  shown = LINES_SHOWN,
): KnownBlock[] {
  const mine = items.filter((item) => item.ownerId === userId);
  const others = items.filter((item) => item.ownerId !== userId);
  if (items.length === 0) return [header('Needs attention'), context('Nothing needs attention.')];
  return [
    header(`Needs attention (${items.length})`),
    section(`*Yours (${mine.length})*\n${mine.length ? listed(mine, now, false, shown) : 'Nothing.'}`),
    section(
      `*The team's (${others.length})*\n${others.length ? listed(others, now, true, shown) : 'Nothing.'}`,
    ),
  ];
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
