/**
 * Every Slack request as Bolt processes it: an id on each log line it leads to, counted by kind and
 * outcome, and the time to its acknowledgement measured.
 */
import { randomUUID } from 'node:crypto';
import type { ReceiverEvent } from '@slack/bolt';
import { inRequest, requestInHand } from '../../logger.js';
import type { Core } from '../core.js';
import type { AroundRequest } from './around-request.js';

const kinds = new Set([
  'view_submission',
  'view_closed',
  'block_actions',
  'block_suggestion',
  'shortcut',
  'message_action',
]);

/** What kind of request a body is: its type as Slack names it (few values, nothing personal). */
export function requestKind(body: Record<string, unknown>): string {
  if (typeof body.command === 'string') return 'command';
  if (body.type === 'event_callback') return 'event';
  return typeof body.type === 'string' && kinds.has(body.type) ? body.type : 'other';
}

/** For the app's error handler: the request in hand failed. */
export function requestFailed(): void {
  const request = requestInHand();
  if (request) request.failed = true;
}

/**
 * Around each request (around-request.ts): it runs with an id
 * of its own (every log line carries it, the courier's call line and work after the ack included),
 * its acknowledgement is timed from there (work after acks waits for it: `InFlight`), and once its
 * listeners are done it is counted.
 */
export function instrumentRequests({ metrics, inFlight }: Pick<Core, 'metrics' | 'inFlight'>): AroundRequest {
  return (process) => (event: ReceiverEvent) => {
    const kind = requestKind(event.body);
    const started = performance.now();
    const ack = event.ack;
    const answered = inFlight.awaitingAck();
    let acked = false;
    const timed: ReceiverEvent = {
      ...event,
      ack: (response) => {
        if (!acked) metrics.ackSeconds.observe({ kind }, (performance.now() - started) / 1000);
        acked = true;
        answered();
        return ack(response);
      },
    };
    const request = { id: randomUUID(), failed: false };
    return inRequest(request, () =>
      process(timed).then(
        () => {
          answered();
          metrics.requests.inc({ kind, outcome: request.failed ? 'error' : 'ok' });
        },
        (err: unknown) => {
          answered();
          metrics.requests.inc({ kind, outcome: 'error' });
          throw err;
        },
      ),
    );
  };
}
