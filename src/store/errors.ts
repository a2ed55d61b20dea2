// The store's errors, and the helper that keeps a database password out of every message.

export class StoreError extends Error {
  override name = 'StoreError';
}

/**
 * The database could not be reached or did not answer in time (refused, dropped, timed out,
 * busy). The operation may be retried once it is back; nothing in it was half-written, because
 * bookkeeping that belongs together runs in one transaction.
 */
export class StoreUnavailableError extends StoreError {
  override name = 'StoreUnavailableError';
  /** `reason`: what the driver said (refused, terminated, timed out…), one line, no password. */
  constructor(
    readonly reason: string,
    options?: ErrorOptions,
    situation = 'The database did not answer',
  ) {
    super(`${situation}: ${reason}`, options);
  }
}

/** The database was migrated by a newer build of the bot: this build refuses to touch it. */
export class NewerSchemaError extends StoreError {
  override name = 'NewerSchemaError';
}

export class DuplicateTrackingNumberError extends StoreError {
  override name = 'DuplicateTrackingNumberError';
  constructor(readonly trackingNumber: string) {
    super(`A booking with tracking number ${trackingNumber} already exists`);
  }
}

export class DraftNotFoundError extends StoreError {
  override name = 'DraftNotFoundError';
  constructor(readonly draftId: string) {
    super(`Draft ${draftId} does not exist or has expired`);
  }
}

export class BookingNotFoundError extends StoreError {
  override name = 'BookingNotFoundError';
  constructor(readonly trackingNumber: string) {
    super(`No booking with tracking number ${trackingNumber}`);
  }
}

export class AttemptNotFoundError extends StoreError {
  override name = 'AttemptNotFoundError';
  constructor(readonly key: string) {
    super(`No attempt with key ${key}`);
  }
}

export class ImportRowNotFoundError extends StoreError {
  override name = 'ImportRowNotFoundError';
  constructor(
    readonly fileHash: string,
    readonly row: number,
  ) {
    super(`No row ${row} of import ${fileHash}`);
  }
}

const MASK = '***';

/**
 * True when an `@` follows a `/`, `?` or `#` after the scheme: a password with one of those unencoded
 * (`p@ss/w#rd`), which a URL reader takes for the host, path or fragment, so no part of it may be shown.
 */
export function passwordEndsHostEarly(url: string): boolean {
  const start = url.indexOf('//');
  const lastAt = url.lastIndexOf('@');
  return start >= 0 && lastAt > start && /[/?#]/.test(url.slice(start + 2, lastAt));
}

/**
 * A database URL fit for a log line: the password (in the user-info part or a `password=`
 * parameter) becomes `***`, whole, never in part. Text that is not a URL gets the user-info
 * part masked by pattern, so a malformed setting is still safe to print.
 */
export function redactUrl(url: string): string {
  if (passwordEndsHostEarly(url)) {
    const start = url.indexOf('//') + 2;
    return `${url.slice(0, start)}${MASK}${url.slice(url.lastIndexOf('@'))}`;
  }
  if (URL.canParse(url)) {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = MASK;
    for (const key of [...parsed.searchParams.keys()]) {
      if (key.toLowerCase() === 'password') parsed.searchParams.set(key, MASK);
    }
    // URLSearchParams percent-encodes the mask; keep it readable.
    return parsed.toString().replaceAll(encodeURIComponent(MASK), MASK);
  }
  return url.replace(/(\/\/[^/@:]*:)[^/@]*@/, `$1${MASK}@`).replace(/(password=)[^&\s]*/gi, `$1${MASK}`);
}
