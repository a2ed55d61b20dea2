/** The words after `/waybill status <tracking number>`, read onto the status vocabulary (waybill/statuses.ts). */
import {
  type FailureReason,
  type ParcelStatus,
  phraseWords,
  REASON_PHRASES,
  REASON_WORDS,
  STATUS_PHRASES,
  STATUS_WORDS,
  statusLabel,
} from '../../waybill/statuses.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';

type Phrase<V> = { words: string[]; value: V };

/** A typed word is a phrase's word, or its start of two letters or more ("addr" for "address"). */
const abbreviates = (typed: string, word: string) =>
  typed === word || (typed.length >= 2 && word.startsWith(typed));

/**
 * The phrases the first tokens name: as many tokens as name any phrase, exact phrases before
 * abbreviated ones. Tokens are whole words as typed, so the note after them is kept as it was.
 */
function phrasesAt<V>(tokens: string[], phrases: readonly Phrase<V>[]) {
  const longest = Math.max(...phrases.map((phrase) => phrase.words.length));
  for (let taken = Math.min(longest, tokens.length); taken > 0; taken--) {
    const typed = phraseWords(tokens.slice(0, taken).join(' '));
    const alike = phrases.filter((phrase) => phrase.words.length === typed.length);
    const exact = alike.filter((phrase) => phrase.words.every((word, i) => word === typed[i]));
    const matched = exact.length
      ? exact
      : alike.filter((phrase) => phrase.words.every((word, i) => abbreviates(typed[i] ?? '', word)));
    // One phrase of each meaning: the first, its key or label.
    const meanings = new Map<string, Phrase<V>>();
    for (const phrase of matched) {
      const meaning = JSON.stringify(phrase.value);
      if (!meanings.has(meaning)) meanings.set(meaning, phrase);
    }
    if (meanings.size)
      return { taken, typed: tokens.slice(0, taken).join(' '), found: [...meanings.values()] };
  }
  return undefined;
}

/** What the words say, as checkStatus takes it; `ambiguous` when they name more than one thing, the choices named. */
export type StatusWords =
  | { status?: ParcelStatus; reason?: FailureReason; note?: string }
  | { ambiguous: string };

/**
 * The status (any of its phrases, any case, `-` or `_` for spaces, words begun: "picked-up", "RTS",
 * "wrong addr"; a reason alone is a failed attempt), then for a failed attempt its reason, then the
 * note. A failed attempt followed by words that are no reason has the reason Other, the words its note.
 */
export function readStatusWords(words: string): StatusWords {
  const tokens = words.trim().split(/\s+/).filter(Boolean);
  const read = phrasesAt(tokens, STATUS_PHRASES);
  if (!read) return {};
  const [first, ...others] = read.found;
  if (!first) return {};
  if (others.length)
    return { ambiguous: choices(read.typed, read.found, (v) => statusLabel(v.status, v.reason)) };
  const { status } = first.value;
  let { reason } = first.value;
  let rest = tokens.slice(read.taken);
  if (status === 'failed_attempt' && !reason && rest.length) {
    const why = phrasesAt(rest, REASON_PHRASES);
    if (why && why.found.length > 1)
      return { ambiguous: choices(why.typed, why.found, (v) => statusLabel(status, v)) };
    reason = why?.found[0]?.value ?? 'other';
    rest = rest.slice(why?.taken ?? 0);
  }
  const note = rest.join(' ');
  return { status, ...(reason ? { reason } : {}), ...(note ? { note } : {}) };
}

/** "`re` could be `returned` (Returned to sender) or `refused` (Failed attempt (refused))." */
function choices<V>(typed: string, found: Phrase<V>[], label: (value: V) => string): string {
  const named = found.map((phrase) => `\`${phrase.words.join(' ')}\` (${label(phrase.value)})`);
  return `\`${escapeMrkdwn(typed)}\` could be ${named.slice(0, -1).join(', ')} or ${named.at(-1)}: write which.`;
}

/** Each status's usual word, then each reason's, for saying what may be written. */
export function usualWords(): string {
  const usual = (words: Record<string, readonly string[]>) =>
    Object.values(words)
      .map(([word]) => `\`${word}\``)
      .join(', ');
  return `the status one of ${usual(STATUS_WORDS)} (any case); a failed attempt is followed by its reason (${usual(REASON_WORDS)})`;
}

/** How to write the command, for a status that cannot be read. */
export function statusUsage(): string {
  return `Write \`/waybill status <tracking number> <status> [note]\`, ${usualWords()}.`;
}
