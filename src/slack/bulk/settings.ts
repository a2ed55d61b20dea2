/** Bulk booking's settings (BULK_*): how large a file may be, how long its download, how many rows at the courier at once. */
import * as z from 'zod';
import { envSettings, optionalSetting, wholeNumber } from '../../settings/env.js';

export interface BulkSettings {
  maxRows: number;
  maxBytes: number;
  /** A file not downloaded in full by then is not read. */
  downloadTimeoutMs: number;
  /** Rows at the courier at once, per replica (halved while the courier answers 429). */
  concurrency: number;
}

declare module '../core.js' {
  interface BotSettings {
    /** A file's limits: those of every file the bot reads (statuses and remittances too). */
    bulk: BulkSettings;
  }
}

export const bulkEnv = envSettings(
  z.object({
    BULK_MAX_ROWS: optionalSetting(wholeNumber(1, 5000, 'a whole number of rows')).default(500),
    BULK_MAX_FILE_MB: optionalSetting(wholeNumber(1, 50, 'a whole number of megabytes')).default(2),
    BULK_DOWNLOAD_TIMEOUT_MS: optionalSetting(
      wholeNumber(100, 600_000, 'a whole number of milliseconds'),
    ).default(30_000),
    BULK_CONCURRENCY: optionalSetting(wholeNumber(1, 100, 'a whole number of rows')).default(20),
  }),
  (settings): { bulk: BulkSettings } => ({
    bulk: {
      maxRows: settings.BULK_MAX_ROWS,
      // Megabytes as a file browser counts them.
      maxBytes: settings.BULK_MAX_FILE_MB * 1_000_000,
      downloadTimeoutMs: settings.BULK_DOWNLOAD_TIMEOUT_MS,
      concurrency: settings.BULK_CONCURRENCY,
    },
  }),
);
