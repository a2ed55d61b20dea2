/** Print labels: a booking card's button and `/waybill label <tracking number> [pdf|zpl]`; the files go into the card's thread, or to the person. */

import type { App } from '@slack/bolt';
import { type LabelBooking, parcelsOf } from '../../labels/label.js';
import { recordDone } from '../../operations/audit.js';
import type { Store } from '../../store/index.js';
import { bookingIds, storedBooking } from '../booking/index.js';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { type Asker, refusalOnBooking } from '../guards/booking-access.js';
import { type CommandAnswer, trackingNumberFirst, waybillVerb } from '../kit/command-request.js';
import { type Upload, uploadFile, uploadToUser } from '../kit/files.js';
import { ackNow, type ButtonClick, type TellClicker, type Told, tellClicker } from '../kit/listener.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import type { SlackClient } from '../runtime/delivery.js';
import { slackErrorCode } from '../runtime/slack-errors.js';
import {
  importLabelsComment,
  labelsComment,
  noLabelText,
  type PrintJob,
  printerOffer,
  unprintableNote,
} from './blocks.js';
import { type LabelFile, type LabelFormat, labelFiles, labelFormats } from './files.js';
import { ids } from './ids.js';

/** What printing labels reads: the stored bookings and the settings. */
type Printing = Pick<Core, 'schemas' | 'logger' | 'waybill' | 'bot' | 'access' | 'render'> & {
  store: Pick<Store, 'audit' | 'bookings' | 'imports'>;
};

/** Where a booking's card is: its labels go into the card's thread. */
type Card = { channel: string; ts: string };

/**
 * The stored booking to label, current as of now, with its card; or why there is none, in plain
 * words. Printed for `asker`, it must be theirs to look up in its own conversation too.
 */
export async function labelBooking(
  deps: Pick<Core, 'schemas' | 'logger' | 'access'> & { store: Pick<Store, 'audit' | 'bookings'> },
  trackingNumber: string,
  asker: Asker,
): Promise<(LabelBooking & { card?: Card }) | string> {
  const known = await storedBooking(deps, trackingNumber);
  // Refused, the same answer as for no booking: a refusal never tells whether a booking exists.
  if (known && (await refusalOnBooking(deps, asker, 'show', known.record)))
    return noLabelText(escapeMrkdwn(trackingNumber), undefined);
  if (known) {
    const { trackingRefNo, cardChannelId, cardTs } = known.record;
    return {
      booking: known.booking,
      ...(trackingRefNo ? { trackingRefNo } : {}),
      ...(cardChannelId && cardTs ? { card: { channel: cardChannelId, ts: cardTs } } : {}),
    };
  }
  const [last] = await deps.store.audit.list({ trackingNumber, operation: 'book', limit: 1 });
  return noLabelText(escapeMrkdwn(trackingNumber), last?.outcome);
}

export interface PrintRequest {
  userId: string;
  trackingNumber: string;
  formats: LabelFormat[];
  /** Told when there is nothing to print, or the printing failed. */
  tell: TellClicker;
  /** Where the person asked, so a failure is told to them there. */
  channelId?: string | undefined;
}

/**
 * Makes the labels of one booking and shares them in its card's thread; where the card cannot be
 * reached (no card, or the bot no longer in its channel), with the person in a DM. Every print is
 * recorded, so the next one says it is a reprint.
 */
export async function printLabels(deps: Printing, client: SlackClient, request: PrintRequest): Promise<void> {
  const item = await labelBooking(deps, request.trackingNumber, { client, userId: request.userId });
  if (typeof item === 'string') {
    await request.tell({ response_type: 'ephemeral', replace_original: false, text: item });
    return;
  }
  await printBooking(deps, client, request, item);
}

/** The labels of a booking found (labelBooking), shared in its card's thread and audited. */
async function printBooking(
  deps: Printing,
  client: SlackClient,
  request: PrintRequest,
  item: LabelBooking & { card?: Card },
): Promise<void> {
  const { userId, trackingNumber } = request;
  const [earlier] = await deps.store.audit.list({ trackingNumber, operation: 'label', limit: 1 });
  const files = await labelFiles(deps, [item], request.formats);
  const pages = parcelsOf(item.booking).length;
  const where = await shareFiles(deps, client, {
    userId,
    card: item.card,
    name: `labels-${trackingNumber}`,
    title: `Labels ${trackingNumber}`,
    comment: labelsComment({
      trackingNumber: escapeMrkdwn(trackingNumber),
      pages,
      userId,
      earlier,
      timeZone: deps.waybill.timeZone,
    }),
    files,
    job: { kind: 't', ref: trackingNumber },
  });
  await recordDone(deps.store, {
    userId,
    operation: 'label',
    trackingNumber,
    detail: `${pages} page(s) as ${request.formats.join(' and ')} to ${where}`,
  });
}

/**
 * Shares a file in a card's thread; where there is no card or it cannot be reached, with the person
 * in a DM, saying why. Returns the conversation it went to.
 */
async function shareInThread(
  deps: Pick<Core, 'logger'>,
  client: SlackClient,
  input: { userId: string; card: Card | undefined; upload: Upload },
): Promise<string> {
  const { card, upload } = input;
  if (card) {
    try {
      await uploadFile(client, card.channel, { ...upload, threadTs: card.ts });
      return card.channel;
    } catch (err) {
      deps.logger.warn(
        { err, code: slackErrorCode(err), channel: card.channel },
        'labels not shared in the card thread',
      );
    }
  }
  const note = card ? "\n_The card's thread could not be reached, so they come to you here._" : '';
  return uploadToUser(client, input.userId, { ...upload, comment: `${upload.comment ?? ''}${note}` });
}

/**
 * Shares label files one after the other, `comment` on the first, each with the characters it
 * could not print; once one cannot go to the card's thread, it and the rest go to the person.
 * Returns where the first went.
 */
async function shareFiles(
  deps: Pick<Core, 'logger' | 'bot'>,
  client: SlackClient,
  input: {
    userId: string;
    card: Card | undefined;
    name: string;
    title: string;
    comment: string;
    files: LabelFile[];
    /** What Send to printer, offered beside the ZPL file, prints again. */
    job: Omit<PrintJob, 'printer'>;
  },
): Promise<string> {
  let card = input.card;
  const places: string[] = [];
  for (const [i, file] of input.files.entries()) {
    const note = unprintableNote(file.unprintable, file.mark);
    const upload = {
      filename: `${input.name}.${file.format}`,
      title: file.format === 'zpl' ? `${input.title} (ZPL)` : input.title,
      content: file.content,
      comment: i === 0 ? input.comment + note : note.trimStart(),
    };
    const where = await shareInThread(deps, client, { userId: input.userId, card, upload });
    if (where !== card?.channel) card = undefined;
    if (file.format === 'zpl' && deps.bot.labelPrinters.length > 0) {
      await client.chat.postMessage({
        channel: where,
        ...(card ? { thread_ts: card.ts } : {}),
        ...printerOffer(deps.bot.labelPrinters, input.job),
      });
    }
    places.push(where);
  }
  return places[0] ?? '';
}

export interface ImportPrintRequest {
  userId: string;
  fileHash: string;
  formats: LabelFormat[];
  /** The import's card the button is on. */
  card?: Card;
  tell: TellClicker;
}

/**
 * The booked rows of an imported file, in file order, to label; or why there is none. Printing needs
 * what showing does: a row `asker` may not look up stops the whole print, naming it.
 */
export async function importItems(
  deps: Pick<Core, 'schemas' | 'logger' | 'access'> & {
    store: Pick<Store, 'audit' | 'bookings' | 'imports'>;
  },
  fileHash: string,
  asker: Asker,
) {
  const file = await deps.store.imports.get(fileHash);
  const rows = file ? await deps.store.imports.rows(fileHash) : [];
  const items: LabelBooking[] = [];
  for (const row of rows.filter((r) => r.state === 'booked')) {
    const item = await labelBooking(deps, row.trackingNumber, asker);
    if (typeof item === 'string') return item;
    items.push(item);
  }
  return file && items.length > 0
    ? { file, items }
    : 'No row of this file is booked: there are no labels to print.';
}

/** The labels of every booked row of an imported file, in file order, one file per format, in the card's thread. */
export async function printImport(
  deps: Printing,
  client: SlackClient,
  request: ImportPrintRequest,
): Promise<void> {
  const { userId, fileHash, tell } = request;
  const found = await importItems(deps, fileHash, { client, userId });
  if (typeof found === 'string') {
    await tell({ response_type: 'ephemeral', replace_original: false, text: found });
    return;
  }
  const { file, items } = found;
  const pages = items.reduce((sum, item) => sum + parcelsOf(item.booking).length, 0);
  const where = await shareFiles(deps, client, {
    userId,
    card: request.card,
    name: `labels-${file.fileName.replace(/\.csv$/i, '')}`,
    title: `Labels of ${file.fileName}`,
    comment: importLabelsComment({
      fileName: escapeMrkdwn(file.fileName),
      pages,
      rows: items.length,
      userId,
    }),
    files: await labelFiles(deps, items, request.formats),
    job: { kind: 'f', ref: fileHash },
  });
  for (const item of items) {
    const { trackingNumber } = item.booking;
    await recordDone(deps.store, {
      userId,
      operation: 'label',
      trackingNumber,
      detail: `with ${file.fileName} to ${where}`,
    });
  }
}

/** Runs a print after the ack; a failure is told to the person (`what`: whose labels, in mrkdwn). */
function soon(
  deps: Pick<Core, 'inFlight'>,
  client: SlackClient,
  asker: { userId: string; channelId?: string | undefined },
  what: string,
  work: () => Promise<void>,
): void {
  const { userId, channelId } = asker;
  deps.inFlight.run('labels', work, {
    client,
    userId,
    ...(channelId ? { channelId } : {}),
    what: `the labels of ${what}`,
  });
}

/** Prints one booking's labels after the ack. */
function printSoon(
  deps: Printing & Pick<Core, 'inFlight'>,
  client: SlackClient,
  request: PrintRequest,
): void {
  soon(deps, client, request, `\`${escapeMrkdwn(request.trackingNumber)}\``, () =>
    printLabels(deps, client, request),
  );
}

/** What comes, in the words of "… comes in the booking card's thread". */
function filesCome(formats: readonly LabelFormat[]): string {
  const files = formats.map((format) => (format === 'pdf' ? 'the PDF' : 'the ZPL file')).join(' and ');
  return `${files} ${formats.length === 1 ? 'comes' : 'come'}`;
}

/**
 * `/waybill label <tracking number> [pdf|zpl]`: why there is nothing to print, or "Printing…",
 * said at once; the files come after.
 */
const labelCommand: CommandAnswer<
  { trackingNumber: string; format: string },
  Printing & Pick<Core, 'inFlight'>
> = async (deps, { ack, client, command, respond }, { trackingNumber, format }) => {
  const formats = labelFormats(deps, format);
  if (!formats) {
    await ack({
      response_type: 'ephemeral',
      text: `To print labels, write \`/waybill label ${escapeMrkdwn(trackingNumber)}\`, or add \`pdf\` or \`zpl\` for that format.`,
    });
    return;
  }
  const item = await labelBooking(deps, trackingNumber, { client, userId: command.user_id });
  if (typeof item === 'string') {
    await ack({ response_type: 'ephemeral', text: item });
    return;
  }
  await ack({
    response_type: 'ephemeral',
    text: `Printing the labels of \`${escapeMrkdwn(trackingNumber)}\`: ${filesCome(formats)} in the booking card's thread.`,
  });
  const request = { userId: command.user_id, trackingNumber, formats, tell: respond };
  soon(
    deps,
    client,
    { userId: command.user_id, channelId: command.channel_id },
    `\`${escapeMrkdwn(trackingNumber)}\``,
    () => printBooking(deps, client, request, item),
  );
};

export function register(app: App, deps: Core): void {
  app.action<ButtonClick, Told>(
    bookingIds.labelsPrint,
    requires(deps, 'show'),
    ackNow,
    tellClicker,
    async ({ body, client, context: { tell }, action }) => {
      const formats = labelFormats(deps) ?? [];
      printSoon(deps, client, {
        userId: body.user.id,
        trackingNumber: action.value ?? '',
        formats,
        tell,
        channelId: body.channel?.id,
      });
    },
  );
  app.action<ButtonClick, Told>(
    ids.labelsBulk,
    requires(deps, 'show'),
    ackNow,
    tellClicker,
    async ({ body, client, context: { tell }, action }) => {
      const channel = body.channel?.id;
      const ts = body.message?.ts;
      const request = {
        userId: body.user.id,
        fileHash: action.value ?? '',
        formats: labelFormats(deps) ?? [],
        tell,
        ...(channel && ts ? { card: { channel, ts } } : {}),
      };
      soon(deps, client, { userId: body.user.id, channelId: body.channel?.id }, 'the booked rows', () =>
        printImport(deps, client, request),
      );
    },
  );
}

/** `/waybill label`. */
export const labelVerb = waybillVerb({
  verb: 'label',
  usage:
    "`/waybill label <tracking number> [pdf|zpl]`: the parcel labels (a PDF, or ZPL for thermal printers), in the booking card's thread",
  example: '/waybill label WB000123 zpl',
  // Labels show what is stored: whoever may look waybills up may have them.
  permission: 'show',
  parse: (words) => {
    const named = trackingNumberFirst(words);
    return named && { trackingNumber: named.trackingNumber, format: named.words.split(/\s+/)[0] ?? '' };
  },
  answer: labelCommand,
});
