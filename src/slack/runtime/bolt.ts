/**
 * The parts of Bolt the bot runs on, each loaded from its own module. Bolt's index also loads the
 * Express receiver (Express and its middleware) and the AWS Lambda receiver, which the bot never
 * uses: about 5 MB of memory and 40 ms of start-up (bench/README.md). Types still come from
 * '@slack/bolt'; test/slack/layout.test.ts keeps every value import here.
 */
import { createRequire } from 'node:module';
import type * as Bolt from '@slack/bolt';

const require = createRequire(import.meta.url);

export const App: typeof Bolt.App = require('@slack/bolt/dist/App.js').default;
export type App = Bolt.App;
export const HTTPReceiver: typeof Bolt.HTTPReceiver =
  require('@slack/bolt/dist/receivers/HTTPReceiver.js').default;
export type HTTPReceiver = Bolt.HTTPReceiver;
export const SocketModeReceiver: typeof Bolt.SocketModeReceiver =
  require('@slack/bolt/dist/receivers/SocketModeReceiver.js').default;
export const HTTPModuleFunctions: typeof Bolt.HTTPModuleFunctions = require('@slack/bolt/dist/receivers/HTTPModuleFunctions.js');
export const isValidSlackRequest: typeof Bolt.isValidSlackRequest =
  require('@slack/bolt/dist/receivers/verify-request.js').isValidSlackRequest;
// Bolt's own Web API client, as its index hands it on: resolved from Bolt's folder.
const fromBolt = createRequire(require.resolve('@slack/bolt'));
export const webApi: typeof Bolt.webApi = fromBolt('@slack/web-api');
