/** Bolt's logger interface over the bot's pino logger. */
import { format } from 'node:util';
import type { Logger as BoltLogger, LogLevel } from '@slack/bolt';
import type { Logger } from 'pino';

const boltLevels = new Set(['debug', 'info', 'warn', 'error']);

/** Bolt's Logger interface over the project's pino logger, so Bolt's lines get the same redaction. */
export function boltLogger(logger: Logger): BoltLogger {
  const write =
    (level: 'debug' | 'info' | 'warn' | 'error') =>
    (...message: unknown[]) => {
      // The WebClient logs whole request bodies at debug: never format what will not be written.
      if (!logger.isLevelEnabled(level)) return;
      const err = message.find((part) => part instanceof Error);
      const text = format(...message.filter((part) => part !== err));
      if (err) logger[level]({ err, source: 'bolt' }, text);
      else logger[level]({ source: 'bolt' }, text);
    };
  return {
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    // LOG_LEVEL governs; Bolt would otherwise reset it to info at construction.
    setLevel: () => {},
    getLevel: () => {
      const level = logger.level;
      if (boltLevels.has(level)) return level as LogLevel;
      return (level === 'trace' ? 'debug' : 'error') as LogLevel;
    },
    // Bolt's helpers rename their logger; renaming the shared one would rename every line.
    setName: () => {},
  };
}
