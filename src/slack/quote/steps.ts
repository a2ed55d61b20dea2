/** What the quote modal shows of a draft, pure: the form with its values, and "Getting a quote…". */
import type { Draft } from '../../store/index.js';
import type { QuoteRequest } from '../../waybill/schemas.js';
import type { Core } from '../core.js';
import { viewMetadata } from '../kit/ids.js';
import { quoteFormView, quoteWorkingView } from './blocks.js';
import type { QuoteDraft } from './draft.js';
import { quoteSpec } from './form.js';

export function quoteForm(
  deps: Pick<Core, 'waybill' | 'schemas'>,
  draft: Draft<QuoteDraft>,
  notices: readonly string[] = [],
) {
  return quoteFormView({
    ...quoteSpec(deps),
    values: draft.data.input,
    metadata: viewMetadata({ draftId: draft.id }),
    notices,
    env: deps.waybill.env,
    ...(draft.data.rev ? { suffix: String(draft.data.rev) } : {}),
  });
}

export function quoteWorking(deps: Pick<Core, 'waybill'>, draft: Draft<QuoteDraft>, quote: QuoteRequest) {
  const { env, catalog, currency } = deps.waybill;
  return quoteWorkingView({ quote, env, catalog, currency, metadata: viewMetadata({ draftId: draft.id }) });
}
