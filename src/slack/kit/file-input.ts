/** A file chosen in a modal, and the channel its result goes to: the blocks, the choice read back, the submission. */
import type { App, ViewSubmitAction } from '@slack/bolt';
import type { InputBlock, ModalView } from '@slack/types';
import type { Core } from '../core.js';
import { plain } from './blocks.js';
import type { SlackClient } from './delivery.js';
import { downloadFile } from './files.js';
import { getPath, VALUE_ACTION } from './forms.js';
import { chosenConversation, DESTINATION_BLOCK } from './global-shortcut.js';
import type { Guard } from './listener.js';

/** The file input's block; the conversation's is the shared destination block access control reads. */
export const FILE_BLOCK = 'file';

/** A CSV file input, and where the results are posted (the command's channel, or the current one). */
export function fileAndDestinationBlocks(label: string, channelId?: string): InputBlock[] {
  return [
    {
      type: 'input',
      block_id: FILE_BLOCK,
      label: plain(label),
      element: { type: 'file_input', action_id: VALUE_ACTION, filetypes: ['csv'], max_files: 1 },
    },
    {
      type: 'input',
      block_id: DESTINATION_BLOCK,
      label: plain('Post the results in'),
      element: {
        type: 'conversations_select',
        action_id: VALUE_ACTION,
        ...(channelId ? { initial_conversation: channelId } : { default_to_current_conversation: true }),
        filter: { include: ['public', 'private'], exclude_bot_users: true },
      },
    },
  ];
}

/** The first file of a file input's state (Slack sends each chosen file's id). */
export function chosenFile(values: unknown): string | undefined {
  const files = getPath(values, `${FILE_BLOCK}.${VALUE_ACTION}.files`);
  const id = Array.isArray(files) ? getPath(files[0], 'id') : undefined;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

export interface ChosenFile {
  viewId: string;
  userId: string;
  channelId: string;
  fileId: string;
}

/**
 * The submission of a file modal: the file and channel are required (said inline); then `working`
 * is shown at once and `run` goes on after the ack, since downloading and reading a file takes
 * longer than Slack waits for an answer.
 */
export function onFileChosen(
  app: App,
  deps: Pick<Core, 'inFlight'>,
  guard: Guard,
  input: {
    callbackId: string;
    chooseFile: string;
    working: () => ModalView;
    task: string;
    run: (client: SlackClient, chosen: ChosenFile) => Promise<void>;
  },
): void {
  app.view<ViewSubmitAction>(input.callbackId, guard, async ({ ack, body, view, client }) => {
    const fileId = chosenFile(view.state.values);
    const channelId = chosenConversation(view.state.values);
    if (!fileId || !channelId) {
      await ack({
        response_action: 'errors',
        errors: {
          ...(fileId ? {} : { [FILE_BLOCK]: input.chooseFile }),
          ...(channelId ? {} : { [DESTINATION_BLOCK]: 'Choose a channel for the results' }),
        },
      });
      return;
    }
    await ack({ response_action: 'update', view: input.working() });
    const chosen = { viewId: view.id, userId: body.user.id, channelId, fileId };
    deps.inFlight.run(input.task, () => input.run(client, chosen), { client, ...chosen });
  });
}

/** The chosen file from Slack, within the file settings' size and time; only the submitter's own. */
export function downloadChosenFile(
  deps: Pick<Core, 'bot'>,
  client: SlackClient,
  fileId: string,
  ownerId: string,
) {
  const { maxBytes, downloadTimeoutMs } = deps.bot.bulk;
  return downloadFile(client, { fileId, ownerId }, { maxBytes, timeoutMs: downloadTimeoutMs });
}
