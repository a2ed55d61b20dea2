/** Block Kit of recorded statuses: the Record status modal, the thread line, the history. */
import type { KnownBlock, ModalView, PlainTextOption } from '@slack/types';
import type { StatusEntry } from '../../store/index.js';
import { FAILURE_REASONS, PARCEL_STATUSES, STATUS_NOTE_MAX, statusLabel } from '../../waybill/statuses.js';
import { slackDate, statusLine } from '../booking/index.js';
import { context, cut, plain, section } from '../kit/blocks.js';
import { VALUE_ACTION } from '../kit/forms.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import { ids } from './ids.js';

export const statusBlocks = { status: 'status', reason: 'reason', note: 'note' } as const;

/** History lines shown by /waybill show: the latest ones, the rest summed up. */
export const HISTORY_SHOWN = 10;

function options(labels: Record<string, string>): PlainTextOption[] {
  return Object.entries(labels).map(([value, text]) => ({ text: plain(text), value }));
}

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
        `What happened to \`${tn}\`? It is recorded as you say it, with your name: the courier is not asked.` +
          (input.current ? `\nNow: ${statusLine(input.current, input.timeZone)}` : ''),
      ),
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
    ],
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
