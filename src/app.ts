/** The bot's entry point: reads the settings, connects to Slack, the courier and the store, and serves. */
import type { AddressInfo } from 'node:net';
import { loadConfig, loadDotEnv, secretsOf } from './config.js';
import { shutdown, stopOnSignals } from './lifecycle.js';
import { createLogger } from './logger.js';
import { Metrics } from './metrics.js';
import { checkNodeVersion } from './node-version.js';
import { keepStore } from './operations/recovery.js';
import { tellAbandoned } from './slack/booking/index.js';
import { createBot, startReceiving } from './slack/bot.js';
import { createCore } from './slack/core.js';
import { identifyBot } from './slack/runtime/identity.js';
import {
  databaseFailure,
  exitOnStartupFailure,
  failFastUntilReady,
  listenFailure,
  readyMessage,
} from './startup.js';
import { type Attempt, openStore } from './store/index.js';
import { keepWasmOnBaseline, releaseStartupMemory } from './v8-options.js';
import { senderProfiles } from './waybill/profiles.js';
import { connectUpstream } from './waybill/upstream.js';

const environmentWords = {
  sandbox: 'the embedded SANDBOX courier (simulated: nothing is really priced or booked)',
  test: "the courier's TEST environment",
  live: "the courier's LIVE environment",
};

async function main(): Promise<void> {
  keepWasmOnBaseline();
  const starting = failFastUntilReady();
  checkNodeVersion();
  loadDotEnv();
  const { waybill, slack, bot } = loadConfig();
  const profiles = senderProfiles(waybill.env, bot.senderProfilesFile);
  const logger = createLogger({ level: slack.logLevel, secrets: secretsOf() });
  logger.info({ upstream: waybill.env }, `Waybill bot starting against ${environmentWords[waybill.env]}`);

  const metrics = new Metrics();
  // Each step's memory, for /metrics and the bench's breakdown (bench/README.md).
  const step = (name: string) => metrics.startupStep(name);
  step('modules loaded, settings read');
  // Slack's answer is awaited once the courier and the store are ready: its round trip overlaps their work.
  const identifying = identifyBot(slack, logger);
  identifying.catch(() => {}); // a refused token is told below, where it is awaited
  const upstream = await connectUpstream(waybill, logger, (operation) => metrics.courierCall(operation));
  const store = await openStore({
    ...bot.database,
    onBackgroundError: (err) =>
      logger.warn({ err }, "this replica's lease could not be renewed; trying again"),
    onPoolError: (err) => logger.warn({ err }, 'a database connection failed; the pool replaces it'),
  }).catch((err: unknown) => {
    throw databaseFailure(bot.database, err);
  });
  logger.info({ database: store.location, replica: store.replica.id }, 'store open');
  const { teamId, ...identity } = await identifying;
  step('store open, Slack answered');
  const deps = createCore({
    waybill,
    courier: upstream.client,
    store,
    logger,
    bot,
    profiles,
    metrics,
    teamId,
  });
  const app = createBot({ slack, deps, identity });
  const { healthPort } = slack;
  const probes =
    healthPort === undefined
      ? undefined
      : await deps.probes.listen(healthPort).catch((err: unknown) => {
          throw listenFailure(err, 'HEALTH_PORT', healthPort);
        });

  const tell = (attempts: Attempt[]) => tellAbandoned(app.client, attempts, { logger, env: waybill.env });

  // Bookings through other replicas redraw the Home tabs this one keeps current.
  await deps.activity.follow();
  const { server, port } = await startReceiving(app, slack);
  step('listeners registered, receiving');
  starting.ready(logger);
  // A second after the first answer: start-up is not made longer by it.
  setTimeout(releaseStartupMemory, 1000).unref();
  // Calls abandoned by a replica that is gone (this one's last run, say) are reported from now on.
  const keeping = keepStore({
    store,
    logger,
    everyMs: bot.database.leaseRenewMs,
    tell: async (abandoned) => deps.inFlight.run('tell abandoned', () => tell(abandoned)),
  });
  // The background work each feature's register added: the bulk rows queue, digest, report, reminders.
  deps.jobs.start();

  // Before the ready line: whoever reacts to it with SIGTERM gets a clean stop.
  stopOnSignals(logger, async () => {
    await shutdown({
      stopReceiving: async () => {
        deps.probes.stop();
        deps.activity.stop();
        deps.jobs.stop();
        // A print under way is given up (its dispatcher told), not waited for.
        await deps.render.stop();
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
    });
    // Last: until the bot has stopped, the probes say 503 rather than nothing.
    probes?.closeAllConnections();
    await new Promise((resolve) => probes?.close(resolve) ?? resolve(undefined));
  });
  const probePort = (probes?.address() as AddressInfo | null)?.port;
  logger.info(
    { mode: slack.appToken ? 'socket' : 'http', port, ...(probes ? { healthPort: probePort } : {}) },
    readyMessage(port),
  );
}

main().catch(exitOnStartupFailure);
