/** What a slash command's text asks for: read once, the same way by the access guard and by the command. */
import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from '@slack/bolt';
import type { Core } from '../core.js';
import { escapeMrkdwn } from './mrkdwn.js';

export type CommandRequest =
  /** `unknown`: the first word of a `/waybill` that is no subcommand, named before the help. */
  | { kind: 'help'; unknown?: string }
  | { kind: 'quote' | 'book' }
  /** `/book import`: booking from a CSV file. */
  | { kind: 'bulk' }
  | { kind: 'show' | 'update' | 'rebook'; trackingNumber: string }
  /** `/waybill label <tracking number> [pdf|zpl]`: the format as typed, empty for the setting's. */
  | { kind: 'label'; trackingNumber: string; format: string }
  /** `/waybill manifest [YYYY-MM-DD]`: the day as typed, empty for today. */
  | { kind: 'manifest'; date: string }
  /** `/waybill addresses [words]`: the address book, searched for the words (all of them, maybe none). */
  | { kind: 'addresses'; query: string }
  /** `/waybill export <from>..<to>`, the range as typed. */
  | { kind: 'export'; range: string }
  /** `/waybill remittance`: a COD remittance file reconciled. */
  | { kind: 'remittance' }
  /** `/waybill status <tracking number> <status> [note]`: the status and note as typed, together. */
  | { kind: 'status'; trackingNumber: string; words: string }
  /** `/waybill assign <tracking number> @person`: the person as typed (Slack writes a mention `<@U…|name>`). */
  | { kind: 'assign'; trackingNumber: string; words: string }
  /** `/waybill digest`: today's digest, privately. */
  | { kind: 'digest' }
  /** `/waybill cod`: the COD still owed, aged, privately. */
  | { kind: 'cod' }
  /** `/waybill report [from..to]`: the report of those days (the 7 before today if none), privately. */
  | { kind: 'report'; range: string }
  /** `/waybill find <words and filters>`, as typed (maybe nothing). */
  | { kind: 'find'; query: string }
  /** `/waybill attention`: what needs attention now, privately. */
  | { kind: 'attention' }
  /** `/waybill recognise on|off`: the word as typed, lower case (maybe nothing). */
  | { kind: 'recognise'; setting: string };

/** The words `/waybill` reads first, in the order its help lists them. */
const WAYBILL_VERBS = [
  'show',
  'find',
  'update',
  'rebook',
  'addresses',
  'export',
  'status',
  'assign',
  'label',
  'manifest',
  'digest',
  'attention',
  'remittance',
  'cod',
  'recognise',
  'report',
  'help',
] as const;

/** `/waybill` verbs that name a booking next. */
const BOOKING_VERBS = new Set(['show', 'update', 'rebook']);

/**
 * `help` as the first word asks for help, whatever follows; `/waybill` without a verb, or a verb
 * without its tracking number, does too (but `export` alone asks for an export, and is told how to
 * write the range), and so does a first word that is no verb, which the help then names. Verbs are
 * read in any case ("Show", as phones type it). Undefined: not one of our commands.
 */
export function readCommand(command: string, text: string): CommandRequest | undefined {
  const [first = '', second = '', third = ''] = text.trim().split(/\s+/);
  const verb = first.toLowerCase();
  const rest = text.trim().slice(first.length).trim();
  if (verb === 'help') return { kind: 'help' };
  switch (command) {
    case '/quote':
      return { kind: 'quote' };
    case '/book':
      return verb === 'import' ? { kind: 'bulk' } : { kind: 'book' };
    case '/waybill':
      if (verb === 'addresses') return { kind: 'addresses', query: rest };
      if (verb === 'find') return { kind: 'find', query: rest };
      if (verb === 'remittance') return { kind: 'remittance' };
      if (verb === 'export') return { kind: 'export', range: rest };
      if (verb === 'digest') return { kind: 'digest' };
      if (verb === 'cod') return { kind: 'cod' };
      if (verb === 'attention') return { kind: 'attention' };
      if (verb === 'recognise') return { kind: 'recognise', setting: second.toLowerCase() };
      if (verb === 'report') return { kind: 'report', range: rest };
      if (verb === 'manifest') return { kind: 'manifest', date: rest };
      if ((verb === 'status' || verb === 'assign') && second)
        return { kind: verb, trackingNumber: second, words: rest.slice(second.length).trim() };
      if (verb === 'label' && second) return { kind: 'label', trackingNumber: second, format: third };
      if (BOOKING_VERBS.has(verb) && second)
        return { kind: verb as 'show' | 'update' | 'rebook', trackingNumber: second };
      return first && !(WAYBILL_VERBS as readonly string[]).includes(verb)
        ? { kind: 'help', unknown: first }
        : { kind: 'help' };
    default:
      return undefined;
  }
}

/** The longest unknown word named back in full, in characters; a longer one is cut. */
const NAMED_MAX = 40;

/** Said before the help when the first word of `/waybill` is no verb: that word, and the verbs it is close to. */
export function unknownVerbText(word: string): string {
  const characters = [...word];
  const shown = characters.length > NAMED_MAX ? `${characters.slice(0, NAMED_MAX).join('')}\u2026` : word;
  const close = WAYBILL_VERBS.filter((verb) => isCloseTo(word.toLowerCase(), verb));
  const guess = close.length ? `; did you mean ${close.map((verb) => `\`${verb}\``).join(' or ')}?` : '.';
  return `\`${escapeMrkdwn(shown)}\` is not a /waybill command${guess}`;
}

/** A verb begun ("stat", at least three letters) or mistyped (one edit in four letters, at most two). */
function isCloseTo(word: string, verb: string): boolean {
  if (word.length >= 3 && verb.startsWith(word)) return true;
  // More than two letters longer or shorter: never close, however long the word.
  if (Math.abs(word.length - verb.length) > 2) return false;
  return editDistance(word, verb) <= Math.min(2, Math.max(1, Math.floor(verb.length / 4)));
}

/** Levenshtein distance, with a swap of two neighbours counting as one edit ("shwo"). */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = rows[i] as number[];
      const above = rows[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(
        (above[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (above[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j] as number, ((rows[i - 2] as number[])[j - 2] as number) + 1);
    }
  }
  return (rows[a.length] as number[])[b.length] as number;
}

/** What `/waybill` can be asked: every request but the other commands'. */
export type WaybillKind = Exclude<CommandRequest['kind'], 'quote' | 'book' | 'bulk'>;

/** A request of one kind, as read (`show`, `update` and `rebook` share one shape). */
export type RequestOf<K extends CommandRequest['kind']> = CommandRequest extends infer R
  ? R extends { kind: infer Kinds }
    ? K extends Kinds
      ? R & { kind: K }
      : never
    : never
  : never;

/** What a slash command's listener is given, as Bolt gives it. */
export type CommandArgs = SlackCommandMiddlewareArgs & AllMiddlewareArgs;

/**
 * How a feature answers a `/waybill` subcommand (the router in waybill-command.ts calls it), with the
 * part of the core it uses (`Pick<Core, …>`; only a feature's `register` sees the whole core).
 */
export type CommandAnswer<K extends WaybillKind, Deps = Core> = (
  core: Deps,
  args: CommandArgs,
  request: RequestOf<K>,
) => Promise<void>;
