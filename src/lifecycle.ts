import type { Logger } from 'pino';
import { ConfigError } from './config.js';

/** A bad setting ends the program with one line, never a stack trace. */
export function exitOnConfigError(err: unknown): never {
  if (err instanceof ConfigError) {
    process.stderr.write(`Configuration error: ${err.message}\n`);
    process.exit(1);
  }
  throw err;
}

/**
 * On SIGTERM or SIGINT: run `stop` once (stop taking requests, finish those in flight, close),
 * then exit 0. A second signal exits at once.
 */
export function stopOnSignals(logger: Logger, stop: () => Promise<void>): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, 'stopping: no new requests, finishing those in flight');
    stop().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (err: unknown) => {
        logger.error({ err }, 'stopping failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
}
