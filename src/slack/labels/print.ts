/** Print labels: a booking card's button and `/waybill label <tracking number>`; the PDF goes into the card's thread, or to the person. */
import type { App } from '@slack/bolt';
import { type LabelBooking, type PrintSettings, parcelsOf } from '../../labels/label.js';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { type Asker, refusalOnBooking } from '../guards/booking-access.js';
import { onButton, type TellClicker } from '../kit/buttons.js';
import type { CommandAnswer } from '../kit/command-request.js';
import type { SlackClient } from '../kit/delivery.js';
import { type Upload, uploadFile, uploadToUser } from '../kit/files.js';
import { ids } from '../kit/ids.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import { slackErrorCode } from '../kit/slack-errors.js';
import { storedBooking } from '../kit/stored-booking.js';
import { importLabelsComment, labelsComment, noLabelText, unprintableNote } from './blocks.js';

/** What printing labels reads: the stored bookings and the settings. */
type Printing = Pick<Core, 'store' | 'schemas' | 'logger' | 'waybill' | 'bot' | 'access' | 'render'>;

/** What labels are printed with, from the settings. */
export function printSettings(deps: Pick<Core, 'waybill' | 'bot'>): PrintSettings {
  const { catalog, currency, timeZone, env } = deps.waybill;
  return { pageSize: deps.bot.labelPageSize, catalog, currency, timeZone, live: env === 'live' };
}

/** Where a booking's card is: its labels go into the card's thread. */
type Card = { channel: string; ts: string };

/**
 * The stored booking to label, current as of now, with its card; or why there is none, in plain
 * words. Printed for `asker`, it must be theirs to look up in its own conversation too.
 */
export async function labelBooking(
  deps: Pick<Core, 'store' | 'schemas' | 'logger' | 'access'>,
  trackingNumber: string,
  asker?: Asker,
): Promise<(LabelBooking & { card?: Card }) | string> {
  const known = await storedBooking(deps, trackingNumber);
  const refused = known && asker && (await refusalOnBooking(deps, asker, 'show', known.record));
  if (refused) return refused;
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
  const { pdf, unprintable } = await deps.render.run('labels', [item], printSettings(deps));
  const pages = parcelsOf(item.booking).length;
  const upload = {
    filename: `labels-${trackingNumber}.pdf`,
    title: `Labels ${trackingNumber}`,
    content: pdf,
    comment:
      labelsComment({ trackingNumber: escapeMrkdwn(trackingNumber), pages, userId, earlier }) +
      unprintableNote(unprintable),
  };
  const where = await shareInThread(deps, client, { userId, card: item.card, upload });
  await deps.store.audit.record({
    userId,
    operation: 'label',
    trackingNumber,
    outcome: 'ok',
    detail: `${pages} page(s) to ${where}`,
  });
}

/**
 * Shares a PDF in a card's thread; where there is no card or it cannot be reached, with the person
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

export interface ImportPrintRequest {
  userId: string;
  fileHash: string;
  /** The import's card the button is on. */
  card?: Card;
  tell: TellClicker;
}

/** The labels of every booked row of an imported file, in file order, in one PDF, in the card's thread. */
export async function printImport(
  deps: Printing,
  client: SlackClient,
  request: ImportPrintRequest,
): Promise<void> {
  const { userId, fileHash, tell } = request;
  const file = await deps.store.imports.get(fileHash);
  const rows = file ? await deps.store.imports.rows(fileHash) : [];
  const items: LabelBooking[] = [];
  for (const row of rows.filter((r) => r.state === 'booked')) {
    const item = await labelBooking(deps, row.trackingNumber);
    if (typeof item !== 'string') items.push(item);
  }
  if (!file || items.length === 0) {
    await tell({
      response_type: 'ephemeral',
      replace_original: false,
      text: 'No row of this file is booked: there are no labels to print.',
    });
    return;
  }
  const pages = items.reduce((sum, item) => sum + parcelsOf(item.booking).length, 0);
  const { pdf, unprintable } = await deps.render.run('labels', items, printSettings(deps));
  const where = await shareInThread(deps, client, {
    userId,
    card: request.card,
    upload: {
      filename: `labels-${file.fileName.replace(/\.csv$/i, '')}.pdf`,
      title: `Labels of ${file.fileName}`,
      content: pdf,
      comment:
        importLabelsComment({ fileName: escapeMrkdwn(file.fileName), pages, rows: items.length, userId }) +
        unprintableNote(unprintable),
    },
  });
  for (const item of items) {
    const { trackingNumber } = item.booking;
    await deps.store.audit.record({
      userId,
      operation: 'label',
      trackingNumber,
      outcome: 'ok',
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

/**
 * `/waybill label <tracking number>`: why there is nothing to print, or "Printing…", said at once;
 * the PDF comes after.
 */
export const labelCommand: CommandAnswer<'label'> = async (
  deps,
  { ack, client, command, respond },
  { trackingNumber },
) => {
  const item = await labelBooking(deps, trackingNumber, { client, userId: command.user_id });
  if (typeof item === 'string') {
    await ack({ response_type: 'ephemeral', text: item });
    return;
  }
  await ack({
    response_type: 'ephemeral',
    text: `Printing the labels of \`${escapeMrkdwn(trackingNumber)}\`: the PDF comes in the booking card's thread.`,
  });
  const request = { userId: command.user_id, trackingNumber, tell: respond };
  soon(
    deps,
    client,
    { userId: command.user_id, channelId: command.channel_id },
    `\`${escapeMrkdwn(trackingNumber)}\``,
    () => printBooking(deps, client, request, item),
  );
};

export function register(app: App, deps: Core): void {
  onButton(app, ids.labelsPrint, requires(deps, 'show'), async (body, client, tell, action) => {
    printSoon(deps, client, {
      userId: body.user.id,
      trackingNumber: action.value ?? '',
      tell,
      channelId: body.channel?.id,
    });
  });
  onButton(app, ids.labelsBulk, requires(deps, 'show'), async (body, client, tell, action) => {
    const channel = body.channel?.id;
    const ts = body.message?.ts;
    const request = {
      userId: body.user.id,
      fileHash: action.value ?? '',
      tell,
      ...(channel && ts ? { card: { channel, ts } } : {}),
    };
    soon(deps, client, { userId: body.user.id, channelId: body.channel?.id }, 'the booked rows', () =>
      printImport(deps, client, request),
    );
  });
}
