/** /book: the feature's public entry. */
// bot.ts registers it; another feature imports only what this file exports, never book's other files.
import type { App } from '@slack/bolt';
import type { Core } from '../core.js';
import type { Feature } from '../feature.js';
import * as addParcel from './add-parcel.js';
import * as back from './back.js';
import * as changeDetails from './change-details.js';
import * as command from './command.js';
import * as confirm from './confirm.js';
import * as fromMessage from './from-message.js';
import * as fromQuote from './from-quote.js';
import * as nextStep from './next-step.js';
import * as partyPick from './party-pick.js';
import * as rebook from './rebook.js';
import { rebookVerb } from './rebook.js';
import * as removeParcel from './remove-parcel.js';
import * as resolve from './resolve.js';
import * as resume from './resume.js';
import * as retry from './retry.js';
import * as senderProfile from './sender-profile.js';
import * as shortcut from './shortcut.js';

export { cardPoster } from './card.js';
export { openBookingDrafts } from './draft.js';
export type { BookingDraft } from './form.js';
export { bookingFormSpec, fieldName, stepFields } from './form.js';
export { rebookVerb } from './rebook.js';

function register(app: App, deps: Core): void {
  for (const listener of [
    command,
    fromQuote,
    rebook,
    fromMessage,
    shortcut,
    nextStep,
    confirm,
    back,
    addParcel,
    removeParcel,
    senderProfile,
    partyPick,
    retry,
    changeDetails,
    resume,
    resolve,
  ]) {
    listener.register(app, deps);
  }
}

export { ids as bookIds } from './ids.js';

/** The feature as bot.ts registers it (src/slack/features.ts). */
export const feature: Feature = {
  name: 'book',
  register,
  verbs: [rebookVerb],
};
