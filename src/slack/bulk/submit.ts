/** "Check file" in the import modal: the chosen file and channel, then the check after the ack. */
import type { App } from '@slack/bolt';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { onFileChosen } from '../kit/file-input.js';
import { ids } from '../kit/ids.js';
import { checkingView } from './blocks.js';
import { checkFile } from './check.js';

export function register(app: App, deps: Core): void {
  onFileChosen(app, deps, requires(deps, 'bulk'), {
    callbackId: ids.bulkImport,
    chooseFile: 'Choose a CSV file',
    working: () => checkingView('the file', deps.waybill.env, ''),
    task: 'check bulk file',
    run: (client, chosen) => checkFile(deps, client, chosen),
  });
}
