/** A slash command that opens a form pre-filled from `key=value` words: `help` answered with the keys, in the ack. */
import { firstWord, HELP } from './command-request.js';
import type { ListenerMiddleware } from './listener.js';
import { type PrefillKeys, prefillHelp } from './prefill.js';

/** Answers `<name> help` with the keys (after `intro`); any other text goes on to the listener. */
export function helpWithKeys(name: string, keys: PrefillKeys, intro?: string): ListenerMiddleware {
  const help = intro ? `${intro}\n\n${prefillHelp(name, keys)}` : prefillHelp(name, keys);
  return async (args) => {
    const { text } = args.body as { text?: unknown };
    if (firstWord(typeof text === 'string' ? text : '') !== HELP) return args.next();
    await (args as { ack: (response: unknown) => Promise<void> }).ack({
      response_type: 'ephemeral',
      text: help,
    });
  };
}
