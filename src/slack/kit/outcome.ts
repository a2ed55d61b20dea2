/** One outcome model for a courier call shown in a modal (working, done, failed, unknown, in flight) and its one renderer, which each feature feeds with its words. */
import type { KnownBlock, ModalView } from '@slack/types';
import type { WaybillEnv } from '../../waybill/settings.js';
import { outcomeModal } from './blocks.js';

/** What became of a courier call; `D`: what a success shows, `W`: what shows while it is being sent. */
export type Outcome<D, W = undefined> =
  | { state: 'working'; detail: W }
  | { state: 'done'; detail: D }
  | { state: 'failed'; message: string }
  /** `attemptKey`: the call whose outcome is unknown, which Resolve settles. */
  | { state: 'unknown'; message: string; attemptKey: string }
  /** The same call, sent from elsewhere (a double click, a replay), is still under way. */
  | { state: 'in-flight' };

/** A modal's title and blocks under the environment notice. */
export interface Screen {
  title: string;
  blocks: KnownBlock[];
}

/** A feature's words for each outcome, given the waybill's tracking number. */
export interface OutcomeWords<D, W = undefined> {
  callbackId: string;
  working(detail: W, trackingNumber: string): Screen;
  done(detail: D, trackingNumber: string): Screen;
  failed(message: string, trackingNumber: string): Screen;
  unknown(message: string, attemptKey: string, trackingNumber: string): Screen;
  inFlight(trackingNumber: string): Screen;
}

/** Where the modal is shown: the waybill, the environment, the view's metadata. */
export interface OutcomeFrame {
  trackingNumber: string;
  env: WaybillEnv;
  metadata: string;
}

/** A screen of a feature's outcome modal (also one outside the model, e.g. "Not booked" after a Resolve). */
export function outcomeScreen(
  words: Pick<OutcomeWords<unknown, unknown>, 'callbackId'>,
  { title, blocks }: Screen,
  { env, metadata }: Omit<OutcomeFrame, 'trackingNumber'>,
): ModalView {
  return outcomeModal({ callbackId: words.callbackId, title, metadata, env, blocks });
}

/** The modal of an outcome, in the feature's words. */
export function outcomeView<D, W>(
  words: OutcomeWords<D, W>,
  outcome: Outcome<D, W>,
  frame: OutcomeFrame,
): ModalView {
  const tn = frame.trackingNumber;
  const screen =
    outcome.state === 'working'
      ? words.working(outcome.detail, tn)
      : outcome.state === 'done'
        ? words.done(outcome.detail, tn)
        : outcome.state === 'failed'
          ? words.failed(outcome.message, tn)
          : outcome.state === 'unknown'
            ? words.unknown(outcome.message, outcome.attemptKey, tn)
            : words.inFlight(tn);
  return outcomeScreen(words, screen, frame);
}

/**
 * The outcome of an attempt already made with the same key (a double click, a replay), from what
 * the store kept of it: `isDone` tells a success's result from a failure's message.
 */
export function outcomeOfAttempt<D, W>(
  attempt: { key: string; state: string; result?: unknown },
  isDone: (result: unknown) => result is D,
): Outcome<D, W> {
  const { result } = attempt;
  if (attempt.state === 'succeeded' && isDone(result)) return { state: 'done', detail: result };
  const message = result && typeof result === 'object' && 'message' in result ? String(result.message) : '';
  if (attempt.state === 'failed') return { state: 'failed', message };
  if (attempt.state === 'unknown') return { state: 'unknown', message, attemptKey: attempt.key };
  return { state: 'in-flight' };
}

/** The outcome of a call the courier did not confirm: an operation's `failed` or `unknown` result. */
export function outcomeOfFailure(
  { state, message }: { state: 'failed' | 'unknown'; message: string },
  attemptKey: string,
): Outcome<never, never> {
  return state === 'failed' ? { state, message } : { state, message, attemptKey };
}
