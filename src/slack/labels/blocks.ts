/** What the labels feature says in Slack: the comment on a label file, Send to printer, why a booking has no label, the manifest's answers. */
import type { KnownBlock } from '@slack/types';
import { kilograms, type Manifest } from '../../labels/manifest.js';
import { UNPRINTABLE_MARK } from '../../labels/pdf.js';
import type { AuditEntry } from '../../store/index.js';
import { formatCents, formatMoney } from '../../waybill/fields.js';
import { slackDate } from '../booking/index.js';
import { plain } from '../kit/blocks.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import { ids } from './ids.js';

/** How long the characters named in one note may be: a comment stays short whatever was typed. */
const NAMED_LENGTH = 300;

/**
 * The line added to a label file's comment when some characters could not be printed: each one named
 * (escaped), so the person who printed can write them on the parcel by hand. Empty when none.
 */
export function unprintableNote(unprintable: readonly string[], mark = UNPRINTABLE_MARK): string {
  if (unprintable.length === 0) return '';
  const named: string[] = [];
  let length = 0;
  for (const char of unprintable) {
    length += char.length;
    if (named.length > 0 && length > NAMED_LENGTH) break;
    named.push(escapeMrkdwn(char));
  }
  const more = unprintable.length - named.length;
  return `\n:warning: The label font cannot print these characters, so they show as ${mark}: ${named.join('  ')}${more > 0 ? ` and ${more} more` : ''}`;
}

/** The comment shared with a labels PDF (`trackingNumber` escaped); a reprint names who printed it first and when. */
export function labelsComment(input: {
  trackingNumber: string;
  pages: number;
  userId: string;
  earlier: AuditEntry | undefined;
  timeZone: string;
}): string {
  const { earlier } = input;
  const what = `${input.pages} label${input.pages === 1 ? '' : 's'} for \`${input.trackingNumber}\``;
  return earlier
    ? `:printer: *Reprinted* by <@${input.userId}>: ${what} (first printed by <@${earlier.userId}> on ${slackDate(earlier.at, input.timeZone)})`
    : `:printer: Printed by <@${input.userId}>: ${what}`;
}

/** The comment shared with an import's labels; `fileName` escaped. */
export function importLabelsComment(input: {
  fileName: string;
  pages: number;
  rows: number;
  userId: string;
}): string {
  const { pages, rows } = input;
  return `:printer: Printed by <@${input.userId}>: ${pages} label${pages === 1 ? '' : 's'} for the ${rows} booked row${rows === 1 ? '' : 's'} of *${input.fileName}*, in file order`;
}

/** Why a tracking number gets no label: `outcome` is that of its last booking attempt, if any. `safeNumber` is escaped. */
export function noLabelText(safeNumber: string, outcome: string | undefined): string {
  if (outcome === 'unknown') {
    return `No labels for \`${safeNumber}\`: the courier never answered whether it is booked. Check with the courier first; once it is booked, print again.`;
  }
  if (outcome === 'failed')
    return `No labels for \`${safeNumber}\`: the courier refused this booking, so there is nothing to label.`;
  return `No labels for \`${safeNumber}\`: I have no booking with that number in a conversation where you may look up waybills.`;
}

/** The comment on a manifest's PDF: the day's totals of what is handed over, those to check with the courier, and those left out and why. */
export function manifestComment(manifest: Manifest, userId: string, currency: string): string {
  const { totals, unknown } = manifest;
  const check =
    unknown.length > 0
      ? `\n:warning: ${unknown.length} booking${unknown.length === 1 ? '' : 's'} to check with the courier before hand-over (listed apart).`
      : '';
  const { leftOut } = manifest;
  const left =
    leftOut.length > 0
      ? `\n:no_entry_sign: ${leftOut.length} booking${leftOut.length === 1 ? '' : 's'} of the day left out, not handed over (${[...new Set(leftOut.map((l) => l.why.toLowerCase()))].join(', ')}): listed apart, in no total.`
      : '';
  return (
    `:clipboard: Pickup list of ${manifest.date}, for <@${userId}>: ${totals.bookings} booking${totals.bookings === 1 ? '' : 's'} to hand over, ` +
    `${totals.parcels} parcel${totals.parcels === 1 ? '' : 's'}, ${kilograms(totals.grams)} kg, COD ${formatMoney(formatCents(totals.codCents), currency)}.${check}${left}`
  );
}

/** What Send to printer prints: a booking's labels (`t`) or an import's (`f`), and on which printer. */
export interface PrintJob {
  kind: 't' | 'f';
  /** The tracking number, or the import's file hash. */
  ref: string;
  printer: string;
}

/** A job as a button's or option's value (at most 150 characters: tracking numbers and printer names have no colon). */
export const jobValue = (job: PrintJob) => `${job.kind}:${job.ref}:${job.printer}`;

export function jobOf(value: string): PrintJob | undefined {
  const [kind, ref, printer] = value.split(':');
  return (kind === 't' || kind === 'f') && ref && printer ? { kind, ref, printer } : undefined;
}

/** The message beside a ZPL file: Send to printer, or with several printers a choice of which. */
export function printerOffer(printers: readonly { name: string }[], job: Omit<PrintJob, 'printer'>) {
  const text = 'Send these labels to a label printer on the office network.';
  const [only] = printers;
  const element =
    printers.length === 1 && only
      ? {
          type: 'button' as const,
          action_id: ids.labelsSendToPrinter,
          text: plain('Send to printer'),
          value: jobValue({ ...job, printer: only.name }),
        }
      : {
          type: 'static_select' as const,
          action_id: ids.labelsSendToPrinter,
          placeholder: plain('Send to printer\u2026'),
          options: printers.map(({ name }) => ({
            text: plain(name),
            value: jobValue({ ...job, printer: name }),
          })),
        };
  const blocks: KnownBlock[] = [
    { type: 'section', text: { type: 'mrkdwn', text } },
    { type: 'actions', elements: [element] },
  ];
  return { text, blocks };
}
