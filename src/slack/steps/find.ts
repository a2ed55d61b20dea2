/** find_waybill: bookings found by `/waybill find`'s words and filters, those the person it acts for sees, as a workflow's outputs (numbers and statuses). */

import type { App } from '@slack/bolt';
import { scopeChannels } from '../../operations/access.js';
import { findPage, readFindQuery } from '../../operations/find.js';
import type { Store } from '../../store/index.js';
import { statusLabel } from '../../waybill/statuses.js';
import type { Core } from '../core.js';
import { scopeOf } from '../guards/person.js';
import { stepActor } from '../guards/request-parts.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import type { SlackClient } from '../runtime/delivery.js';
import { ids } from './ids.js';
import type { GivenInputs } from './inputs.js';
import { runStep, type StepEnd, stepRequires } from './send.js';

async function findStep(
  deps: Pick<Core, 'access' | 'waybill'> & { store: Pick<Store, 'bookings' | 'statuses'> },
  client: SlackClient,
  given: GivenInputs,
  end: StepEnd,
): Promise<void> {
  const query = typeof given.query === 'string' ? given.query.trim() : '';
  if (!query) return void (await end.fail({ error: 'query: write the words to find' }));
  // The guard (stepRequires) let only a step acting for one person's ID through.
  const actor = stepActor(given);
  const userId = actor.ok ? actor.userId : '';
  const reading = readFindQuery(query, { userId, timeZone: deps.waybill.timeZone });
  if (!reading.ok) return void (await end.fail({ error: `query: ${reading.problem}` }));
  // The bookings the person it acts for sees (the access rule), as /waybill find finds them.
  const scope = await scopeOf(deps.access, client, userId);
  const channelIds = scopeChannels(scope);
  const page = await findPage(deps.store, reading.query, channelIds ? { channelIds } : {});
  const statuses = await deps.store.statuses.latestOf(page.bookings.map((b) => b.trackingNumber));
  // A workflow's outputs go wherever its author sends them: numbers and statuses, never receivers.
  const lines = page.bookings.map((b) => {
    const status = statuses.get(b.trackingNumber);
    return `${b.trackingNumber}: ${status ? statusLabel(status.status, status.reason) : 'Booked'}`;
  });
  const asked = `\`${escapeMrkdwn(query)}\``;
  const summary = lines.length
    ? [
        `${lines.length}${page.more ? ' (the newest; there are more)' : ''} bookings match ${asked}:`,
        ...lines,
      ].join('\n')
    : `No booking matches ${asked}.`;
  await end.complete({
    outputs: { tracking_numbers: page.bookings.map((b) => b.trackingNumber), summary },
  });
}

export function register(app: App, deps: Core): void {
  app.function(ids.stepFind, stepRequires(deps, 'show'), async ({ inputs, client, complete, fail }) => {
    const end = { complete, fail };
    runStep(deps, ids.stepFind, end, () => findStep(deps, client, inputs, end));
  });
}
