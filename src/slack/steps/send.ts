/** A workflow step's work after Bolt's acknowledgement, ended with `fail` if it breaks. */

import type { Middleware, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { Store } from '../../store/index.js';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import type { Permission } from '../kit/listener.js';

export interface StepEnd {
  complete: (params: { outputs: Record<string, unknown> }) => Promise<unknown>;
  fail: (params: { error: string }) => Promise<unknown>;
}

// A booking's courier call may have been made before the failure: never "nothing was done".
export const brokeText =
  'The Waybill Dispatch bot failed on this step (its log says why). Before running the workflow again, look in the booking channel or ask whoever runs the bot whether anything was booked or recorded.';

/** Said instead when the step failed before its courier call was begun, so the courier never had it. */
export const nothingSentText =
  'The Waybill Dispatch bot failed on this step before anything was sent to the courier (its log says why): nothing was booked, so the workflow can be run again.';

/**
 * The step's work, tracked like any work after an ack (a stop waits for it). A step Slack is never
 * told the end of waits until Slack gives up on it, so a failure of ours still ends it; `sentNothing`
 * says whether the work had not yet begun a courier call when it failed.
 */
export function runStep(
  deps: Pick<Core, 'inFlight' | 'logger'>,
  name: string,
  end: StepEnd,
  work: () => Promise<void>,
  sentNothing: () => Promise<boolean> = async () => false,
) {
  deps.inFlight.run(name, () =>
    work().catch(async (err: unknown) => {
      deps.logger.error({ err, step: name }, 'a workflow step failed');
      const nothing = await sentNothing().catch(() => false);
      await end.fail({ error: nothing ? nothingSentText : brokeText });
    }),
  );
}

/** `requires(permission)` for a step: the user its inputs name (guards/request-parts.ts), refused with `fail`. */
export function stepRequires(
  deps: Pick<Core, 'access' | 'logger'> & { store: Pick<Store, 'audit' | 'drafts'> },
  permission: Permission,
): Middleware<SlackEventMiddlewareArgs<'function_executed'>> {
  // Bolt types a step's arguments apart from other requests'; the guard reads only what all share.
  return requires(deps, permission) as unknown as Middleware<SlackEventMiddlewareArgs<'function_executed'>>;
}
