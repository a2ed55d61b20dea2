/**
 * How a text travels as SMS: GSM-7 when every character is in the GSM 03.38 alphabet (160 a part, 153
 * in a long message), UCS-2 otherwise (70 a part, 67). One character outside the alphabet (₱, an emoji,
 * curly quotes) halves what fits, so templates are checked against it.
 */

/** The GSM 03.38 basic alphabet: one septet each. */
const BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
/** The extension table: two septets each (an escape, then the character). */
const EXTENDED = '^{}\\[~]|€\f';

const basic = new Set(BASIC);
const extended = new Set(EXTENDED);

export type SmsEncoding = 'GSM-7' | 'UCS-2';

export interface SmsSize {
  encoding: SmsEncoding;
  /** Septets (GSM-7) or UTF-16 code units (UCS-2). */
  units: number;
  /** How many parts the network sends, and the operator pays for. */
  parts: number;
  /** What one part holds when the text is a single part. */
  singlePart: number;
}

/** The encoding, length and number of parts of `text`. */
export function smsSize(text: string): SmsSize {
  let septets = 0;
  for (const char of text) {
    if (basic.has(char)) septets += 1;
    else if (extended.has(char)) septets += 2;
    else return sized('UCS-2', text.length, 70, 67);
  }
  return sized('GSM-7', septets, 160, 153);
}

function sized(encoding: SmsEncoding, units: number, single: number, multi: number): SmsSize {
  return { encoding, units, parts: units <= single ? 1 : Math.ceil(units / multi), singlePart: single };
}
