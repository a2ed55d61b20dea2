/** What a slash command's text asks for: read once, the same way by the access guard and by the command. */
import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from '@slack/bolt';
import type { Core } from '../core.js';

export type CommandRequest =
  | { kind: 'help' }
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
  /** `/waybill digest`: today's digest, privately. */
  | { kind: 'digest' };

/**
 * `help` as the first word (any case) asks for help, whatever follows; `/waybill` without a verb and
 * a tracking number does too (but `export` alone asks for an export, and is told how to write the
 * range). Undefined: not one of our commands.
 */
export function readCommand(command: string, text: string): CommandRequest | undefined {
  const [first = '', second = '', third = ''] = text.trim().split(/\s+/);
  if (first.toLowerCase() === 'help') return { kind: 'help' };
  switch (command) {
    case '/quote':
      return { kind: 'quote' };
    case '/book':
      return first.toLowerCase() === 'import' ? { kind: 'bulk' } : { kind: 'book' };
    case '/waybill':
      if (first === 'addresses') return { kind: 'addresses', query: text.trim().slice(first.length).trim() };
      if (first === 'remittance') return { kind: 'remittance' };
      if (first === 'export') return { kind: 'export', range: text.trim().slice(first.length).trim() };
      if (first === 'digest') return { kind: 'digest' };
      if (first === 'status' && second) {
        const words = text.trim().slice(first.length).trim().slice(second.length).trim();
        return { kind: 'status', trackingNumber: second, words };
      }
      if (first === 'label' && second) return { kind: 'label', trackingNumber: second, format: third };
      if (first === 'manifest') return { kind: 'manifest', date: text.trim().slice(first.length).trim() };
      return (first === 'show' || first === 'update' || first === 'rebook') && second
        ? { kind: first, trackingNumber: second }
        : { kind: 'help' };
    default:
      return undefined;
  }
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

/** How a feature answers a `/waybill` subcommand (the router in waybill-command.ts calls it). */
export type CommandAnswer<K extends WaybillKind> = (
  core: Core,
  args: CommandArgs,
  request: RequestOf<K>,
) => Promise<void>;
