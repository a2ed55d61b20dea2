/** "Reconcile" in the remittance modal: the chosen file and channel, then the reconciliation after the ack. */
import type { App } from '@slack/bolt';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { onFileChosen } from '../kit/file-input.js';
import { ids } from '../kit/ids.js';
import { reconcilingView } from './blocks.js';
import { reconcileFile } from './flow.js';

export function register(app: App, deps: Core): void {
  onFileChosen(app, deps, requires(deps, 'remittance'), {
    callbackId: ids.remittanceImport,
    chooseFile: 'Choose the remittance file (CSV)',
    working: () => reconcilingView(deps.waybill.env),
    task: 'reconcile remittance file',
    run: (client, chosen) => reconcileFile(deps, client, chosen),
  });
}
