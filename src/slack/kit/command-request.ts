/** How a slash command's words are read: the helpers every command's grammar uses, the same for the access guard and the command. */
import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from '@slack/bolt';
import type { ModalView } from '@slack/types';
import { writtenTrackingNumber } from '../../waybill/fields.js';
import type { Core } from '../core.js';
import type { Permission } from './listener.js';
import { openModalSoon } from './modal.js';
import { escapeMrkdwn } from './mrkdwn.js';

/** The first word of a command's text, in lower case (verbs are read in any case: "Show", as phones type it). */
export function firstWord(text: string): string {
  return (text.trim().split(/\s+/)[0] ?? '').toLowerCase();
}

/** `help` as the first word asks any command for help, whatever follows. */
export const HELP = 'help';

/** A subcommand's words after its verb: each word as typed, and all of them together, as typed. */
export interface VerbWords {
  words: string[];
  rest: string;
}

/** What a slash command's listener is given, as Bolt gives it. */
export type CommandArgs = SlackCommandMiddlewareArgs & AllMiddlewareArgs;

/**
 * How a feature answers a `/waybill` subcommand, with the part of the core it uses (`Pick<Core, …>`;
 * only a feature's `register` sees the whole core).
 */
export type CommandAnswer<Request, Deps> = (core: Deps, args: CommandArgs, request: Request) => Promise<void>;

/**
 * A `/waybill` subcommand, declared by the feature that answers it: its verb, the permission it
 * needs, how its words are read (undefined: they are not enough, and the help answers) and its answer.
 */
export interface WaybillVerb<Request, Deps> {
  verb: string;
  /** Its line in `/waybill help`, in mrkdwn: how it is typed, and what it answers. */
  usage: string;
  /** A command as typed, for a verb whose words can be missing: said with the usage when they are. */
  example?: string;
  permission: Permission;
  parse(words: VerbWords): Request | undefined;
  answer(deps: Deps, args: CommandArgs, request: Request): Promise<void>;
}

/** A feature's verb, its request and dependencies as its answer takes them. */
export const waybillVerb = <Request, Deps>(verb: WaybillVerb<Request, Deps>) => verb;

/** The help's request: what is said before it when the first word was no verb, or all that is said. */
export interface HelpRequest {
  unknownText?: string;
  /** A verb without the words it needs: its usage and example, in one line, instead of the whole help. */
  usageText?: string;
}

/**
 * A subcommand whose next word is a tracking number, which it needs (written as we write it: `# wb000001`
 * is WB000001), and the words after it, as typed.
 */
export function trackingNumberFirst({ rest }: VerbWords) {
  const typed = /^#*\s*\S+/.exec(rest)?.[0] ?? '';
  const trackingNumber = writtenTrackingNumber(typed);
  return trackingNumber ? { trackingNumber, words: rest.slice(typed.length).trim() } : undefined;
}

/** A subcommand that reads no words: what follows its verb is ignored. */
export const noWords = () => ({});

/**
 * The verb `text` asks for, with its request: `help` when it has no verb, `help` saying the verb's usage
 * when the verb lacks the words it needs, and `help` naming the first word (and the verbs close to it)
 * when that is no verb.
 */
export function readVerb(
  verbs: readonly WaybillVerb<unknown, Core>[],
  help: WaybillVerb<HelpRequest, Core>,
  text: string,
): { verb: WaybillVerb<unknown, Core>; request: unknown } {
  const [first = '', ...words] = text.trim().split(/\s+/);
  const verb = verbs.find((candidate) => candidate.verb === first.toLowerCase());
  const request = verb?.parse({ words, rest: text.trim().slice(first.length).trim() });
  if (verb && request !== undefined) return { verb, request };
  const asHelp = help as WaybillVerb<unknown, Core>;
  if (verb) return { verb: asHelp, request: { usageText: usageText(verb) } satisfies HelpRequest };
  const unknownText =
    first && !verb
      ? unknownVerbText(
          first,
          verbs.map((known) => known.verb),
        )
      : undefined;
  return { verb: asHelp, request: unknownText ? { unknownText } : {} };
}

/** A verb's usage and example, in one line: what a verb missing its words answers. */
function usageText({ usage, example }: WaybillVerb<unknown, Core>): string {
  return example ? `${usage}. For example: \`${example}\`` : usage;
}

/** The longest unknown word named back in full, in characters; a longer one is cut. */
const NAMED_MAX = 40;

/** Said before the help when the first word of `/waybill` is no verb: that word, and the verbs it is close to. */
function unknownVerbText(word: string, verbs: readonly string[]): string {
  const characters = [...word];
  const shown = characters.length > NAMED_MAX ? `${characters.slice(0, NAMED_MAX).join('')}\u2026` : word;
  const close = verbs.filter((verb) => isCloseTo(word.toLowerCase(), verb));
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

/**
 * A command's form, opened after the ack, or (a string) why there is none, said in the ack itself.
 * `again` says what to type when Slack was too slow to open it.
 */
export async function answerWithForm(
  deps: Pick<Core, 'inFlight' | 'logger'>,
  { ack, client, command, respond }: CommandArgs,
  again: string,
  form: (() => ModalView | string | Promise<ModalView | string>) | string,
): Promise<void> {
  if (typeof form === 'string') {
    await ack({ response_type: 'ephemeral', text: form });
    return;
  }
  await ack();
  openModalSoon(deps, client, { triggerId: command.trigger_id, respond, again, view: form });
}
