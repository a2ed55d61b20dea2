/**
 * Attempt keys and claims: the same request keeps its key, a changed one gets a new key under the same claim.
 */
// Attempt keys and claims: the same request keeps its key, a changed one gets another under the same claim.
import { describe, expect, it } from 'vitest';
import { bookingAttempt, updateAttempt } from '../../src/operations/attempts.js';
import { sampleBooking, sampleUpdate } from '../support/wire-samples.js';

describe('courier attempts', () => {
  it('give the same request the same key, whatever the order of its keys', () => {
    const body = sampleUpdate('WB000123');
    const reordered = Object.fromEntries(Object.entries(body).reverse()) as typeof body;
    expect(updateAttempt('d-1', 4, reordered)).toEqual(updateAttempt('d-1', 4, body));
    expect(bookingAttempt('d-1', sampleBooking('WB000123'))).toEqual(
      bookingAttempt('d-1', sampleBooking('WB000123')),
    );
  });

  it('give a changed request a new key under the same claim', () => {
    const body = sampleUpdate('WB000123');
    const first = updateAttempt('d-1', 4, body);
    const changed = updateAttempt('d-1', 4, { ...body, codAmount: '999.00' });
    expect(changed.key).not.toBe(first.key);
    expect(changed.claim).toBe(first.claim);
    const booking = sampleBooking('WB000123');
    const edited = bookingAttempt('d-1', { ...booking, declaredValue: '1.00' });
    expect(edited.key).not.toBe(bookingAttempt('d-1', booking).key);
    expect(edited.claim).toBe(bookingAttempt('d-1', booking).claim);
  });

  it('claim one update per waybill version, whoever sends it, and one booking per draft and number', () => {
    const body = sampleUpdate('WB000123');
    expect(updateAttempt('d-2', 4, body).claim).toBe(updateAttempt('d-1', 4, body).claim);
    expect(updateAttempt('d-2', 4, body).key).not.toBe(updateAttempt('d-1', 4, body).key);
    expect(updateAttempt('d-1', 5, body).claim).not.toBe(updateAttempt('d-1', 4, body).claim);
    expect(bookingAttempt('d-2', sampleBooking('WB1')).claim).not.toBe(
      bookingAttempt('d-1', sampleBooking('WB1')).claim,
    );
    expect(updateAttempt('d-1', 4, body)).toMatchObject({ operation: 'update', trackingNumber: 'WB000123' });
  });
});
