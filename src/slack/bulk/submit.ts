/** "Check file" in the import modal: the chosen file and channel, then the check after the ack. */
import type { App, ViewSubmitAction } from '@slack/bolt';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { type FileContext, fileChosen } from '../kit/file-input.js';
import { checkingView } from './blocks.js';
import { checkFile } from './check.js';
import { ids } from './ids.js';

export function register(app: App, deps: Core): void {
  app.view<ViewSubmitAction, FileContext>(
    ids.bulkImport,
    requires(deps, 'bulk'),
    fileChosen('Choose a CSV file'),
    async ({ ack, client, context: { chosen } }) => {
      // Reading a file takes longer than Slack waits for an answer: it goes on after the ack.
      await ack({ response_action: 'update', view: checkingView('the file', deps.waybill.env, '') });
      deps.inFlight.run('check bulk file', () => checkFile(deps, client, chosen), { client, ...chosen });
    },
  );
}
