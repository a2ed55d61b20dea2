/** find_waybill: bookings found by `/waybill find`'s words and filters, under its channel rule, as a workflow's outputs. */
import type { App } from '@slack/bolt';
import { findPage, readFindQuery } from '../../operations/find.js';
import { statusLabel } from '../../waybill/statuses.js';
import type { Core } from '../core.js';
import { homeBooking } from '../home/index.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import { ids } from './ids.js';
import type { GivenInputs } from './inputs.js';
import { runStep, type StepEnd, stepRequires } from './send.js';

async function findStep(
  deps: Pick<Core, 'access' | 'store' | 'waybill'>,
  given: GivenInputs,
  end: StepEnd,
): Promise<void> {
  const query = typeof given.query === 'string' ? given.query.trim() : '';
  if (!query) return void (await end.fail({ error: 'query: write the words to find' }));
  const reading = readFindQuery(query, {
    userId: typeof given.requested_by === 'string' ? given.requested_by : '',
    timeZone: deps.waybill.timeZone,
  });
  if (!reading.ok) return void (await end.fail({ error: `query: ${reading.problem}` }));
  // The channel rule as /waybill find applies it: only bookings from the allowed channels.
  const channelIds = deps.access.bookingChannels;
  const page = await findPage(deps.store, reading.query, channelIds ? { channelIds } : {});
  const statuses = await deps.store.statuses.latestOf(page.bookings.map((b) => b.trackingNumber));
  const lines = page.bookings.map((stored) => {
    const b = homeBooking(deps, stored, statuses.get(stored.trackingNumber));
    const status = b.status ? statusLabel(b.status.status, b.status.reason) : 'Booked';
    return `${b.trackingNumber}: ${escapeMrkdwn(b.receiver)}, ${escapeMrkdwn(b.city)} (${status})`;
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
  app.function(ids.stepFind, stepRequires(deps, 'show'), async ({ inputs, complete, fail }) => {
    const end = { complete, fail };
    runStep(deps, ids.stepFind, end, () => findStep(deps, inputs, end));
  });
}
