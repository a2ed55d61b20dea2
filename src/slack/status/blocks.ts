/** Block Kit of recorded statuses: the Record status modal, the thread line, the history. */
import type { KnownBlock, ModalView, PlainTextOption } from '@slack/types';
import type { StatusEntry } from '../../store/index.js';
import { FAILURE_REASONS, PARCEL_STATUSES, STATUS_NOTE_MAX, statusLabel } from '../../waybill/statuses.js';
import { slackDate, statusLine } from '../booking/index.js';
import { context, cut, plain, section } from '../kit/blocks.js';
import { VALUE_ACTION } from '../kit/forms.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import { ids } from './ids.js';

export const statusBlocks = { status: 'status', reason: 'reason', note: 'note', parcels: 'parcels' } as const;

/** History lines shown by /waybill show: the latest ones, the rest summed up. */
export const HISTORY_SHOWN = 10;

function options(labels: Record<string, string>): PlainTextOption[] {
  return Object.entries(labels).map(([value, text]) => ({ text: plain(text), value }));
}

/** The status, a failed attempt's reason and a note: the inputs both status modals ask. */
function statusInputs(): KnownBlock[] {
  return [
    {
      type: 'input',
      block_id: statusBlocks.status,
      label: plain('Status'),
      element: {
        type: 'static_select',
        action_id: VALUE_ACTION,
        placeholder: plain('Choose'),
        options: options(PARCEL_STATUSES),
      },
    },
    {
      type: 'input',
      block_id: statusBlocks.reason,
      optional: true,
      label: plain('Reason (failed attempt)'),
      element: {
        type: 'static_select',
        action_id: VALUE_ACTION,
        placeholder: plain('Choose'),
        options: options(FAILURE_REASONS),
      },
    },
    {
      type: 'input',
      block_id: statusBlocks.note,
      optional: true,
      label: plain('Note'),
      hint: plain(
        'Needed for Other and for Cancelled with the courier: the courier’s interface cannot cancel, so say how it was done (phone, portal).',
      ),
      element: {
        type: 'plain_text_input',
        action_id: VALUE_ACTION,
        multiline: true,
        max_length: STATUS_NOTE_MAX,
      },
    },
  ];
}

const RECORDED_AS_SAID = 'It is recorded as you say it, with your name: the courier is not asked.';

/** The small modal a card's Record status opens: the status, a failed attempt's reason, a note. */
export function statusModal(input: {
  trackingNumber: string;
  metadata: string;
  current?: StatusEntry;
  timeZone: string;
}): ModalView {
  const tn = escapeMrkdwn(input.trackingNumber);
  return {
    type: 'modal',
    callback_id: ids.statusForm,
    private_metadata: input.metadata,
    title: plain('Record status'),
    submit: plain('Record'),
    close: plain('Cancel'),
    blocks: [
      section(
        `What happened to \`${tn}\`? ${RECORDED_AS_SAID}` +
          (input.current ? `\nNow: ${statusLine(input.current, input.timeZone)}` : ''),
      ),
      ...statusInputs(),
    ],
  };
}

/** A parcel offered for one status among many: its number, receiver and city, and where it stands. */
export interface ParcelChoice {
  trackingNumber: string;
  receiver: string;
  city: string;
  latest?: StatusEntry;
}

/** Slack's most options in one select. */
export const PARCELS_OFFERED = 100;

/** `/waybill statuses`: the parcels to record one status for, then the status as for one. */
export function statusesModal(input: { parcels: readonly ParcelChoice[]; metadata: string }): ModalView {
  return {
    type: 'modal',
    callback_id: ids.statusesForm,
    private_metadata: input.metadata,
    title: plain('Record statuses'),
    submit: plain('Record'),
    close: plain('Cancel'),
    blocks: [
      section(`One status for every parcel you pick. ${RECORDED_AS_SAID}`),
      {
        type: 'input',
        block_id: statusBlocks.parcels,
        label: plain('Parcels'),
        hint: plain(
          'Those picked up in the last week and not delivered, returned or cancelled, newest first.',
        ),
        element: {
          type: 'multi_static_select',
          action_id: VALUE_ACTION,
          placeholder: plain('Type a number or a name'),
          options: input.parcels.slice(0, PARCELS_OFFERED).map((parcel) => ({
            // Plain text: nothing in it is read as mrkdwn.
            text: plain(
              cut(
                [
                  parcel.trackingNumber,
                  parcel.receiver,
                  parcel.city,
                  parcel.latest ? statusLabel(parcel.latest.status, parcel.latest.reason) : 'no status yet',
                ]
                  .filter(Boolean)
                  .join(' · '),
                75,
              ),
            ),
            value: parcel.trackingNumber,
          })),
        },
      },
      ...statusInputs(),
    ],
  };
}

/** The modal while many statuses are recorded, and after: what came of each parcel. */
export function statusesView(text: string): ModalView {
  return {
    type: 'modal',
    title: plain('Record statuses'),
    close: plain('Close'),
    blocks: [section(cut(text, 3000))],
  };
}

/** The line added to the card's thread. */
export function statusThreadMessage(entry: StatusEntry): { text: string; blocks: KnownBlock[] } {
  const tn = escapeMrkdwn(entry.trackingNumber);
  const label = escapeMrkdwn(statusLabel(entry.status, entry.reason));
  const note = entry.note ? `: ${escapeMrkdwn(entry.note)}` : '';
  const text = `:memo: \`${tn}\` ${label}, recorded by <@${entry.userId}>${note}`;
  return { text, blocks: [section(text)] };
}

/** What the person is told after recording (or not) a status; the receiver named, so a mistyped number shows. */
export function recordedText(
  booking: { trackingNumber: string; receiver: string },
  result: { recorded: true; entry: StatusEntry } | { recorded: false; current: StatusEntry },
  timeZone: string,
): string {
  const tn = `\`${escapeMrkdwn(booking.trackingNumber)}\`${booking.receiver ? ` (${escapeMrkdwn(booking.receiver)})` : ''}`;
  if (!result.recorded) {
    return `${tn} is already *${escapeMrkdwn(statusLabel(result.current.status, result.current.reason))}*: nothing changed.`;
  }
  return `Recorded for ${tn}: ${statusLine(result.entry, timeZone)}`;
}

/** The modal after a submission: what was recorded. */
export function recordedView(text: string): ModalView {
  return {
    type: 'modal',
    title: plain('Record status'),
    close: plain('Close'),
    blocks: [section(text)],
  };
}

/** A booking's history of statuses, newest first, for /waybill show: at most HISTORY_SHOWN lines. */
export function historyBlocks(history: readonly StatusEntry[], timeZone: string): KnownBlock[] {
  if (history.length === 0)
    return [context('No status recorded yet: *Record status* on the card, or `/waybill status`.')];
  const shown = history.slice(-HISTORY_SHOWN).reverse();
  const lines = shown.map(
    (entry) =>
      `${slackDate(entry.at, timeZone)} · *${escapeMrkdwn(statusLabel(entry.status, entry.reason))}* · recorded by <@${entry.userId}>` +
      (entry.note ? ` · ${escapeMrkdwn(cut(entry.note.replace(/\s+/g, ' '), 120))}` : ''),
  );
  const earlier = history.length - shown.length;
  return [
    section(`*Status history*\n${lines.join('\n')}`),
    ...(earlier > 0 ? [context(`…and ${earlier} earlier.`)] : []),
  ];
}
