/** "Reconcile" in the remittance modal: the chosen file and channel, then the reconciliation after the ack. */
import type { App, ViewSubmitAction } from '@slack/bolt';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { type FileContext, fileChosen } from '../kit/file-input.js';
import { reconcilingView } from './blocks.js';
import { ids } from './ids.js';
import { reconcileFile } from './send.js';

export function register(app: App, deps: Core): void {
  app.view<ViewSubmitAction, FileContext>(
    ids.remittanceImport,
    requires(deps, 'remittance'),
    fileChosen('Choose the remittance file (CSV)'),
    async ({ ack, client, context: { chosen } }) => {
      // Reading a file takes longer than Slack waits for an answer: it goes on after the ack.
      await ack({ response_action: 'update', view: reconcilingView(deps.waybill.env) });
      deps.inFlight.run('reconcile remittance file', () => reconcileFile(deps, client, chosen), {
        client,
        ...chosen,
      });
    },
  );
}
