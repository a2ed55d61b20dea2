/** A slash command that opens a form pre-filled from `key=value` words, with `help` listing the keys. */
import type { App, SlashCommand } from '@slack/bolt';
import type { ModalView } from '@slack/types';
import type { Core } from '../core.js';
import { readCommand } from './command-request.js';
import type { FormField } from './forms.js';
import type { Guard } from './listener.js';
import { openModalSoon } from './modal.js';
import { type Prefill, type PrefillKeys, parsePrefill, prefillHelp } from './prefill.js';

export function onPrefilledCommand(
  app: App,
  deps: Pick<Core, 'inFlight' | 'logger'>,
  name: string,
  guard: Guard,
  {
    keys,
    fields,
    intro,
    form,
    instead,
  }: {
    keys: PrefillKeys;
    /** The form's fields: a pre-filled value must fit its input. */
    fields: readonly FormField[];
    /** Said before the keys in `help`. */
    intro?: string;
    /** The form to open, from the command and what its words pre-fill. */
    form: (command: SlashCommand, prefill: Prefill) => Promise<ModalView>;
    /** Another modal the command's words ask for (`/book import`), or undefined for the form. */
    instead?: (command: SlashCommand) => (() => ModalView) | undefined;
  },
): void {
  const help = intro ? `${intro}\n\n${prefillHelp(name, keys)}` : prefillHelp(name, keys);
  app.command(name, guard, async ({ command, ack, client, respond }) => {
    if (readCommand(name, command.text)?.kind === 'help') {
      await ack({ response_type: 'ephemeral', text: help });
      return;
    }
    // The trigger_id dies 3 s after the command: acknowledge, then open the form straight away.
    await ack();
    const other = instead?.(command);
    openModalSoon(deps, client, {
      triggerId: command.trigger_id,
      respond,
      again: `type \`${other ? `${name} ${command.text.trim()}` : name}\``,
      view: other ?? (() => form(command, parsePrefill(command.text, keys, fields))),
    });
  });
}
