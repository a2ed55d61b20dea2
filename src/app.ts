import { loadBotConfig, loadDotEnv, loadSlackConfig, loadWaybillConfig, secretsOf } from './config.js';
import { exitOnConfigError, stopOnSignals } from './lifecycle.js';
import { createLogger } from './logger.js';
import { createBot } from './slack/bot.js';
import { createBotDeps } from './slack/deps.js';
import { identifyBot } from './slack/identity.js';
import { openStore } from './store/store.js';
import { senderProfiles } from './waybill/profiles.js';
import { connectUpstream } from './waybill/upstream.js';

const environmentWords = {
  sandbox: 'the embedded SANDBOX courier (simulated: nothing is really priced or booked)',
  test: "the courier's TEST environment",
  live: "the courier's LIVE environment",
};

async function main(): Promise<void> {
  loadDotEnv();
  const [waybill, slack, bot] = [loadWaybillConfig(), loadSlackConfig(), loadBotConfig()];
  const profiles = senderProfiles(waybill.env, bot.senderProfilesFile);
  const logger = createLogger({ level: slack.logLevel, secrets: secretsOf() });
  logger.info({ upstream: waybill.env }, `Waybill bot starting against ${environmentWords[waybill.env]}`);

  const identity = await identifyBot(slack);
  const upstream = await connectUpstream(waybill, logger);
  const store = openStore({ path: bot.databasePath });
  for (const attempt of store.attempts.markAbandoned()) {
    logger.warn({ attempt: attempt.key }, 'a call was in flight when the bot last stopped: outcome unknown');
  }
  const deps = createBotDeps({ waybill, courier: upstream.client, store, logger, bot, profiles });
  const app = createBot({ slack, deps, identity });

  await (slack.appToken ? app.start() : app.start(slack.port));
  logger.info(
    {
      mode: slack.appToken ? 'socket' : 'http',
      port: slack.appToken ? undefined : slack.port,
      upstream: upstream.baseUrl,
    },
    'Waybill bot ready',
  );

  stopOnSignals(logger, async () => {
    await app.stop();
    await deps.inFlight.idle();
    await upstream.close();
    store.close();
  });
}

main().catch(exitOnConfigError);
