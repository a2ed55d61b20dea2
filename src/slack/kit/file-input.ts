/** A file chosen in a modal, and the channel its result goes to: the blocks, the choice read back on submission. */
import type { InputBlock } from '@slack/types';
import type { Core } from '../core.js';
import type { SlackClient } from '../runtime/delivery.js';
import { plain } from './blocks.js';
import { downloadFile } from './files.js';
import { getPath, VALUE_ACTION } from './forms.js';
import { chosenConversation, DESTINATION_BLOCK } from './global-shortcut.js';
import type { ListenerMiddleware } from './listener.js';

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

/** What a listener behind `fileChosen` finds in its context. */
export type FileContext = { chosen: ChosenFile };

/**
 * On the submission of a file modal: puts the file and channel chosen in `context.chosen`, or says
 * under each input what is missing (`chooseFile` under the file's).
 */
export function fileChosen(chooseFile: string): ListenerMiddleware {
  return async (args) => {
    const { body } = args;
    if (body.type !== 'view_submission') return;
    const fileId = chosenFile(body.view.state.values);
    const channelId = chosenConversation(body.view.state.values);
    if (fileId && channelId) {
      args.context.chosen = { viewId: body.view.id, userId: body.user.id, channelId, fileId };
      await args.next();
      return;
    }
    await (args as { ack: (response: unknown) => Promise<void> }).ack({
      response_action: 'errors',
      errors: {
        ...(fileId ? {} : { [FILE_BLOCK]: chooseFile }),
        ...(channelId ? {} : { [DESTINATION_BLOCK]: 'Choose a channel for the results' }),
      },
    });
  };
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
