/**
 * The baseline: a bare Bolt app with the bot's receiver set-up (HTTPReceiver on PORT, /slack/events,
 * signature verification, the probes) and handlers doing the minimum issue 21 measures against:
 * acknowledge, then open a one-input modal with the request's trigger_id (`views.open`, as the bot
 * opens its forms after the ack). Plain JavaScript, so it runs on plain node like the built bot. Reads SLACK_BOT_TOKEN, SLACK_SIGNING_SECRET, SLACK_API_URL, PORT.
 */
import bolt from '@slack/bolt';
// The bot's own route, from the build `npm run bench` makes first.
import { Probes } from '../dist/probes.js';

const { App, LogLevel } = bolt;

const env = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`bare-bolt: ${name} must be set`);
  return value;
};

const probes = new Probes({ store: { ping: async () => {} }, logger: console });
probes.receivingWhen(() => true);
const app = new App({
  token: env('SLACK_BOT_TOKEN'),
  signingSecret: env('SLACK_SIGNING_SECRET'),
  botId: 'BBOT',
  botUserId: 'UBOT',
  logLevel: LogLevel.WARN,
  clientOptions: { slackApiUrl: env('SLACK_API_URL') },
  // No database here: always ready.
  customRoutes: probes.routes(),
});

/** The smallest form there is: one plain-text input. */
const oneInput = {
  type: 'modal',
  callback_id: 'bare',
  title: { type: 'plain_text', text: 'Bare Bolt' },
  submit: { type: 'plain_text', text: 'Send' },
  blocks: [
    {
      type: 'input',
      block_id: 'note',
      label: { type: 'plain_text', text: 'Note' },
      element: { type: 'plain_text_input', action_id: 'note' },
    },
  ],
};

const ackThenOpen = async ({ ack, body, client }) => {
  await ack();
  await client.views.open({ trigger_id: body.trigger_id, view: oneInput });
};
app.command(/.*/, ackThenOpen);
app.view(/.*/, ackThenOpen);

await app.start(Number(env('PORT')));

const stop = () => {
  app.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
