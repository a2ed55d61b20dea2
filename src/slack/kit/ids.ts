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
  /** Workflow steps, as declared in manifest.yml under `functions`. */
  stepQuote: 'quote_delivery',
  stepBook: 'book_waybill',
  stepStatus: 'record_status',
  stepFind: 'find_waybill',
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
  /** The address book's type-ahead on a booking step, and on the quote form. */
  bookingParty: 'booking_party',
  quoteParty: 'quote_party',
  bookingRetry: 'booking_retry',
  bookingEdit: 'booking_edit',
  waybillUpdate: 'waybill_update',
  updateForm: 'update_form',
  updateOutcome: 'update_outcome',
  updateRetry: 'update_retry',
  updateBack: 'update_back',
  updateSendChecked: 'update_send_checked',
  /** /waybill addresses: the list (a search), its buttons, and the edit form. */
  addressesList: 'addresses_list',
  addressesEdit: 'addresses_edit',
  addressesDelete: 'addresses_delete',
  addressesEditForm: 'addresses_edit_form',
  /** The Home tab's New quote and New booking: the shortcuts' first view, from a button. */
  quoteFromHome: 'quote_from_home',
  bookFromHome: 'book_from_home',
  bookingResume: 'book_resume',
  bulkOpen: 'bulk_open',
  bulkImport: 'bulk_import',
  bulkTemplate: 'bulk_template',
  bulkConfirm: 'bulk_confirm',
  bulkPage: 'bulk_page',
  bulkProgress: 'bulk_progress',
  /** COD remittance: the Home tab's button, the file modal, the windows after it. */
  remittanceOpen: 'remittance_open',
  remittanceImport: 'remittance_import',
  remittanceProgress: 'remittance_progress',
  exportOpen: 'export_open',
  exportRange: 'export_range',
  /** Print labels (a booking card, a bulk import's card) and the Home tab's Pickup list. */
  labelsPrint: 'labels_print',
  labelsBulk: 'labels_bulk',
  labelsManifest: 'labels_manifest',
  /** Send to printer, beside a ZPL file: a booking's or an import's labels to a printer on the office network. */
  labelsSendToPrinter: 'labels_send_to_printer',
  /** A booking card's Record status, and its modal. */
  statusOpen: 'status_open',
  findShow: 'find_show',
  findMore: 'find_more',
  /** The compact reply to tracking numbers in a message: every one it names, privately. */
  recogniseShowAll: 'recognise_show_all',
  findHome: 'find_home',
  statusForm: 'status_form',
  /** A booking card's Take it and Assign (a people picker). */
  ownerTake: 'owner_take',
  ownerAssign: 'owner_assign',
  /** A reminder's Snooze menu (1 hour, tomorrow 9:00, 3 days). */
  reminderSnooze: 'reminder_snooze',
  /** Resolve, on a courier call of unknown outcome, and its form. */
  resolveOpen: 'resolve_open',
  resolveForm: 'resolve_form',
  resolveUpdateOpen: 'resolve_update_open',
  resolveUpdateForm: 'resolve_update_form',
} as const;

/** What a modal carries in private_metadata: the server-side draft holds everything else. */
export interface ViewMetadata {
  draftId: string;
  /** The saved party an address-book form edits. */
  partyId?: string;
  /** Its details' revision when the form was filled (partyRevision): a change since is not undone. */
  revision?: string;
  /** The courier call of unknown outcome a Resolve form settles. */
  attemptKey?: string;
}

export function viewMetadata(metadata: ViewMetadata): string {
  return JSON.stringify(metadata);
}

/**
 * What a modal's private_metadata names, or undefined when it is not ours: not JSON, no draft id, or a
 * NUL character anywhere (never written by us, and refused by PostgreSQL in every lookup).
 */
export function readViewMetadata(text: string | undefined): ViewMetadata | undefined {
  try {
    const { draftId, partyId, revision, attemptKey } = JSON.parse(text ?? '') as Partial<ViewMetadata>;
    if (typeof draftId !== 'string') return undefined;
    const metadata: ViewMetadata = {
      draftId,
      ...(typeof partyId === 'string' ? { partyId } : {}),
      ...(typeof revision === 'string' ? { revision } : {}),
      ...(typeof attemptKey === 'string' ? { attemptKey } : {}),
    };
    return Object.values(metadata).some((value) => value.includes('\u0000')) ? undefined : metadata;
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
