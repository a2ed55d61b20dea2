/** "Back to the form" / "Change and quote again": the form, filled with what was last typed. */
import type { App } from '@slack/bolt';
import type { BotDeps } from '../deps.js';
import { onBackToForm } from '../shared/buttons.js';
import { ids } from '../shared/ids.js';
import { quoteDraftOfView, quoteForm } from './flow.js';

export function register(app: App, deps: BotDeps): void {
  onBackToForm(app, ids.quoteBack, async (privateMetadata) => {
    const draft = await quoteDraftOfView(deps, privateMetadata);
    return draft && quoteForm(deps, draft);
  });
}
