/** Start-up failures: until the bot is ready, anything that goes wrong ends the process with one line, exit 1. */
import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Logger } from 'pino';
import { ConfigError } from './settings-error.js';
import type { DatabaseConfig } from './store/settings.js';

/** A failure of the surroundings rather than of a setting's value (port taken, Slack unreachable, …). */
export class StartupError extends Error {
  override name = 'StartupError';
}

const verboseLevels = new Set(['debug', 'trace']);

/** What an operator reads: one line, or one per bad setting. Unexpected errors keep only their first line. */
export function startupFailureLines(err: unknown): string[] {
  if (err instanceof ConfigError) return err.problems.map((problem) => `Configuration error: ${problem}`);
  if (err instanceof StartupError) return [`Cannot start: ${err.message}`];
  const message = err instanceof Error ? err.message : String(err);
  return [`Cannot start: ${message.split('\n')[0]} (LOG_LEVEL=debug shows where)`];
}

/** Prints the failure (with its stack only when LOG_LEVEL is debug or trace) and exits 1. */
export function exitOnStartupFailure(err: unknown): never {
  const verbose = verboseLevels.has(process.env.LOG_LEVEL?.trim() ?? '');
  const stack = verbose && err instanceof Error && err.stack ? [err.stack] : [];
  process.stderr.write(`${[...startupFailureLines(err), ...stack].join('\n')}\n`);
  process.exit(1);
}

/**
 * Until `ready()`, a rejection nobody awaited or an uncaught exception is a start-up failure. After it, a
 * rejected promise nobody awaited (one inside Bolt's receiver, for a malformed request) is logged rather
 * than ending the process with every booking in flight.
 */
export function failFastUntilReady(): { ready(logger: Logger): void } {
  process.on('unhandledRejection', exitOnStartupFailure);
  process.on('uncaughtException', exitOnStartupFailure);
  return {
    ready(logger) {
      process.off('unhandledRejection', exitOnStartupFailure);
      process.off('uncaughtException', exitOnStartupFailure);
      process.on('unhandledRejection', (reason) =>
        logger.error({ err: reason }, 'unhandled promise rejection'),
      );
    },
  };
}

const codeOf = (err: unknown) => (err as { code?: unknown } | null)?.code;

/** A server that could not listen on `port`, as one line naming the setting that chose it. */
export function listenFailure(err: unknown, setting: string, port: number): Error {
  switch (codeOf(err)) {
    case 'EADDRINUSE':
      return new StartupError(`${setting} ${port} is already in use: set ${setting} to a free port`);
    case 'EACCES':
      return new StartupError(
        `${setting} ${port} needs privileges this process does not have: set ${setting} to 1024 or above`,
      );
    default:
      return err instanceof Error ? err : new Error(String(err));
  }
}

/** The errors under `err`: a client's wrapping (`original`), then each `cause`. */
function causesOf(err: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let next = err; next instanceof Object && !chain.includes(next); ) {
    chain.push(next);
    const wrapped = next as { original?: unknown; cause?: unknown };
    next = wrapped.original ?? wrapped.cause;
  }
  return chain;
}

/**
 * Why a request got no answer, in words an operator acts on: fetch says only "fetch failed", and the
 * system's code is in its cause. A try that ran out of time is a TimeoutError (AbortSignal.timeout).
 */
export function unreachableReason(err: unknown, timeoutMs: number): string {
  const chain = causesOf(err);
  if (chain.some((cause) => (cause as Error).name === 'TimeoutError'))
    return `no answer within ${timeoutMs / 1000} s`;
  for (const cause of chain) {
    const code = codeOf(cause);
    switch (code) {
      case 'ENOTFOUND':
        return 'its host name was not found (ENOTFOUND)';
      case 'EAI_AGAIN':
        return 'its host name could not be looked up now: DNS did not answer (EAI_AGAIN)';
      case 'ECONNREFUSED':
        return 'the connection was refused (ECONNREFUSED): nothing listens there';
      case 'ETIMEDOUT':
      case 'UND_ERR_CONNECT_TIMEOUT':
        return `the connection timed out (${code})`;
      case 'ECONNRESET':
      case 'UND_ERR_SOCKET':
        return `the connection was cut (${code})`;
    }
  }
  const deepest = chain.findLast((cause) => cause instanceof Error) as Error | undefined;
  return deepest ? (deepest.message.split('\n')[0] ?? '') : String(err);
}

/** The nearest ancestor of `path` that exists, if it is not a directory. */
function fileInTheWay(path: string): string | undefined {
  for (let dir = dirname(path); dir !== dirname(dir); dir = dirname(dir)) {
    try {
      const stat = statSync(dir, { throwIfNoEntry: false });
      if (stat) return stat.isDirectory() ? undefined : dir;
    } catch {
      // ENOTDIR: a file further up; keep climbing to it.
    }
  }
  return undefined;
}

function writable(directory: string): boolean {
  try {
    accessSync(directory, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function databaseReason(err: unknown, path: string): string {
  const code = String(codeOf(err) ?? '');
  const directory = dirname(path);
  const blocker = code === 'EEXIST' || code === 'ENOTDIR' ? fileInTheWay(path) : undefined;
  if (blocker) return `${blocker} is a file, not a directory`;
  if (code === 'EROFS') return `${directory} is on a read-only file system`;
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory())
    return 'it is a directory: name a file inside it';
  const denied = ['EACCES', 'EPERM', 'SQLITE_CANTOPEN'].includes(code) || code.startsWith('SQLITE_READONLY');
  if (denied && !writable(directory)) return `this user may not create or write ${directory}`;
  if (code.startsWith('SQLITE_READONLY')) return 'the file is read-only for this user';
  if (code === 'SQLITE_CANTOPEN') return `the file cannot be created or opened in ${directory}`;
  if (code === 'SQLITE_NOTADB') return 'the file is not a SQLite database';
  // A file system that refuses new directories whoever asks (/proc answers ENOENT).
  const failed = err as NodeJS.ErrnoException;
  if (failed.syscall === 'mkdir') return `the directory ${failed.path} cannot be created (${code})`;
  return err instanceof Error ? (err.message.split('\n')[0] ?? code) : String(err);
}

/** The error underneath the store's wrapping, where the system's or SQLite's code is. */
function rootCause(err: unknown): unknown {
  let cause = err;
  while (cause instanceof Error && cause.cause !== undefined && codeOf(cause) === undefined)
    cause = cause.cause;
  return cause;
}

/**
 * The store could not be opened at start-up, as one line naming the setting that chose the database:
 * for DATABASE_PATH the path and why it cannot be used; for DATABASE_URL the store's message (unreachable,
 * refused, migrated by a newer build), whose URL has its password masked.
 */
export function databaseFailure(database: DatabaseConfig, err: unknown): StartupError {
  if (!database.url) {
    const reason = databaseReason(rootCause(err), resolve(database.path));
    return new StartupError(`DATABASE_PATH ${database.path} cannot be used: ${reason}`, { cause: err });
  }
  const reason = err instanceof Error ? err.message : String(err);
  return new StartupError(`DATABASE_URL: ${reason.replace(/\s+/g, ' ')}`, { cause: err });
}

/** The ready line says what to do next: where Slack must send requests, then try /quote. */
export function readyMessage(port: number | undefined): string {
  if (port === undefined) return 'Waybill bot ready (Socket Mode): type /quote in Slack';
  return `Waybill bot ready: Slack must send requests to http://<this host>:${port}/slack/events (the Request URL of the slash commands, Interactivity and Event Subscriptions), then type /quote in Slack`;
}
