/** "Check file" in the import modal: the chosen file and channel, then the check after the ack. */
import type { App, ViewSubmitAction } from '@slack/bolt';
import type { BotDeps } from '../deps.js';
import { getPath, VALUE_ACTION } from '../shared/forms.js';
import { chosenConversation, DESTINATION_BLOCK } from '../shared/global-shortcut.js';
import { ids } from '../shared/ids.js';
import { checkingView, FILE_BLOCK } from './blocks.js';
import { checkFile } from './check.js';

/** The first file of a file input's state (Slack sends each chosen file's id). */
function chosenFile(values: unknown): string | undefined {
  const files = getPath(values, `${FILE_BLOCK}.${VALUE_ACTION}.files`);
  const id = Array.isArray(files) ? getPath(files[0], 'id') : undefined;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

export function register(app: App, deps: BotDeps): void {
  app.view<ViewSubmitAction>(ids.bulkImport, async ({ ack, body, view, client }) => {
    const fileId = chosenFile(view.state.values);
    const channelId = chosenConversation(view.state.values);
    if (!fileId || !channelId) {
      await ack({
        response_action: 'errors',
        errors: {
          ...(fileId ? {} : { [FILE_BLOCK]: 'Choose a CSV file' }),
          ...(channelId ? {} : { [DESTINATION_BLOCK]: 'Choose a channel for the results' }),
        },
      });
      return;
    }
    // Downloading and reading 500 rows takes longer than Slack waits for an answer.
    await ack({ response_action: 'update', view: checkingView('the file', deps.waybill.env, '') });
    deps.inFlight.run('check bulk file', () =>
      checkFile(deps, client, { viewId: view.id, userId: body.user.id, channelId, fileId }),
    );
  });
}
