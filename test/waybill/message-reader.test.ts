/** The message reader against a corpus of real-shaped booking requests, field by field, and its rules one by one. */
import { describe, expect, it } from 'vitest';
import { defaultCatalog } from '../../src/waybill/catalog.js';
import { type KnownParty, readMessage } from '../../src/waybill/message-reader.js';
import { bookingMessages } from '../fixtures/booking-messages.js';

const options = { codPaymentMethod: 'COD', packageTypes: defaultCatalog.packageTypes };

describe('readMessage on the corpus', () => {
  it('has at least 30 messages', () => {
    expect(bookingMessages.length).toBeGreaterThanOrEqual(30);
  });

  it.each(bookingMessages.map((message, index) => [index + 1, message] as const))(
    'message %i: every field as expected',
    (_, message) => {
      const reading = readMessage(message.text, options);
      const paths = new Set([...Object.keys(message.values), ...Object.keys(reading.values)]);
      for (const path of paths) {
        expect(reading.values[path], `${path} of: ${message.text}`).toBe(message.values[path]);
      }
      const expectedNotes = message.notes ?? [];
      expect(reading.notes, `notes of: ${message.text}`).toHaveLength(expectedNotes.length);
      expectedNotes.forEach((pattern, i) => {
        expect(reading.notes[i]).toMatch(pattern);
      });
    },
  );
});

describe('readMessage rules', () => {
  it('says what it read, in order, and from which words', () => {
    const reading = readMessage(
      'pls book 2 boxes to Maria Santos, 45 Rizal St Ermita, 0918 555 0202, COD 1,500',
      options,
    );
    expect(reading.recognised).toEqual([
      { label: 'Receiver name', value: 'Maria Santos', words: 'to Maria Santos' },
      { label: 'Receiver phone', value: '0918 555 0202', words: '0918 555 0202' },
      { label: 'Receiver address', value: '45 Rizal St Ermita', words: '45 Rizal St Ermita' },
      { label: 'Payment method', value: 'COD', words: 'COD 1,500' },
      { label: 'COD amount', value: '1500', words: 'COD 1,500' },
      { label: 'Number of parcels', value: '2', words: '2 boxes' },
      { label: 'Package type', value: 'Box', words: '2 boxes' },
    ]);
  });

  it.each([
    ['0918 555 0202', '0918 555 0202'],
    ['09185550202', '09185550202'],
    ['0918-555-0202', '0918-555-0202'],
    ['+63 918 555 0202', '+63 918 555 0202'],
    ['+639185550202', '+639185550202'],
    ['(02) 8123 4567', '(02) 8123 4567'],
    ['02-8123-4567', '02-8123-4567'],
    ['(032) 234 5678', '(032) 234 5678'],
  ])('reads the Philippine number %s', (written, read) => {
    expect(readMessage(`call ${written} pls`).values['consignee.phone']).toBe(read);
  });

  it.each([
    ['a number of another country', '+1 415 555 0100'],
    ['a local number without area code', '8123 4567'],
    ['a mobile number short of a digit', '0918 555 020'],
    ['a tracking number', 'WB000123'],
  ])('reads no phone from %s', (_, text) => {
    expect(readMessage(text).values['consignee.phone']).toBeUndefined();
  });

  it.each([
    ['a COD amount', 'Cavite, COD 4108'],
    ['a price in pesos', 'Cavite, php 4108'],
    ['a phone number', 'Tanza 0918 555 4108'],
    ['a weight', 'Cavite 4108 g'],
    ['a date', 'pickup Nov 2026'],
    ['an order number', 'order 4108'],
    ['a block number', 'Blk 4108'],
    ['an amount with a thousands separator', 'Cavite 4,108'],
  ])('takes no postal code from %s', (_, text) => {
    expect(readMessage(text).values['consignee.postal']).toBeUndefined();
  });

  it('sets no payment method or package type when the catalog is not given', () => {
    const reading = readMessage('2 boxes, COD 1500');
    expect(reading.values).toEqual({ codAmount: '1500', quantity: '2' });
  });

  it('fills the receiver from a saved party whose name appears, where the message says nothing else', () => {
    const knownParties: KnownParty[] = [
      { name: 'Maria Santos', details: { phone: '0918 555 0202', street: '45 Rizal St', city: 'Manila' } },
      { name: 'Juan Perez', details: { phone: '0917 000 1111' } },
    ];
    const reading = readMessage('Same as last time for Maria Santos pls, 1 box, City: Pasay', {
      ...options,
      knownParties,
    });
    expect(reading.values).toEqual({
      'consignee.name': 'Maria Santos',
      'consignee.phone': '0918 555 0202',
      'consignee.street': '45 Rizal St',
      'consignee.city': 'Pasay',
      quantity: '1',
      'package.type': 'BOX',
    });
    expect(reading.recognised.find((r) => r.label === 'Receiver phone')?.words).toBe(
      'saved party "Maria Santos"',
    );

    const both = readMessage('Maria Santos or Juan Perez, whoever is home', { ...options, knownParties });
    expect(both.values).toEqual({});
    expect(both.notes).toEqual([
      'Saved parties not used: the message names 2 of them (Maria Santos; Juan Perez)',
    ]);
  });
});
