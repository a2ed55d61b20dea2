/** The booking card's buttons, Resolve on a courier call of unknown outcome and the outcome modals: several features show and answer them, so they are declared here. */
export const ids = {
  bookRebook: 'book_rebook',
  bookingOutcome: 'booking_outcome',
  waybillUpdate: 'waybill_update',
  updateOutcome: 'update_outcome',
  /** Print labels, on a booking card. */
  labelsPrint: 'labels_print',
  /** A booking card's Record status, and its modal. */
  statusOpen: 'status_open',
  /** A booking card's Take it and Assign (a people picker). */
  ownerTake: 'owner_take',
  ownerAssign: 'owner_assign',
  /** Resolve, on a courier call of unknown outcome, and its form. */
  resolveOpen: 'resolve_open',
  resolveForm: 'resolve_form',
} as const;
