/** The message reader against a corpus of real-shaped booking requests, field by field, and its rules one by one. */
import fc from 'fast-check';
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
    ['0900 000 0000', 'is not a phone number that can be dialled in PH'],
    ['(02) 2123 4567', 'is not a phone number that can be dialled in PH'],
    ['+63 900 000 0000', 'is not a phone number that can be dialled in PH'],
  ])('reads no phone from %s, which cannot be dialled, and says so', (written, problem) => {
    const reading = readMessage(`Maria Santos, ${written}, 0917 123 4567`);
    // The booking's own rule (phones.ts): the number that can be dialled is read, the other is not.
    expect(reading.values['consignee.phone']).toBe('0917 123 4567');
    expect(reading.notes).toEqual([
      `Not read as a phone: "${written}" ${problem}, e.g. 0917 123 4567 or (02) 8123 4567`,
    ]);
    expect(readMessage(`Tel: ${written}`).values['consignee.phone']).toBeUndefined();
  });

  it('checks at most 20 different numbers, and says so', () => {
    const numbers = Array.from({ length: 25 }, (_, n) => `0917 123 ${String(4500 + n)}`);
    const reading = readMessage(`Tel: ${numbers.join(', ')}, 0900 000 0000, 0900 000 0000`);
    expect(reading.values['consignee.phone']).toBeUndefined();
    expect(reading.notes).toEqual([
      'Phone numbers left unread: the message has more than 20 different ones',
      expect.stringMatching(/^Receiver phone left empty: the message gives 20 different ones/),
    ]);
    // The same number written twice is one note.
    expect(readMessage('0900 000 0000 or 0900 000 0000').notes).toHaveLength(1);
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

describe('readMessage time on hostile messages', () => {
  // CPU time of this thread where Node has it (22.x no, 24 yes), else of the process: the call's own
  // work, not the gaps a busy machine puts between two clock readings.
  const cpuMicros = (): number => {
    const usage =
      (process as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage?.() ?? process.cpuUsage();
    return usage.user + usage.system;
  };
  /**
   * The least CPU time of three readings. A first reading of a new shape also pays for compiling the
   * code it takes (on V8's background threads, which process CPU time counts on Node 20 and 22), once;
   * a slow rule pays on every reading.
   */
  const timed = (text: string) => {
    const times = [1, 2, 3].map(() => {
      const before = cpuMicros();
      readMessage(text, options);
      return (cpuMicros() - before) / 1000;
    });
    return { ms: Math.min(...times) };
  };
  /** Slack's most characters in a message. */
  const SLACK_MAX = 40_000;
  const BOUND_MS = 50;
  const repeated = (unit: string, length: number) =>
    unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

  // Warm, as a running bot is: the first message compiles every pattern once, whatever its length.
  for (const message of bookingMessages) readMessage(message.text, options);

  it.each([
    ['"1 " x 1500 (a pasted column of numbers)', '1 '.repeat(1500)],
    ['"0918 " x 1000', '0918 '.repeat(1000)],
    ['"(02) " x 1000', '(02) '.repeat(1000)],
    ['"1.1.1.1 kg" to Slack\'s maximum', repeated('1.1.1.1 kg', SLACK_MAX)],
    ['"1.1.1.1 kg " to Slack\'s maximum', repeated('1.1.1.1 kg ', SLACK_MAX)],
    ['"1." to Slack\'s maximum', repeated('1.', SLACK_MAX)],
    ['"1 " to Slack\'s maximum', repeated('1 ', SLACK_MAX)],
    ['"(02) " to Slack\'s maximum', repeated('(02) ', SLACK_MAX)],
    ["one line per digit to Slack's maximum", repeated('1\n', SLACK_MAX)],
    ["labels to Slack's maximum", repeated('Name: x ', SLACK_MAX)],
    ['"COD" then spaces', `COD${' '.repeat(SLACK_MAX - 4)}x`],
    ['a number then spaces', `1${' '.repeat(SLACK_MAX - 2)}x`],
    ['a postal code then dots', `Tanza 4108${' .'.repeat(SLACK_MAX / 2 - 10)}x`],
    ['one long word', repeated('a', SLACK_MAX)],
    ['numbers that cannot be dialled', repeated('0900 000 0000, ', SLACK_MAX)],
    [
      'different phone numbers',
      Array.from({ length: 3000 }, (_, n) => `0917 ${String(n).padStart(7, '0')}`).join(', '),
    ],
  ])('reads %s within 50 ms of CPU', (_, text) => {
    expect(timed(text).ms).toBeLessThan(BOUND_MS);
  });

  /** Tokens of numbers, punctuation, units and labels the rules look for. */
  const token = fc.constantFrom(
    ' ',
    '  ',
    '\n',
    '|',
    '\u00a0',
    ...'1,0,9,12,0918,555,4108,63,+63,+,(02),(,),.,-,:,;,/,#,@,*,_,x,\u00d7,kg,g,cm,mm,in,",each'.split(','),
    ',',
    ...'COD,php,\u20b1,P,no,pcs,boxes,Name:,Tel:,Brgy,Purok,St,Blk,to,kay,Maria,Santos,de,Sender:'.split(','),
    ...'Return address:,a,b.co'.split(','),
  );
  const hostile = fc.record({
    unit: fc.array(token, { minLength: 1, maxLength: 6 }).map((tokens) => tokens.join('')),
    length: fc.integer({ min: 1000, max: SLACK_MAX }),
  });

  it('reads any repetition of digits, punctuation and units up to 40,000 characters within 50 ms of CPU', () => {
    fc.assert(
      fc.property(hostile, ({ unit, length }) => {
        const { ms } = timed(repeated(unit, length));
        expect(ms, `"${unit}" repeated to ${length} characters`).toBeLessThan(BOUND_MS);
      }),
      { numRuns: 150 },
    );
  });

  it('reads the first 4,000 characters or 200 lines, cut between values, and says so', () => {
    const request = 'Name: Maria Santos\nTel: 0918 555 0202\n';
    // The 4,000th character is inside "1500": cut there, it would read as a COD amount of 1.
    const filler = 'filler '.repeat(600).slice(0, 3995 - request.length);
    const long = `${request}${filler}COD 1500 and then more words`;
    const reading = readMessage(long, options);
    expect(reading.values['consignee.phone']).toBe('0918 555 0202');
    expect(reading.values.codAmount).toBeUndefined();
    expect(reading.notes[0]).toBe(
      'Only the start of the message was read (3,998 of its 4,023 characters; the reader stops at 4,000 characters or 200 lines): fill in what the rest says yourself',
    );
    const lines = readMessage(`${'x\n'.repeat(300)}COD 1500`, options);
    expect(lines.values.codAmount).toBeUndefined();
    expect(lines.notes[0]).toMatch(/^Only the start of the message was read \(399 of its 608 characters/);
    expect(readMessage(request, options).notes).toEqual([]);
  });
});
