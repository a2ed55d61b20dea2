/**
 * The HTTP receiver's raw check lets a body skip the NUL walk: it must never pass a body that decodes
 * to a NUL, however the sender encoded it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { surelyNulFree } from '../../../src/slack/guards/malformed.js';

/** A form body as Bolt decodes it: the payload field's JSON. */
const decodedForm = (raw: string) => JSON.parse(new URLSearchParams(raw).get('payload') ?? 'null') as unknown;

/** ASCII a hostile sender percent-encodes by hand (URLSearchParams never encodes `0` or `u`). */
const handEncoded = (text: string, every: number) =>
  [...text]
    .map((char, at) =>
      at % every === 0 && char.charCodeAt(0) < 0x80
        ? `%${char.charCodeAt(0).toString(16).padStart(2, '0')}`
        : encodeURIComponent(char),
    )
    .join('');

describe('surelyNulFree', () => {
  it('passes an ordinary submission and refuses to vouch for one holding a NUL', () => {
    const form = (note: string) =>
      `payload=${encodeURIComponent(JSON.stringify({ type: 'view_submission', note }))}`;
    expect(surelyNulFree(Buffer.from(form('Gate 2, ring twice')), false)).toBe(true);
    expect(surelyNulFree(Buffer.from(form('a\u0000b')), false)).toBe(false);
    // A payload as the front door hands it on, decoded: JSON.
    expect(surelyNulFree(Buffer.from(JSON.stringify({ note: 'Gate 2, 100% sure' })), true)).toBe(true);
    expect(surelyNulFree(Buffer.from(JSON.stringify({ note: 'a\u0000b' })), true)).toBe(false);
    expect(surelyNulFree(Buffer.from('{"note":"a\u0000b"}'), true)).toBe(false);
  });

  it('never vouches for a form body that decodes to a NUL, however it is encoded, nor for its decoded payload', () => {
    const withNul = fc.tuple(fc.string(), fc.string()).map(([before, after]) => `${before}\u0000${after}`);
    let nuls = 0;
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: 'binary' }), withNul),
        fc.integer({ min: 1, max: 4 }),
        (note, every) => {
          const json = JSON.stringify({ note });
          for (const raw of [`payload=${encodeURIComponent(json)}`, `payload=${handEncoded(json, every)}`]) {
            if (!JSON.stringify(decodedForm(raw)).includes('\\u0000')) continue;
            nuls += 1;
            expect(surelyNulFree(Buffer.from(raw), false)).toBe(false);
            expect(surelyNulFree(Buffer.from(new URLSearchParams(raw).get('payload') ?? ''), true)).toBe(
              false,
            );
          }
        },
      ),
    );
    expect(nuls).toBeGreaterThan(0);
  });
});
