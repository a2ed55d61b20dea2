/**
 * `/waybill statuses`: one status recorded for many parcels at once (the morning's pickups, the
 * afternoon's deliveries), picked from those the person may update that are still on their way.
 */

import type { App, ViewSubmitAction } from '@slack/bolt';
import { type Scope, scopeChannels } from '../../operations/access.js';
import type { Store } from '../../store/index.js';
import { instantFromZonedDateTime, zonedDateAfter } from '../../waybill/dates.js';
import { validate } from '../../waybill/schemas.js';
import type { ParcelStatus } from '../../waybill/statuses.js';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { scopeOf } from '../guards/person.js';
import { type DraftContext, withDraft } from '../guards/with-draft.js';
import { answerWithForm, type CommandAnswer, waybillVerb } from '../kit/command-request.js';
import type { StateValues } from '../kit/forms.js';
import { viewMetadata } from '../kit/ids.js';
import { showInModal } from '../kit/modal.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import { PARCELS_OFFERED, type ParcelChoice, statusBlocks, statusesModal, statusesView } from './blocks.js';
import { openStatusFile } from './file.js';
import { statusChoiceOf } from './form.js';
import { ids } from './ids.js';
import { recordStatus, type StatusDeps, tellCards } from './send.js';

const DRAFT_KIND = 'statuses';
type StatusesDraft = Record<string, never>;

/** Parcels picked up this many days back, or later up to tomorrow's pickups, are offered. */
const DAYS_BACK = 7;
/** A parcel with one of these is not on its way any more. */
const FINISHED: ReadonlySet<string> = new Set<ParcelStatus>(['delivered', 'returned', 'cancelled']);
/** Bookings read at most, a page at a time: a week of a busy team's pickups. */
const PAGES_READ = 10;

/** The parcels on their way that `scope` sees, newest pickup first, at most PARCELS_OFFERED. */
export async function parcelsOnTheirWay(
  deps: Pick<Core, 'schemas' | 'waybill' | 'now'> & { store: Pick<Store, 'bookings' | 'statuses'> },
  scope: Scope,
): Promise<ParcelChoice[]> {
  const { timeZone } = deps.waybill;
  const now = deps.now();
  const from = instantFromZonedDateTime(zonedDateAfter(now, -DAYS_BACK, timeZone), '00:00', timeZone);
  const to = instantFromZonedDateTime(zonedDateAfter(now, 2, timeZone), '00:00', timeZone);
  const channelIds = scopeChannels(scope);
  const found: (ParcelChoice & { pickupAt: number })[] = [];
  let after: string | undefined;
  for (let page = 0; page < PAGES_READ; page++) {
    const records = await deps.store.bookings.listByPickup({ from, to, after, channelIds, limit: 100 });
    const latest = await deps.store.statuses.latestOf(records.map((record) => record.trackingNumber));
    for (const record of records) {
      const status = latest.get(record.trackingNumber);
      const parsed = validate(deps.schemas.booking, record.record);
      if ((status && FINISHED.has(status.status)) || !parsed.ok) continue;
      const booking = parsed.value;
      found.push({
        trackingNumber: record.trackingNumber,
        receiver: booking.consignee.name,
        city: booking.consignee.city,
        ...(status ? { latest: status } : {}),
        pickupAt: booking.pickupAt.getTime(),
      });
    }
    after = records.at(-1)?.trackingNumber;
    if (records.length < 100) break;
  }
  return found
    .sort((a, b) => b.pickupAt - a.pickupAt)
    .slice(0, PARCELS_OFFERED)
    .map(({ pickupAt: _, ...parcel }) => parcel);
}

const statusesCommand: CommandAnswer<{ file?: true }, StatusDeps & Pick<Core, 'now'>> = async (
  deps,
  args,
  request,
) => {
  if (request.file) {
    await openStatusFile(deps, args);
    return;
  }
  const { command } = args;
  // The parcels are read after the ack, within the 3 s the form's trigger lives.
  await answerWithForm(deps, args, 'Type `/waybill statuses` again to pick the parcels.', async () => {
    const scope = await scopeOf(deps.access, args.client, command.user_id, command.team_id);
    const parcels = await parcelsOnTheirWay(deps, scope);
    if (parcels.length === 0)
      return `No parcel picked up in the last ${DAYS_BACK} days, or due for pickup by tomorrow, is still on its way in the conversations you may see: nothing to record.`;
    const draft = await deps.store.drafts.create<StatusesDraft>({
      kind: DRAFT_KIND,
      userId: command.user_id,
      channelId: command.channel_id,
      data: {},
    });
    return statusesModal({ parcels, metadata: viewMetadata({ draftId: draft.id }) });
  });
};

/** `/waybill statuses`. */
export const statusesVerb = waybillVerb({
  verb: 'statuses',
  usage:
    "`/waybill statuses`: one status (picked up, delivered, …) for many parcels at once, picked from those on their way; `/waybill statuses file`: the courier's status export (CSV) recorded row by row",
  // As one status: the update permission, and each parcel checked as its own.
  permission: 'update',
  // `file`: the courier's export instead of a pick; any other words are ignored, as before.
  parse: ({ rest }) => (rest.trim().toLowerCase() === 'file' ? { file: true as const } : {}),
  answer: statusesCommand,
});

/** What came of one parcel, in one line. */
const outcomeLine = (trackingNumber: string, text: string, refused?: true) =>
  refused ? `• \`${escapeMrkdwn(trackingNumber)}\`: ${text}` : `• ${text}`;

export function register(app: App, deps: Core): void {
  app.view<ViewSubmitAction, DraftContext<StatusesDraft>>(
    ids.statusesForm,
    requires(deps, 'update'),
    withDraft(deps.store.drafts, DRAFT_KIND, {
      error: 'This window has expired. Close it and type `/waybill statuses` again.',
      block: statusBlocks.parcels,
    }),
    async ({ ack, view, body, client }) => {
      const { form, checked } = statusChoiceOf(view.state.values as StateValues);
      const parcels = Array.isArray(form[statusBlocks.parcels])
        ? (form[statusBlocks.parcels] as string[])
        : [];
      const errors = {
        ...(parcels.length === 0 ? { [statusBlocks.parcels]: 'Pick at least one parcel.' } : {}),
        ...(checked.ok ? {} : checked.errors),
      };
      if (!checked.ok || Object.keys(errors).length > 0) {
        await ack({ response_action: 'errors', errors });
        return;
      }
      // Each parcel is checked and recorded after the ack: a hundred of them can take longer than Slack waits.
      await ack({
        response_action: 'update',
        view: statusesView(`Recording for ${parcels.length} parcels…`),
      });
      const userId = body.user.id;
      deps.inFlight.run(
        'statuses',
        async () => {
          const lines: string[] = [];
          const recorded = [];
          for (const trackingNumber of parcels.slice(0, PARCELS_OFFERED)) {
            const answer = await recordStatus(deps, client, {
              userId,
              trackingNumber,
              choice: checked.value,
            });
            lines.push(outcomeLine(trackingNumber, answer.text, answer.refused));
            if (answer.recorded) recorded.push(answer.recorded);
          }
          await showInModal(client, body.view?.id ?? view.id, statusesView(lines.join('\n')));
          for (const entry of recorded) await tellCards(deps, client, entry);
        },
        { client, userId, what: 'the statuses you recorded' },
      );
    },
  );
}
