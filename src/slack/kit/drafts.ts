/** Form drafts shown again: the one place a draft is saved with a new rev before its form is rendered. */
import type { Draft, Drafts } from '../../store/index.js';

/**
 * A form draft's data: `rev` goes into the block ids of the view's inputs. Slack keeps what an
 * input held under its block id, so a form shown again with other values needs new block ids.
 */
export interface FormDraftData {
  rev?: number;
}

/** The draft's data with these changes and the next rev: pure, for a view rendered from it. */
export function nextRev<Data extends FormDraftData>(data: Data, changes: Partial<Data> = {}): Data {
  return { ...data, ...changes, rev: (data.rev ?? 0) + 1 };
}

/** Saves the draft with these changes and the next rev, so the form rendered from it shows its values. */
export function saveToShow<Data extends FormDraftData>(
  drafts: Pick<Drafts, 'save'>,
  draft: Draft<Data>,
  changes: Partial<Data> = {},
): Promise<Draft<Data>> {
  return drafts.save<Data>(draft.id, nextRev(draft.data, changes));
}
