/** The SMS gateway the bot texts receivers through: Semaphore, or the log gateway that sends nothing. */

/**
 * What came of one send. Only `unavailable` may be sent again: the gateway said it did not take the
 * message (429, 503) or it was never reached. `unknown` means it may have been taken (a timeout after
 * the request went out, a 5xx): sending again could text the receiver twice, so it is not retried.
 */
export type SendOutcome =
  | { kind: 'sent'; messageId?: string }
  /** The log gateway: nothing sent, the text only shown. */
  | { kind: 'logged' }
  /** The gateway refused it for good (a bad number, no credit, a bad key): not sent. */
  | { kind: 'refused'; reason: string }
  | { kind: 'unavailable'; reason: string; retryAfterMs?: number }
  | { kind: 'unknown'; reason: string };

export interface SmsGateway {
  /** `log` or `semaphore`: said in the thread. */
  readonly name: string;
  /** Calls a minute the gateway takes; the outbox never claims more (across replicas). */
  readonly perMinute: number;
  /** Texts `message` to `number` (`639171234567`). Never throws: every failure is an outcome. */
  send(number: string, message: string): Promise<SendOutcome>;
}

/** Semaphore's public API, and the calls a minute it takes. */
export const SEMAPHORE_URL = 'https://api.semaphore.co/';
export const SEMAPHORE_PER_MINUTE = 120;

/** The default: sends nothing, so the bot runs with no SMS account; the thread shows what would have been texted. */
export const logGateway: SmsGateway = {
  name: 'log',
  perMinute: 600,
  send: async () => ({ kind: 'logged' }),
};
