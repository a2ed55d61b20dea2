/** A quote's draft: what was typed (kept across failures), where the price goes, found again from a modal. */
import type { Store } from '../../store/index.js';
import type { FormDraftData } from '../kit/drafts.js';

/** A quote in progress: what was typed (kept across failures) and where the command came from. */
export interface QuoteDraft extends FormDraftData {
  input: Record<string, unknown>;
  responseUrl?: string;
}

/** What a posted quote was typed with, for "Book this"; undefined once the quote is gone. */
export async function quotedInput(deps: { store: Pick<Store, 'drafts'> }, quoteId: string) {
  const quote = await deps.store.drafts.get<QuoteDraft>(quoteId);
  return quote && { input: quote.data.input, channelId: quote.channelId };
}
