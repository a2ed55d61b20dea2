import type { App } from '@slack/bolt';
import type { BotDeps } from '../deps.js';
import * as bookingReview from './booking-review.js';
import * as bookingStep from './booking-step.js';
import * as closed from './closed.js';
import * as quoteSubmit from './quote-submit.js';
import * as updateSubmit from './update-submit.js';

export function register(app: App, deps: BotDeps): void {
  for (const listener of [quoteSubmit, bookingStep, bookingReview, updateSubmit, closed])
    listener.register(app, deps);
}
