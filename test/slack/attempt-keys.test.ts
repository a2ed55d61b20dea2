// The attempt-key format: what is built is read back, so a restart names the waybill of a lost call.
import { describe, expect, it } from 'vitest';
import {
  bookingAttemptKey,
  trackingNumberOfAttempt,
  updateAttemptKey,
} from '../../src/slack/shared/attempt-keys.js';

describe('attempt keys', () => {
  it('read back the tracking number of a booking and of an update', () => {
    expect(trackingNumberOfAttempt(bookingAttemptKey('d-1', 'WB000123'))).toBe('WB000123');
    expect(trackingNumberOfAttempt(updateAttemptKey('WB000123', 4))).toBe('WB000123');
  });

  it('name no waybill for a key of another format', () => {
    expect(trackingNumberOfAttempt('quote:d-1')).toBeUndefined();
  });
});
