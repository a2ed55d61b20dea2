/** "Book N rows": the progress window at once, then the file's rows queued for the replicas to book, once per check. */
import type { App, ViewSubmitAction } from '@slack/bolt';
import { countOutcomes, firstStart } from '../../operations/bulk-queue.js';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { type DraftContext, withDraft } from '../guards/with-draft.js';
import { viewMetadata } from '../kit/ids.js';
import { notCheckedView, progressView } from './blocks.js';
import { BULK_KIND, type BulkDraft } from './check.js';
import { ids } from './ids.js';
import { startImport } from './send.js';
import type { BulkWorker } from './worker.js';

export function register(app: App, deps: Core, rows: BulkWorker): void {
  const { env } = deps.waybill;
  app.view<ViewSubmitAction, DraftContext<BulkDraft>>(
    ids.bulkConfirm,
    requires(deps, 'bulk'),
    withDraft(deps.store.drafts, BULK_KIND, {
      view: () => notCheckedView('This check has expired: import the file again. Nothing was booked.', env),
    }),
    async ({ ack, view, client, context: { draft } }) => {
      // A double click, or the same submission delivered twice, books the check once.
      const first = !draft.data.startedAt && (await firstStart(deps.store, draft.id));
      if (!first) {
        await ack({
          response_action: 'update',
          view: notCheckedView('This file is being booked already: its summary comes to the channel.', env),
        });
        return;
      }
      await deps.store.drafts.save<BulkDraft>(draft.id, {
        ...draft.data,
        startedAt: deps.now().toISOString(),
      });
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
      deps.inFlight.run(
        'bulk booking',
        () => startImport(deps, client, { viewId: view.id, draft, wake: () => rows.wake() }),
        { client, userId: draft.userId, viewId: view.id },
      );
    },
  );
}
