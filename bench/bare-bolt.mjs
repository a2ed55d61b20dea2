/**
 * The baseline: a bare Bolt app with the bot's receiver set-up (HTTPReceiver on PORT, /slack/events,
 * signature verification, the probes) and handlers that only acknowledge. Plain JavaScript, so it
 * runs on plain node like the built bot. Reads SLACK_BOT_TOKEN, SLACK_SIGNING_SECRET, SLACK_API_URL, PORT.
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

app.command(/.*/, async ({ ack }) => {
  await ack();
});
app.view(/.*/, async ({ ack }) => {
  await ack();
});

await app.start(Number(env('PORT')));

const stop = () => {
  app.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
