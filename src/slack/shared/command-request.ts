/** What a slash command's text asks for: read once, the same way by the access guard and by the command. */

export type CommandRequest =
  | { kind: 'help' }
  | { kind: 'quote' | 'book' }
  /** `/book import`: booking from a CSV file. */
  | { kind: 'bulk' }
  | { kind: 'show' | 'update' | 'rebook'; trackingNumber: string }
  /** `/waybill addresses [words]`: the address book, searched for the words (all of them, maybe none). */
  | { kind: 'addresses'; query: string }
  /** `/waybill export <from>..<to>`, the range as typed. */
  | { kind: 'export'; range: string };

/**
 * `help` as the first word (any case) asks for help, whatever follows; `/waybill` without a verb and
 * a tracking number does too (but `export` alone asks for an export, and is told how to write the
 * range). Undefined: not one of our commands.
 */
export function readCommand(command: string, text: string): CommandRequest | undefined {
  const [first = '', second = ''] = text.trim().split(/\s+/);
  if (first.toLowerCase() === 'help') return { kind: 'help' };
  switch (command) {
    case '/quote':
      return { kind: 'quote' };
    case '/book':
      return first.toLowerCase() === 'import' ? { kind: 'bulk' } : { kind: 'book' };
    case '/waybill':
      if (first === 'addresses') return { kind: 'addresses', query: text.trim().slice(first.length).trim() };
      if (first === 'export') return { kind: 'export', range: text.trim().slice(first.length).trim() };
      return (first === 'show' || first === 'update' || first === 'rebook') && second
        ? { kind: first, trackingNumber: second }
        : { kind: 'help' };
    default:
      return undefined;
  }
}
