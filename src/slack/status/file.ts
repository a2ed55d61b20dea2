/**
 * `/waybill statuses file`: the courier's own status export (a CSV from its portal) recorded row by
 * row as the person would record each status, with its duplicates and conflicts listed, not recorded
 * (operations/status-file.ts). The columns are chosen once for a file's headers and kept.
 */

import type { App, ViewSubmitAction } from '@slack/bolt';
import { checkStatus, type StatusChoice } from '../../operations/status.js';
import {
  type ChosenRow,
  conflictOf,
  keepColumns,
  keptColumns,
  latestRows,
} from '../../operations/status-file.js';
import type { StatusEntry, Store } from '../../store/index.js';
import {
  guessStatusColumns,
  readStatusFile,
  readStatusRows,
  STATUS_COLUMN_KEYS,
  type StatusColumns,
  type StatusRow,
} from '../../waybill/csv/read-statuses.js';
import { STATUS_NOTE_MAX } from '../../waybill/statuses.js';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { type DraftContext, withDraft } from '../guards/with-draft.js';
import { answerWithForm, type CommandArgs } from '../kit/command-request.js';
import { chosenFile, downloadChosenFile, FILE_BLOCK } from '../kit/file-input.js';
import { FileNotReadError } from '../kit/files.js';
import { readFormState, type StateValues } from '../kit/forms.js';
import { viewMetadata } from '../kit/ids.js';
import { showInModal } from '../kit/modal.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import type { SlackClient } from '../runtime/delivery.js';
import {
  type FileOutcome,
  NO_COLUMN,
  notReadView,
  readingView,
  statusColumnsModal,
  statusFileDoneView,
  statusFileModal,
} from './file-blocks.js';
import { ids } from './ids.js';
import { recordStatus, type StatusDeps, tellCards } from './send.js';
import { readStatusWords } from './words.js';

/** Rows in one file: a busy week of a team's parcels. */
export const MAX_STATUS_ROWS = 2000;

const DRAFT_KIND = 'status-file';
/** The file and its headers, once read and the columns are to be chosen. */
interface StatusFileDraft {
  file?: { fileId: string; fileName: string; headers: string[] };
}

type FileDeps = StatusDeps & Pick<Core, 'bot'>;

/** `/waybill statuses file`: the file modal. */
export async function openStatusFile(
  deps: Pick<Core, 'logger' | 'inFlight'> & { store: Pick<Store, 'drafts'> },
  args: CommandArgs,
): Promise<void> {
  // The modal belongs to the command's conversation, as the access rule asks of each submission.
  const draft = await deps.store.drafts.create<StatusFileDraft>({
    kind: DRAFT_KIND,
    userId: args.command.user_id,
    channelId: args.command.channel_id,
    data: {},
  });
  await answerWithForm(deps, args, 'Type `/waybill statuses file` again to choose the file.', () =>
    statusFileModal(MAX_STATUS_ROWS, viewMetadata({ draftId: draft.id })),
  );
}

/**
 * The courier's words read onto our statuses: the status cell ("Delivered", "RTS", "Failed
 * delivery"), a failed attempt's reason from the remarks when they name one; the remarks are the note.
 */
function choiceOfRow(row: StatusRow): StatusChoice | { problem: string } {
  const said = `status "${row.statusText}"`;
  const read = readStatusWords(row.statusText);
  if ('ambiguous' in read) return { problem: `${said} could mean more than one status` };
  if (!read.status) return { problem: `${said} is not a status we know` };
  let { reason } = read;
  if (read.status === 'failed_attempt' && !reason) {
    const why = readStatusWords(`failed ${row.remarks}`);
    reason = 'ambiguous' in why ? 'other' : (why.reason ?? 'other');
  }
  const note = [read.note, row.remarks].filter(Boolean).join(': ');
  const checked = checkStatus({
    status: read.status,
    ...(reason ? { reason } : {}),
    // A cancellation, or an attempt failed for no reason we know, says at least where it came from.
    note: (
      note || (read.status === 'cancelled' || reason === 'other' ? "from the courier's status file" : '')
    ).slice(0, STATUS_NOTE_MAX),
  });
  if (!checked.ok) return { problem: Object.values(checked.errors)[0] ?? `${said} cannot be recorded` };
  return checked.value;
}

const rowLine = (row: { line: number; trackingNumber: string }, text: string) =>
  `Row ${row.line}${row.trackingNumber ? ` \`${escapeMrkdwn(row.trackingNumber)}\`` : ''}: ${text}`;

/** Each row read, checked and recorded (or listed); the modal says what came of them, then the cards are told. */
async function recordRows(
  deps: FileDeps,
  client: SlackClient,
  input: { viewId: string; userId: string; fileName: string; rows: StatusRow[] },
): Promise<void> {
  const outcome: FileOutcome = {
    recorded: [],
    already: [],
    conflicts: [],
    refused: [],
    superseded: [],
    unreadable: [],
  };
  const chosen: ChosenRow[] = [];
  for (const row of input.rows) {
    const choice = row.problem === undefined ? choiceOfRow(row) : { problem: row.problem };
    if ('problem' in choice) outcome.unreadable.push(rowLine(row, escapeMrkdwn(choice.problem)));
    else
      chosen.push({
        line: row.line,
        trackingNumber: row.trackingNumber,
        choice,
        ...(row.at ? { at: row.at } : {}),
      });
  }
  const { latest, superseded } = latestRows(chosen);
  for (const { row, by } of superseded) outcome.superseded.push(rowLine(row, `row ${by} is later`));
  const told: StatusEntry[] = [];
  for (const row of latest) {
    const answer = await recordStatus(deps, client, {
      userId: input.userId,
      trackingNumber: row.trackingNumber,
      choice: row.choice,
      // When the courier says it happened: a later file's row is compared with that, not with the import.
      ...(row.at ? { at: row.at } : {}),
      conflict: (current) => conflictOf(row, current),
    });
    // The answer names the booking and its receiver already.
    const said = `Row ${row.line}: ${answer.text}`;
    if (answer.refused) outcome.refused.push(rowLine(row, 'no booking of ours you may update'));
    else if (answer.conflict) outcome.conflicts.push(rowLine(row, escapeMrkdwn(answer.text)));
    else if (answer.recorded) {
      outcome.recorded.push(said);
      told.push(answer.recorded);
    } else outcome.already.push(said);
  }
  await showInModal(client, input.viewId, statusFileDoneView(input.fileName, outcome));
  for (const entry of told) await tellCards(deps, client, entry);
}

/** After "Read": the file's headers; rows recorded with the kept columns, or the columns asked for. */
async function readChosenFile(
  deps: FileDeps,
  client: SlackClient,
  input: { viewId: string; userId: string; fileId: string; draftId: string; columns?: StatusColumns },
): Promise<void> {
  let file: { name: string; bytes: Uint8Array };
  try {
    file = await downloadChosenFile(deps, client, input.fileId, input.userId);
  } catch (err) {
    if (!(err instanceof FileNotReadError)) throw err;
    await showInModal(client, input.viewId, notReadView(err.message));
    return;
  }
  const read = readStatusFile(file.bytes, deps.bot.bulk.maxBytes);
  if ('problem' in read) {
    await showInModal(client, input.viewId, notReadView(read.problem));
    return;
  }
  const rows = read.body.filter((cells) => cells.some((cell) => cell.trim() !== '')).length;
  if (rows === 0 || rows > MAX_STATUS_ROWS) {
    const said =
      rows === 0
        ? 'The file has no rows: only a header'
        : `The file has ${rows} rows; at most ${MAX_STATUS_ROWS} at once`;
    await showInModal(client, input.viewId, notReadView(said));
    return;
  }
  const columns = input.columns ?? (await keptColumns(deps, read.headers));
  if (columns) {
    await deps.store.drafts.delete(input.draftId);
    const statusRows = readStatusRows(read, columns, deps.waybill.timeZone);
    await recordRows(deps, client, {
      viewId: input.viewId,
      userId: input.userId,
      fileName: file.name,
      rows: statusRows,
    });
    return;
  }
  await deps.store.drafts.save<StatusFileDraft>(input.draftId, {
    file: { fileId: input.fileId, fileName: file.name, headers: read.headers },
  });
  await showInModal(
    client,
    input.viewId,
    statusColumnsModal({
      fileName: file.name,
      headers: read.headers,
      guess: guessStatusColumns(read.headers),
      metadata: viewMetadata({ draftId: input.draftId }),
    }),
  );
}

/** The columns chosen in the form: header indexes read back to headers; what is missing, by block. */
function chosenColumns(values: StateValues, headers: readonly string[]) {
  const form = readFormState(values);
  const headerOf = (key: string) => {
    const value = form[key];
    return typeof value === 'string' && value !== NO_COLUMN ? headers[Number(value)] : undefined;
  };
  const [trackingNumber, status, at, remarks] = STATUS_COLUMN_KEYS.map(headerOf);
  const errors: Record<string, string> = {};
  if (trackingNumber === undefined) errors.trackingNumber = 'Choose the column of tracking numbers.';
  if (status === undefined) errors.status = 'Choose the column of statuses.';
  const picked = [trackingNumber, status, at, remarks].filter((h) => h !== undefined);
  if (new Set(picked).size < picked.length) errors.status = 'Choose a different column for each.';
  if (trackingNumber === undefined || status === undefined || Object.keys(errors).length > 0)
    return { errors };
  const columns: StatusColumns = {
    trackingNumber,
    status,
    ...(at ? { at } : {}),
    ...(remarks ? { remarks } : {}),
  };
  return { columns };
}

const expired = 'This window has expired. Close it and type `/waybill statuses file` again.';

export function register(app: App, deps: Core): void {
  app.view<ViewSubmitAction, DraftContext<StatusFileDraft>>(
    ids.statusesFile,
    requires(deps, 'update'),
    withDraft(deps.store.drafts, DRAFT_KIND, { error: expired, block: FILE_BLOCK }),
    async ({ ack, body, view, client, context: { draft } }) => {
      const fileId = chosenFile(view.state.values);
      if (!fileId) {
        await ack({ response_action: 'errors', errors: { [FILE_BLOCK]: 'Choose the status file (CSV)' } });
        return;
      }
      // Reading a file takes longer than Slack waits for an answer: it goes on after the ack.
      await ack({ response_action: 'update', view: readingView() });
      const userId = body.user.id;
      deps.inFlight.run(
        'status file',
        () => readChosenFile(deps, client, { viewId: view.id, userId, fileId, draftId: draft.id }),
        { client, userId, what: 'the status file you sent' },
      );
    },
  );
  app.view<ViewSubmitAction, DraftContext<StatusFileDraft>>(
    ids.statusesFileColumns,
    requires(deps, 'update'),
    withDraft(deps.store.drafts, DRAFT_KIND, { error: expired, block: 'trackingNumber' }),
    async ({ ack, body, view, client, context: { draft } }) => {
      if (!draft.data.file) {
        await ack({ response_action: 'errors', errors: { trackingNumber: expired } });
        return;
      }
      const { headers, fileId } = draft.data.file;
      const chosen = chosenColumns(view.state.values as StateValues, headers);
      if (!chosen.columns) {
        await ack({ response_action: 'errors', errors: chosen.errors });
        return;
      }
      await ack({ response_action: 'update', view: readingView() });
      const userId = body.user.id;
      const { columns } = chosen;
      deps.inFlight.run(
        'status file',
        async () => {
          await keepColumns(deps, { headers, columns, userId });
          await readChosenFile(deps, client, { viewId: view.id, userId, fileId, draftId: draft.id, columns });
        },
        { client, userId, what: 'the status file you sent' },
      );
    },
  );
}
