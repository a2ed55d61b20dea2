import type { App } from '@slack/bolt';
import type { BotDeps } from '../deps.js';
import * as bookFromQuote from './book-from-quote.js';
import * as bookingAddParcel from './booking-add-parcel.js';
import * as bookingBack from './booking-back.js';
import * as bookingEdit from './booking-edit.js';
import * as bookingProfile from './booking-profile.js';
import * as bookingRemoveParcel from './booking-remove-parcel.js';
import * as bookingRetry from './booking-retry.js';
import * as quoteBack from './quote-back.js';
import * as quoteReopen from './quote-reopen.js';
import * as quoteRetry from './quote-retry.js';
import * as updateBack from './update-back.js';
import * as updateRetry from './update-retry.js';
import * as waybillUpdate from './waybill-update.js';

export function register(app: App, deps: BotDeps): void {
  for (const listener of [
    quoteBack,
    quoteRetry,
    quoteReopen,
    bookFromQuote,
    bookingBack,
    bookingAddParcel,
    bookingRemoveParcel,
    bookingProfile,
    bookingRetry,
    bookingEdit,
    waybillUpdate,
    updateRetry,
    updateBack,
  ]) {
    listener.register(app, deps);
  }
}
