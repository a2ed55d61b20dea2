/** Block Kit pieces every feature uses: text, facts, money, environment notice, outcome modals, retry. */
import type {
  ActionsBlock,
  ContextBlock,
  HeaderBlock,
  KnownBlock,
  ModalView,
  SectionBlock,
} from '@slack/types';
import { graphemes } from '../../waybill/graphemes.js';
import type { WaybillEnv } from '../../waybill/settings.js';
import { escapeMrkdwn } from './mrkdwn.js';

// Money is worded by the domain, the same on a card as on a printed label.
export { formatMoney } from '../../waybill/fields.js';

export const plain = (text: string) => ({ type: 'plain_text' as const, text, emoji: true });

/** "1 row", "3 rows"; "2 entries" with the plural given. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/**
 * Text cut to at most `max` UTF-16 units, ending in … when cut, never through a character (an emoji,
 * a letter and its accent, a surrogate pair). Cut before escaping, so no entity is cut in half.
 */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let kept = '';
  for (const segment of graphemes(text)) {
    if (kept.length + segment.length > max - 1) break;
    kept += segment;
  }
  return `${kept}…`;
}

export function header(text: string): HeaderBlock {
  return { type: 'header', text: plain(text.slice(0, 150)) };
}

/** `text` is mrkdwn and must already be escaped where it holds user input. */
export function section(text: string): SectionBlock {
  return { type: 'section', text: { type: 'mrkdwn', text: text.slice(0, 3000) } };
}

/** A message for one dispatcher: `text` is mrkdwn, already escaped where it holds anything typed. */
export function notice(emoji: string, text: string): { text: string; blocks: KnownBlock[] } {
  return { text, blocks: [section(`${emoji} ${text}`)] };
}

export function context(text: string): ContextBlock {
  return { type: 'context', elements: [{ type: 'mrkdwn', text: text.slice(0, 3000) }] };
}

/** Said on every message and modal outside live, so nobody mistakes a sandbox price or booking for a real one. */
export function environmentNotice(env: WaybillEnv): KnownBlock[] {
  if (env === 'sandbox') {
    return [context(':test_tube: *Sandbox*: simulated courier, nothing here is a real price or booking.')];
  }
  if (env === 'test') return [context(':construction: *Courier test environment*: not a real booking.')];
  return [];
}

export function environmentTag(env: WaybillEnv): string {
  return env === 'live' ? '' : ` [${env}]`;
}

/** Two-column fields of a section: `*Label*\nvalue`, values escaped here. */
export function facts(pairs: readonly [string, string | undefined][]): SectionBlock[] {
  const shown = pairs.filter(([, value]) => value !== undefined && value !== '');
  const blocks: SectionBlock[] = [];
  // A section holds at most 10 fields.
  for (let i = 0; i < shown.length; i += 10) {
    blocks.push({
      type: 'section',
      fields: shown.slice(i, i + 10).map(([label, value]) => ({
        type: 'mrkdwn' as const,
        text: `*${label}*\n${escapeMrkdwn(value ?? '').slice(0, 1900)}`,
      })),
    });
  }
  return blocks;
}

/** "Makati, PH" from a place. */
export function placeLine(place: {
  city?: string;
  region?: string;
  country?: string;
  postal?: string;
}): string {
  return [place.city || place.region, place.postal, place.country].filter(Boolean).join(', ');
}

/** A modal that reports how something went: no submit, only Close. */
export function outcomeModal(input: {
  callbackId: string;
  title: string;
  metadata: string;
  env: WaybillEnv;
  blocks: KnownBlock[];
}): ModalView {
  return {
    type: 'modal',
    callback_id: input.callbackId,
    title: plain(input.title),
    close: plain('Close'),
    private_metadata: input.metadata,
    notify_on_close: true,
    blocks: [...environmentNotice(input.env), ...input.blocks],
  };
}

/** Try again, and a way back to what was typed (the form, or the booking's details). */
export function retryActions(backId: string, retryId: string, back = 'Back to the form'): ActionsBlock {
  return {
    type: 'actions',
    elements: [
      { type: 'button', action_id: retryId, text: plain('Try again'), style: 'primary' },
      { type: 'button', action_id: backId, text: plain(back) },
    ],
  };
}

/** What a dispatcher reads when the database does not answer: nothing was done, what to do. */
export const storeUnavailableText =
  "The bot's database is not answering right now, so nothing was saved or sent to the courier. Try again in a minute; if it keeps happening, tell whoever runs the bot.";

/** The same, in a small modal put on top of the one the dispatcher was using (which stays as it was). */
export function storeUnavailableView(): ModalView {
  return {
    type: 'modal',
    title: plain('Try again shortly'),
    close: plain('Back'),
    blocks: [
      section(`:warning: ${storeUnavailableText}`),
      context('Close this to go back: what you typed is kept.'),
    ],
  };
}
