/** "Book N rows": the progress window at once, then every ready row booked in the background, once per check. */
import type { App, ViewSubmitAction } from '@slack/bolt';
import type { BotDeps } from '../deps.js';
import { ids, viewMetadata } from '../shared/ids.js';
import { countOutcomes, notCheckedView, progressView } from './blocks.js';
import { type BulkDraft, bulkDraftOfView } from './check.js';
import { runImport } from './run.js';

export function register(app: App, deps: BotDeps): void {
  app.view<ViewSubmitAction>(ids.bulkConfirm, async ({ ack, view, client }) => {
    const { env } = deps.waybill;
    const draft = await bulkDraftOfView(deps, view.private_metadata);
    if (!draft) {
      await ack({
        response_action: 'update',
        view: notCheckedView('This check has expired: import the file again. Nothing was booked.', env),
      });
      return;
    }
    // A double click, or the same submission delivered twice, books the check once.
    const first = !draft.data.startedAt && (await deps.store.deliveries.claim(`bulk:${draft.id}`));
    if (!first) {
      await ack({
        response_action: 'update',
        view: notCheckedView('This file is being booked already: its summary comes to the channel.', env),
      });
      return;
    }
    await deps.store.drafts.save<BulkDraft>(draft.id, { ...draft.data, startedAt: deps.now().toISOString() });
    await ack({
      response_action: 'update',
      view: progressView({
        fileName: draft.data.fileName,
        done: 0,
        total: draft.data.toBook,
        counts: countOutcomes([]),
        env,
        metadata: viewMetadata({ draftId: draft.id }),
      }),
    });
    deps.inFlight.run('bulk booking', () => runImport(deps, client, { viewId: view.id, draft }));
  });
}
