/**
 * Public entry of the booking: its card (posted, redrawn, read back from the store), Resolve on a
 * courier call of unknown outcome, and telling dispatchers of calls a stopped bot abandoned. No
 * listener of its own: the features that answer the card's buttons and Resolve register them.
 */
import type { Feature } from '../feature.js';

export { tellAbandoned } from './abandoned.js';
export { resolveActions, unresolvedWithDraft } from './attempts.js';
export { bookingCard, bookingOfBlock, ownerBlockId, slackDate, statusLine } from './booking-card.js';
export { ids as bookingIds } from './ids.js';
export { type BookingLine, bookingBlocks, bookingLine, bookingNumberBlocks } from './line.js';
export {
  RECEIVER_CONFIRM_BLOCK,
  receiverConfirmed,
  receiverConfirmMissing,
  receiverReviewBlocks,
} from './receiver-line.js';
export {
  type Resolution,
  resolveButton,
  resolvedMeanwhile,
  resolveSubmission,
  type Settled,
} from './resolve.js';
export {
  bookingRemittances,
  cardPlaces,
  redrawCards,
  storedBooking,
  storedBookingCard,
  threadPlaces,
} from './stored-booking.js';

/** The feature as bot.ts registers it (src/slack/features.ts). */
export const feature: Feature = {
  name: 'booking',
};
