/** Callback and action ids, and what a modal carries in private_metadata. */
import type { Draft, Drafts } from '../../store/index.js';

/** Callback and action ids: the names Slack sends back to route a submission or a click. */
export const ids = {
  quoteForm: 'quote_form',
  quoteWorking: 'quote_working',
  quoteResult: 'quote_result',
  quoteBack: 'quote_back',
  quoteRetry: 'quote_retry',
  quoteReopen: 'quote_reopen',
  bookFromQuote: 'book_from_quote',
  bookRebook: 'book_rebook',
  /** Shortcuts, as declared in manifest.yml. */
  bookFromMessage: 'book_from_message',
  bookNew: 'book_new',
  quoteNew: 'quote_new',
  /** A global shortcut's first view: where the result is posted. */
  bookingDestination: 'booking_destination',
  quoteDestination: 'quote_destination',
  bookingStep: 'booking_step',
  bookingReview: 'booking_review',
  bookingOutcome: 'booking_outcome',
  bookingBack: 'booking_back',
  bookingAddParcel: 'booking_add_parcel',
  bookingRemoveParcel: 'booking_remove_parcel',
  bookingProfile: 'booking_profile',
  bookingRetry: 'booking_retry',
  bookingEdit: 'booking_edit',
  waybillUpdate: 'waybill_update',
  updateForm: 'update_form',
  updateOutcome: 'update_outcome',
  updateRetry: 'update_retry',
  updateBack: 'update_back',
  updateSendChecked: 'update_send_checked',
} as const;

/** What a modal carries in private_metadata: the server-side draft holds everything else. */
export interface ViewMetadata {
  draftId: string;
}

export function viewMetadata(metadata: ViewMetadata): string {
  return JSON.stringify(metadata);
}

export function readViewMetadata(text: string | undefined): ViewMetadata | undefined {
  try {
    const parsed = JSON.parse(text ?? '') as Partial<ViewMetadata>;
    return typeof parsed.draftId === 'string' ? { draftId: parsed.draftId } : undefined;
  } catch {
    return undefined;
  }
}

/** The stored draft of a kind that a modal's private_metadata names; undefined if gone or another kind. */
export async function draftOfView<T>(
  drafts: Pick<Drafts, 'get'>,
  privateMetadata: string | undefined,
  kind: string,
): Promise<Draft<T> | undefined> {
  const draftId = readViewMetadata(privateMetadata)?.draftId;
  const draft = draftId ? await drafts.get<T>(draftId) : undefined;
  return draft?.kind === kind ? draft : undefined;
}
