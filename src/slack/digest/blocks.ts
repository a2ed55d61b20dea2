/** The digest as Block Kit (a summary under 50 blocks, whatever the day) and its detail as a CSV file. */
import type { KnownBlock } from '@slack/types';
import { toCsv } from '../../waybill/csv/write.js';
import { zonedStamper } from '../../waybill/dates.js';
import { fieldOf, formatCents, parseCents, stringOf } from '../../waybill/fields.js';
import { statusLabel } from '../../waybill/statuses.js';
import { bookingIds } from '../booking/index.js';
import { context, cut, formatMoney, header, plain, plural, section } from '../kit/blocks.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import { codFigures } from '../remittance/index.js';
import { updateIds } from '../update/index.js';
import type { DigestData } from './data.js';

/** Shown by name; the rest are counted, and all are in the file. */
export const SENDERS_SHOWN = 10;
export const REFUSED_SHOWN = 5;
export const UNKNOWN_SHOWN = 10;
export const FAILED_SHOWN = 5;

const more = (n: number) => (n > 0 ? `\n…and ${n} more, in the file.` : '');

/** Whether the day has any line to put in a file. */
export function hasDetail(data: DigestData): boolean {
  return (
    data.bookings.length +
      data.refused.length +
      data.unknown.length +
      data.statuses.length +
      data.tomorrowPickups.length >
    0
  );
}

export function digestMessage(
  data: DigestData,
  options: { currency: string; late?: string; detailInThread: boolean },
): { text: string; blocks: KnownBlock[] } {
  const money = (value: bigint) => formatMoney(formatCents(value), options.currency);
  const senders = data.bySender
    .slice(0, SENDERS_SHOWN)
    .map(
      (line) =>
        `• ${escapeMrkdwn(cut(line.sender, 80))}: ${plural(line.bookings, 'booking')}, ${plural(line.parcels, 'parcel')}, COD ${money(line.codCents)}`,
    );
  const refused = data.refused
    .slice(0, REFUSED_SHOWN)
    .map(
      (entry) =>
        `• \`${escapeMrkdwn(entry.trackingNumber ?? '')}\` by <@${entry.userId}>: ${escapeMrkdwn(cut(entry.detail ?? '', 150))}`,
    );
  const unknown: KnownBlock[] = data.unknown.slice(0, UNKNOWN_SHOWN).map((attempt) => ({
    ...section(
      `\`${escapeMrkdwn(attempt.trackingNumber ?? '')}\` ${attempt.operation === 'update' ? 'updated' : 'booked'} by <@${attempt.userId ?? ''}>: the courier may or may not have it`,
    ),
    accessory: {
      type: 'button',
      action_id: attempt.operation === 'update' ? updateIds.resolveUpdateOpen : bookingIds.resolveOpen,
      text: plain('Resolve'),
      value: attempt.key,
    },
  }));
  const counts = new Map<string, number>();
  for (const entry of data.statuses) counts.set(entry.status, (counts.get(entry.status) ?? 0) + 1);
  const failed = data.statuses.filter((entry) => entry.status === 'failed_attempt');
  const statusLines = [
    [...counts.entries()].map(([status, n]) => `${escapeMrkdwn(statusLabel(status))}: ${n}`).join(' · '),
    ...failed
      .slice(0, FAILED_SHOWN)
      .map(
        (entry) =>
          `• \`${escapeMrkdwn(entry.trackingNumber)}\` ${escapeMrkdwn(statusLabel(entry.status, entry.reason))}${entry.note ? `: ${escapeMrkdwn(cut(entry.note, 120))}` : ''} (recorded by <@${entry.userId}>)`,
      ),
  ];
  const flagged = data.flaggedReceivers
    ? `, ${plural(data.flaggedReceivers, 'booking')} to flagged receivers`
    : '';
  const summary = `*${plural(data.bookings.length, 'booking')}*, ${plural(data.parcels, 'parcel')}, COD total ${money(data.codCents)}${flagged}`;
  const blocks: KnownBlock[] = [
    header(`Daily digest · ${data.day}`),
    ...(options.late ? [context(`:hourglass: ${escapeMrkdwn(options.late)}`)] : []),
    section(summary),
    section(
      `*By sender*\n${senders.join('\n') || 'No bookings today.'}${more(data.bySender.length - SENDERS_SHOWN)}`,
    ),
    section(
      `*Refused by the courier (${data.refused.length})*\n${refused.join('\n') || 'None.'}${more(data.refused.length - REFUSED_SHOWN)}`,
    ),
    section(`*Outcome unknown (${data.unknown.length})*${data.unknown.length === 0 ? '\nNone.' : ''}`),
    ...unknown,
    ...(data.unknown.length > UNKNOWN_SHOWN
      ? [context(`…and ${data.unknown.length - UNKNOWN_SHOWN} more, in the file.`)]
      : []),
    section(
      `*Statuses recorded today (${data.statuses.length})*\n${data.statuses.length === 0 ? 'None.' : statusLines.join('\n')}${more(failed.length - FAILED_SHOWN)}`,
    ),
    section(`*Pickups tomorrow*: ${plural(data.tomorrowPickups.length, 'booking')}`),
    section(`*Needs attention now (${data.attention.items})*: ${data.attention.counts || 'nothing'}`),
    section(codFigures(data.cod, options.currency)),
    context(
      (options.detailInThread ? 'Every line is in the CSV file in the thread. ' : '') +
        'Statuses are what dispatchers recorded, not tracking.',
    ),
  ];
  return { text: `Daily digest ${data.day}: ${summary.replaceAll('*', '')}`, blocks };
}

const COLUMNS = [
  'kind',
  'tracking_number',
  'sender',
  'receiver',
  'parcels',
  'cod_amount',
  'status',
  'note',
  'by',
  'at',
] as const;

/**
 * Every line of the digest, for a spreadsheet: bookings, refusals, unknown outcomes, statuses, tomorrow's
 * pickups. `whole`: whether a booking's sender, receiver, COD and notes may be shown where the file
 * goes (the access rule); the others are a number and a status.
 */
export function digestCsv(
  data: DigestData,
  options: { timeZone: string; codPaymentMethod: string; whole: (booking: { channelId: string }) => boolean },
): string {
  const stamp = zonedStamper(options.timeZone);
  const shown = new Map(
    [...data.bookings, ...data.tomorrowPickups].map((b) => [b.trackingNumber, options.whole(b)]),
  );
  const bookingRow = (kind: string, booking: DigestData['bookings'][number]) => {
    const record = options.whole(booking) ? booking.record : {};
    const cod =
      fieldOf(record, 'paymentMethod') === options.codPaymentMethod
        ? formatCents(parseCents(stringOf(fieldOf(record, 'codAmount'))) ?? 0n)
        : '';
    return [
      kind,
      booking.trackingNumber,
      stringOf(fieldOf(fieldOf(record, 'shipper'), 'name')),
      stringOf(fieldOf(fieldOf(record, 'consignee'), 'name')),
      String(Number(fieldOf(booking.record, 'quantity')) || 0),
      cod,
      '',
      '',
      booking.bookedBy,
      stamp(booking.bookedAt),
    ];
  };
  const rows = [
    ...data.bookings.map((b) => bookingRow('booking', b)),
    ...data.refused.map((e) => [
      'refused',
      e.trackingNumber ?? '',
      '',
      '',
      '',
      '',
      '',
      e.detail ?? '',
      e.userId,
      stamp(e.at),
    ]),
    ...data.unknown.map((a) => [
      `${a.operation} outcome unknown`,
      a.trackingNumber ?? '',
      '',
      '',
      '',
      '',
      '',
      '',
      a.userId ?? '',
      stamp(a.createdAt),
    ]),
    ...data.statuses.map((s) => [
      'status',
      s.trackingNumber,
      '',
      '',
      '',
      '',
      statusLabel(s.status, s.reason),
      // A note may name the receiver: only with a booking shown whole here.
      shown.get(s.trackingNumber) ? (s.note ?? '') : '',
      s.userId,
      stamp(s.at),
    ]),
    ...data.tomorrowPickups.map((b) => bookingRow('pickup tomorrow', b)),
  ];
  return toCsv(COLUMNS, rows, ['parcels', 'cod_amount']);
}
