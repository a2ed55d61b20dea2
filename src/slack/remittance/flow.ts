/** A remittance file reconciled: downloaded, read, matched against our bookings, recorded once; card, results file, outstanding list, booking cards. */
import { createHash } from 'node:crypto';
import { RenderRefused } from '../../render/pool.js';
import {
  type BookingRecord,
  type RemittanceFileRecord,
  type StatusEntry,
  StoreUnavailableError,
} from '../../store/index.js';
import { daysBetween } from '../../waybill/cod-ageing.js';
import { codFee } from '../../waybill/cod-fee.js';
import { readRemittanceCsv } from '../../waybill/csv/read-remittance.js';
import type { OutstandingBooking } from '../../waybill/csv/remittance-results.js';
import { zonedDateAndTime } from '../../waybill/dates.js';
import { formatCents, isObject } from '../../waybill/fields.js';
import {
  centsOf,
  type ExpectedCod,
  PAYING_OUTCOMES,
  type Reconciliation,
  reconcile,
  SETTLING_OUTCOMES,
} from '../../waybill/remittance.js';
import { redrawCards } from '../booking/index.js';
import type { Core } from '../core.js';
import { storeUnavailableText } from '../kit/blocks.js';
import {
  type Delivered,
  deliveredNote,
  type Message,
  postToChannel,
  type SlackClient,
} from '../kit/delivery.js';
import { type ChosenFile, downloadChosenFile } from '../kit/file-input.js';
import { FileNotReadError, uploadFile, uploadToUser } from '../kit/files.js';
import { showInModal } from '../kit/modal.js';
import {
  alreadyReconciledView,
  notReconciledView,
  outstandingMessage,
  reconciledView,
  remittanceCard,
} from './blocks.js';

/** Lines in one file: a month of a busy team's COD. */
export const MAX_REMITTANCE_LINES = 5000;
const DAY_MS = 24 * 60 * 60 * 1000;
const PAGE = 500;

/** What reconciling a file reads and writes: the store, the settings, the clock. */
type Reconciling = Pick<Core, 'store' | 'schemas' | 'logger' | 'waybill' | 'bot' | 'now' | 'render'>;

/**
 * What a stored booking is owed in COD (its record is the domain booking as JSON), the fee the
 * courier keeps of it, and whether it was returned (`returned`: the tracking numbers last recorded so).
 */
function expectedOf(
  deps: Pick<Core, 'waybill' | 'bot'>,
  stored: BookingRecord,
  returned: ReadonlySet<string>,
): ExpectedCod {
  const booking = isObject(stored.record) ? stored.record : {};
  const codAmount = typeof booking.codAmount === 'string' ? booking.codAmount : '0.00';
  const cod = booking.paymentMethod === deps.waybill.catalog.codPaymentMethod && centsOf(codAmount) > 0n;
  const rule = deps.bot.remittance.fee;
  // The rule in force on the day it was booked, so a new contract does not rewrite earlier bookings.
  const bookedDay = zonedDateAndTime(stored.bookedAt, deps.waybill.timeZone).date;
  return {
    cod,
    codAmount,
    fee: cod ? codFee(rule, codAmount, bookedDay) : '0.00',
    returned: returned.has(stored.trackingNumber),
    returnFee: formatCents(rule.returnFee),
  };
}

/** Which bookings of these latest statuses were returned to sender. */
function returnedIn(latest: ReadonlyMap<string, StatusEntry>): Set<string> {
  return new Set([...latest.values()].filter((s) => s.status === 'returned').map((s) => s.trackingNumber));
}

/** What earlier files paid on each of these bookings, in cents: the lines that pay, as `PAYING_OUTCOMES` says. */
async function paidOn(
  deps: Pick<Core, 'store'>,
  trackingNumbers: readonly string[],
): Promise<Map<string, bigint>> {
  const paid = new Map<string, bigint>();
  for (const line of await deps.store.remittances.ofBookings(trackingNumbers)) {
    if (line.amount && (PAYING_OUTCOMES as readonly string[]).includes(line.outcome)) {
      paid.set(line.trackingNumber, (paid.get(line.trackingNumber) ?? 0n) + centsOf(line.amount));
    }
  }
  return paid;
}

/** Every line matched against our bookings and what earlier files paid on them. */
async function reconcileLines(
  deps: Pick<Core, 'store' | 'waybill' | 'bot'>,
  lines: Parameters<typeof reconcile>[0],
): Promise<Reconciliation> {
  const numbers = lines.map((l) => l.trackingNumber).filter(Boolean);
  const [bookings, paid, returned] = await Promise.all([
    deps.store.remittances.bookingsNamed(numbers),
    paidOn(deps, numbers),
    deps.store.statuses.latestOf(numbers).then(returnedIn),
  ]);
  const expected = new Map(bookings.map((b) => [b.trackingNumber, expectedOf(deps, b, returned)]));
  return reconcile(
    lines,
    (tn) => expected.get(tn),
    (tn) => paid.get(tn) ?? 0n,
  );
}

/**
 * COD bookings older than the setting (or, `all`, of any age) with money still due (their net less
 * what files paid), read in pages: the store leaves out those a line settled, short payments are
 * taken off here. Each is aged from its delivery (its last status, when that is delivered), else
 * its pickup, else its booking.
 */
export async function outstandingCod(
  deps: Pick<Core, 'store' | 'waybill' | 'bot' | 'now'>,
  { all = false } = {},
): Promise<{ bookings: OutstandingBooking[]; total: string }> {
  const now = deps.now();
  // `all`: the latest Date there is, so a booking made this very millisecond counts too.
  const bookedBefore = new Date(all ? 8.64e15 : now.getTime() - deps.bot.remittance.outstandingDays * DAY_MS);
  const { timeZone } = deps.waybill;
  const today = zonedDateAndTime(now, timeZone).date;
  const found: OutstandingBooking[] = [];
  let total = 0n;
  let after: string | undefined;
  for (;;) {
    const page: BookingRecord[] = await deps.store.remittances.unremitted({
      bookedBefore,
      paying: SETTLING_OUTCOMES,
      limit: PAGE,
      ...(after === undefined ? {} : { afterTrackingNumber: after }),
    });
    const numbers = page.map((b) => b.trackingNumber);
    const [paid, latest] = await Promise.all([paidOn(deps, numbers), deps.store.statuses.latestOf(numbers)]);
    const returned = returnedIn(latest);
    for (const booking of page) {
      const { cod, codAmount, fee } = expectedOf(deps, booking, returned);
      const due = centsOf(codAmount) - centsOf(fee) - (paid.get(booking.trackingNumber) ?? 0n);
      // A returned booking collected nothing: nothing is outstanding on it.
      if (!cod || returned.has(booking.trackingNumber) || due <= 0n) continue;
      const record = isObject(booking.record) ? booking.record : {};
      const nameOf = (party: unknown) =>
        isObject(party) && typeof party.name === 'string' ? party.name : '';
      const status = latest.get(booking.trackingNumber);
      const since = zonedDateAndTime(
        status?.status === 'delivered' ? status.at : (booking.pickupAt ?? booking.bookedAt),
        timeZone,
      ).date;
      total += due;
      found.push({
        trackingNumber: booking.trackingNumber,
        codAmount,
        outstanding: formatCents(due),
        sender: nameOf(record.shipper),
        receiver: nameOf(record.consignee),
        bookedDate: zonedDateAndTime(booking.bookedAt, timeZone).date,
        since,
        // A status stamped by another clock may be a little ahead of this one: never a negative age.
        days: Math.max(0, daysBetween(since, today)),
      });
    }
    if (page.length < PAGE) break;
    after = page.at(-1)?.trackingNumber;
  }
  return { bookings: found, total: formatCents(total) };
}

/** Posts a message, and a file in its thread (or, with no thread to post in, to the person). */
async function postWithFile(
  deps: Pick<Core, 'logger'>,
  client: SlackClient,
  where: { channelId: string; userId: string },
  message: Message,
  file: { filename: string; title: string; content: string },
): Promise<Delivered | undefined> {
  const delivered = await postToChannel(client, where, message, deps.logger).catch((err: unknown) => {
    deps.logger.error({ err }, 'a COD remittance message could not be posted');
    return undefined;
  });
  try {
    if (delivered && 'ts' in delivered && delivered.ts) {
      await uploadFile(client, delivered.channelId, { ...file, threadTs: delivered.ts });
    } else {
      await uploadToUser(client, where.userId, { ...file, comment: message.text });
    }
  } catch (err) {
    deps.logger.error({ err }, 'a COD remittance file could not be shared');
  }
  return delivered;
}

/** Each paid booking's card (and audit card) redrawn with what it was remitted. */
async function redrawPaidCards(
  deps: Pick<Core, 'store' | 'schemas' | 'logger' | 'waybill' | 'bot'>,
  client: SlackClient,
  trackingNumbers: readonly string[],
) {
  for (const trackingNumber of trackingNumbers) await redrawCards(deps, client, trackingNumber);
}

/** The same content was reconciled before: nothing changes, and the modal says so. */
async function tellReconciledBefore(
  deps: Pick<Core, 'logger' | 'waybill'>,
  client: SlackClient,
  viewId: string,
  fileName: string,
  earlier: RemittanceFileRecord,
): Promise<void> {
  deps.logger.info({ fileHash: earlier.fileHash }, 'remittance file reconciled before: nothing changed');
  const date = zonedDateAndTime(earlier.createdAt, deps.waybill.timeZone).date;
  await showInModal(
    client,
    viewId,
    alreadyReconciledView(
      { fileName, earlierName: earlier.fileName, userId: earlier.userId, date },
      deps.waybill.env,
    ),
  );
}

/** After "Reconcile": the whole way from the chosen file to the card, told in the modal. */
export async function reconcileFile(
  deps: Reconciling,
  client: SlackClient,
  input: ChosenFile,
): Promise<void> {
  const progress = { recorded: false };
  try {
    await reconcileChosen(deps, client, input, progress);
  } catch (err) {
    if (err instanceof RenderRefused) {
      // Made after the file was recorded: the bot stopping (or too busy) leaves only the files unsent.
      deps.logger.warn({ err }, 'remittance: a results file was not made');
      const said = `The file was reconciled and recorded, but its results could not be made now (${err.message}). Importing the same file again says when it was reconciled.`;
      await showInModal(client, input.viewId, notReconciledView(said, deps.waybill.env, true));
      return;
    }
    if (!(err instanceof StoreUnavailableError)) throw err;
    deps.logger.warn({ err, recorded: progress.recorded }, 'remittance: the database did not answer');
    const said = progress.recorded
      ? "The file was reconciled and recorded, but the bot's database stopped answering before everything was posted. Its result is kept: importing the same file again says when it was reconciled."
      : storeUnavailableText;
    await showInModal(client, input.viewId, notReconciledView(said, deps.waybill.env, progress.recorded));
  }
}

async function reconcileChosen(
  deps: Reconciling,
  client: SlackClient,
  input: ChosenFile,
  progress: { recorded: boolean },
): Promise<void> {
  const { env, currency } = deps.waybill;
  let file: { name: string; bytes: Uint8Array };
  try {
    // The same limits as a bulk booking file: its size, its time; only the submitter's own file.
    file = await downloadChosenFile(deps, client, input.fileId, input.userId);
  } catch (err) {
    if (!(err instanceof FileNotReadError)) throw err;
    deps.logger.warn({ err, fileId: input.fileId }, 'a remittance file could not be read');
    await showInModal(client, input.viewId, notReconciledView(err.message, env));
    return;
  }
  const read = readRemittanceCsv(file.bytes, {
    columns: deps.bot.remittance.columns,
    maxLines: MAX_REMITTANCE_LINES,
    maxBytes: deps.bot.bulk.maxBytes,
    currency,
  });
  const fileProblem = read.problems[0];
  if (fileProblem) {
    await showInModal(client, input.viewId, notReconciledView(fileProblem.message, env));
    return;
  }
  const fileHash = createHash('sha256').update(file.bytes).digest('hex');
  const earlier = await deps.store.remittances.get(fileHash);
  if (earlier) {
    await tellReconciledBefore(deps, client, input.viewId, file.name, earlier);
    return;
  }
  const result = await reconcileLines(deps, read.lines);
  const recorded = await deps.store.remittances.record(
    {
      fileHash,
      fileName: file.name,
      userId: input.userId,
      channelId: input.channelId,
      lineCount: read.lines.length,
    },
    result.lines.map((l) => ({
      line: l.line,
      trackingNumber: l.trackingNumber,
      outcome: l.outcome,
      ...(l.amount === undefined ? {} : { amount: l.amount }),
      ...(l.difference === undefined ? {} : { difference: l.difference }),
      ...(l.remittedAt ? { remittedAt: l.remittedAt } : {}),
    })),
  );
  progress.recorded = recorded.first;
  if (!recorded.first) {
    // Another replica (a double click) recorded the same content a moment ago.
    await tellReconciledBefore(deps, client, input.viewId, file.name, recorded.record);
    return;
  }
  deps.logger.info(
    { fileHash, lines: read.lines.length, counts: result.totals.counts },
    'remittance file reconciled',
  );
  const where = { channelId: input.channelId, userId: input.userId };
  const base = file.name.replace(/\.csv$/i, '');
  const delivered = await postWithFile(
    deps,
    client,
    where,
    remittanceCard({ fileName: file.name, userId: input.userId, ...result, currency, env }),
    {
      filename: `remittance-results-${base}.csv`,
      title: `Results of ${file.name}`,
      content: await deps.render.run('remittanceResults', result.lines),
    },
  );
  const outstanding = await outstandingCod(deps);
  await postWithFile(
    deps,
    client,
    where,
    outstandingMessage({ ...outstanding, days: deps.bot.remittance.outstandingDays, currency }),
    {
      filename: 'cod-outstanding.csv',
      title: 'COD still outstanding',
      content: await deps.render.run('outstanding', outstanding.bookings),
    },
  );
  const paid = [
    ...new Set(result.lines.filter((l) => PAYING_OUTCOMES.includes(l.outcome)).map((l) => l.trackingNumber)),
  ];
  await showInModal(
    client,
    input.viewId,
    reconciledView(
      {
        fileName: file.name,
        totals: result.totals,
        note: delivered ? deliveredNote(delivered) : 'The card could not be posted.',
      },
      env,
    ),
  );
  await redrawPaidCards(deps, client, paid);
}
