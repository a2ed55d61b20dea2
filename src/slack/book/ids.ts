/** The ids of /book and the booking modal: the callback and action ids Slack sends back to route a submission or a click. */
export const ids = {
  /** Shortcuts, as declared in manifest.yml. */
  bookFromMessage: 'book_from_message',
  bookNew: 'book_new',
  /** A global shortcut's first view: where the result is posted. */
  bookingDestination: 'booking_destination',
  bookingStep: 'booking_step',
  bookingReview: 'booking_review',
  bookingBack: 'booking_back',
  bookingAddParcel: 'booking_add_parcel',
  bookingRemoveParcel: 'booking_remove_parcel',
  bookingProfile: 'booking_profile',
  /** The address book's type-ahead on a booking step. */
  bookingParty: 'booking_party',
  bookingRetry: 'booking_retry',
  bookingEdit: 'booking_edit',
  /** The Home tab's New booking: the shortcut's first view, from a button. */
  bookFromHome: 'book_from_home',
  bookingResume: 'book_resume',
} as const;
