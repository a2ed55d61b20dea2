/**
 * /waybill: the subcommands the features declare, each answered by its feature, and the help, which is
 * the bot's whole: /quote and /book, then each verb's own line, then what has no command.
 */
import type { App } from '@slack/bolt';
import type { Core } from './core.js';
import { features } from './features.js';
import { requires } from './guards/access.js';
import {
  type CommandAnswer,
  type CommandArgs,
  type HelpRequest,
  noWords,
  readVerb,
  type WaybillVerb,
  waybillVerb,
} from './kit/command-request.js';

// The order the help lists them in, and a mistyped word's close verbs are named in: the features'.
const verbs: readonly WaybillVerb<unknown, Core>[] = features.flatMap((feature) => feature.verbs ?? []);

/** What `/waybill help` says: every command, each verb in its own words, and what the buttons are. */
export function waybillHelp(): string {
  return [
    '*What this bot does*',
    '• `/quote`: price a delivery (`/quote help` for shortcuts)',
    '• `/book`: book a waybill in steps, with parcels (`/book help`); `/book import` books many from a CSV file',
    ...allVerbs.map((verb) => `• ${verb.usage}`),
    'The bot’s *Home* tab lists today’s bookings and your unfinished ones, with *New quote*, *New booking*, *Import CSV*, *CSV template*, *COD remittance*, *Export* and *Pickup list*.',
    'Every booking card in the channel shows its owner and has *Update*, *Record status*, *Rebook*, *Print labels*, *Take it* and *Assign*.',
    'Shortcuts: *Book from this message* (on a message) and *New booking* / *New quote* (from the shortcut menu).',
  ].join('\n');
}

/** `/waybill`, `/waybill help`, and whatever else it cannot read: what it can do. */
const helpCommand: CommandAnswer<HelpRequest, object> = async (
  _deps,
  { ack },
  { unknownText, usageText },
) => {
  const help = waybillHelp();
  const text = usageText ?? (unknownText ? `${unknownText}\n\n${help}` : help);
  await ack({ response_type: 'ephemeral', text });
};

const helpVerb = waybillVerb({
  verb: 'help',
  usage: '`/waybill help`, or `/waybill` alone: this list',
  permission: 'nothing',
  parse: noWords,
  answer: helpCommand,
});

const allVerbs = [...verbs, helpVerb];

export function register(app: App, core: Core): void {
  app.command(
    '/waybill',
    requires(core, (body) =>
      'command' in body ? readVerb(allVerbs, helpVerb, body.text).verb.permission : 'nothing',
    ),
    async (args: CommandArgs) => {
      const { verb, request } = readVerb(allVerbs, helpVerb, args.command.text);
      await verb.answer(core, args, request);
    },
  );
}
