/** The bot's entry point: reads the settings, connects to Slack, the courier and the store, and serves. */
import { loadBotConfig, loadDotEnv, loadSlackConfig, loadWaybillConfig, secretsOf } from './config.js';
import { keepStore, shutdown, stopOnSignals } from './lifecycle.js';
import { createLogger } from './logger.js';
import { createBot, startReceiving } from './slack/bot.js';
import { createBotDeps } from './slack/deps.js';
import { tellAbandoned } from './slack/shared/attempts.js';
import { identifyBot } from './slack/shared/identity.js';
import { databaseFailure, exitOnStartupFailure, failFastUntilReady, readyMessage } from './startup.js';
import { type Attempt, openStore } from './store/index.js';
import { senderProfiles } from './waybill/profiles.js';
import { connectUpstream } from './waybill/upstream.js';

const environmentWords = {
  sandbox: 'the embedded SANDBOX courier (simulated: nothing is really priced or booked)',
  test: "the courier's TEST environment",
  live: "the courier's LIVE environment",
};

async function main(): Promise<void> {
  const starting = failFastUntilReady();
  loadDotEnv();
  const [waybill, slack, bot] = [loadWaybillConfig(), loadSlackConfig(), loadBotConfig()];
  const profiles = senderProfiles(waybill.env, bot.senderProfilesFile);
  const logger = createLogger({ level: slack.logLevel, secrets: secretsOf() });
  logger.info({ upstream: waybill.env }, `Waybill bot starting against ${environmentWords[waybill.env]}`);

  const identity = await identifyBot(slack, logger);
  const upstream = await connectUpstream(waybill, logger);
  const store = await openStore({
    ...bot.database,
    onBackgroundError: (err) =>
      logger.warn({ err }, "this replica's lease could not be renewed; trying again"),
  }).catch((err: unknown) => {
    throw databaseFailure(bot.database, err);
  });
  logger.info({ database: store.location, replica: store.replica.id }, 'store open');
  const deps = createBotDeps({ waybill, courier: upstream.client, store, logger, bot, profiles });
  const app = createBot({ slack, deps, identity });

  const tell = (attempts: Attempt[]) => tellAbandoned(app.client, attempts, { logger, env: waybill.env });

  const { server, port } = await startReceiving(app, slack);
  starting.ready(logger);
  // Calls abandoned by a replica that is gone (this one's last run, say) are reported from now on.
  const keeping = keepStore({
    store,
    logger,
    everyMs: bot.database.leaseRenewMs,
    tell: async (abandoned) => deps.inFlight.run('tell abandoned', () => tell(abandoned)),
  });

  // Before the ready line: whoever reacts to it with SIGTERM gets a clean stop.
  stopOnSignals(logger, () =>
    shutdown({
      stopReceiving: async () => {
        await keeping.stop();
        await app.stop();
      },
      // HTTP mode: connections still open once the calls in flight are done are cut (Socket Mode has none).
      dropConnections: () => server?.closeAllConnections(),
      inFlight: deps.inFlight,
      store,
      closeUpstream: () => upstream.close(),
      logger,
      graceMs: waybill.timeoutMs + 5000,
      tellAbandoned: tell,
    }),
  );
  logger.info({ mode: slack.appToken ? 'socket' : 'http', port }, readyMessage(port));
}

main().catch(exitOnStartupFailure);
