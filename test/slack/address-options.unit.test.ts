/**
 * The address book's options and list within Slack's limits: 100 options, 75-character text cut without
 * breaking a character, blocks, escaping.
 */
// The address book's options and list as Slack limits them: option text, values, counts, blocks, escaping.
import { describe, expect, it } from 'vitest';
import {
  addressBookView,
  MAX_LISTED,
  partyOfPicker,
  partyOption,
  partyOptions,
  partyPicker,
  pickerBlockId,
} from '../../src/slack/addresses/blocks.js';
import { cut } from '../../src/slack/kit/blocks.js';
import type { SavedParty } from '../../src/store/index.js';
import { maria } from '../fixtures/parties.js';

function saved(overrides: Partial<SavedParty> = {}): SavedParty {
  return {
    ...maria,
    latitude: undefined,
    longitude: undefined,
    barangay: '',
    id: 'p4Yq2sJ0b1Xv7wK3mN8rTg',
    createdAt: new Date('2026-11-01T00:00:00Z'),
    lastUsedAt: new Date('2026-11-20T00:00:00Z'),
    uses: 3,
    ...overrides,
  };
}

describe('cut', () => {
  it('keeps short text, and cuts long text to the limit with an ellipsis, never through a character', () => {
    expect(cut('Maria', 75)).toBe('Maria');
    expect(cut('a'.repeat(80), 75)).toBe(`${'a'.repeat(74)}…`);
    expect(cut('a'.repeat(80), 75)).toHaveLength(75);
    // A family emoji is 11 UTF-16 units; a flag is 4; "é" written as e + accent is 2.
    const family = '👨‍👩‍👧‍👦';
    const cutFamily = cut(`${'x'.repeat(70)}${family}yyyy`, 75);
    expect(cutFamily).toBe(`${'x'.repeat(70)}…`);
    const cutAccent = cut(`${'x'.repeat(73)}e\u0301zz`, 75);
    expect(cutAccent).toBe(`${'x'.repeat(73)}…`);
    expect(cut(`${'x'.repeat(72)}🇵🇭zz`, 75)).toBe(`${'x'.repeat(72)}…`);
  });
});

describe('type-ahead options', () => {
  it('show name and phone above the address, as plain text typed, with the party id as value', () => {
    expect(partyOption(saved())).toEqual({
      text: { type: 'plain_text', text: 'Maria Santos · 0918 555 0202', emoji: true },
      value: 'p4Yq2sJ0b1Xv7wK3mN8rTg',
      description: {
        type: 'plain_text',
        text: '45 Rizal St, Ermita, Manila, Metro Manila, 1000, PH',
        emoji: true,
      },
    });
    // Plain text is never read as mrkdwn: nothing is escaped.
    const sneaky = partyOption(
      saved({
        name: '<!channel> & <@U1>',
        street: '',
        city: '',
        region: '',
        district: '',
        postal: '',
        country: '',
      }),
    );
    expect(sneaky.text.text).toBe('<!channel> & <@U1> · 0918 555 0202');
    expect(sneaky).not.toHaveProperty('description');
  });

  it('keep Slack’s limits: 100 options, text and description 75, value 150', () => {
    const long = saved({
      name: 'N'.repeat(300),
      phone: '+63 917 123 4567 ext 1234',
      street: 'S'.repeat(500),
    });
    const { options } = partyOptions(Array.from({ length: 130 }, (_, i) => ({ ...long, id: `id${i}` })));
    expect(options).toHaveLength(100);
    for (const option of options) {
      expect(option.text.text.length).toBeLessThanOrEqual(75);
      expect(option.description?.text.length).toBeLessThanOrEqual(75);
      expect(option.value?.length).toBeLessThanOrEqual(150);
    }
  });

  it('the picker names the party it fills in its block id', () => {
    const picker = partyPicker({
      party: 'consignee',
      actionId: 'booking_party',
      label: 'Saved receiver',
      suffix: '4',
    });
    expect(picker).toMatchObject({
      type: 'input',
      block_id: 'party_picker:consignee#4',
      optional: true,
      dispatch_action: true,
      element: { type: 'external_select', action_id: 'booking_party', min_query_length: 1 },
    });
    expect(partyOfPicker(picker.block_id)).toBe('consignee');
    expect(partyOfPicker(pickerBlockId('returnTo'))).toBe('returnTo');
    expect(partyOfPicker('consignee.name')).toBeUndefined();
    expect(partyOfPicker(undefined)).toBeUndefined();
  });
});

describe('the address book list', () => {
  const at = (date: Date) => date.toISOString().slice(0, 10);

  it('escapes what was typed, and stays within 100 blocks however many match', () => {
    const parties = Array.from({ length: 40 }, (_, i) =>
      saved({ id: `p${i}`, name: `<!here> Rosa & Co ${i}`, street: '<http://evil|click>' }),
    );
    const view = addressBookView({ query: '<b>rosa</b>', parties, metadata: '{}', at });
    expect(view.blocks.length).toBeLessThanOrEqual(100);
    // mrkdwn is escaped; plain text (the confirm dialog, the search field) is shown as typed.
    const texts = (node: unknown, type: string): string[] =>
      typeof node !== 'object' || node === null
        ? []
        : [
            ...('type' in node && node.type === type && 'text' in node ? [String(node.text)] : []),
            ...Object.values(node).flatMap((child) => texts(child, type)),
          ];
    const mrkdwn = texts(view.blocks, 'mrkdwn').join('\n');
    expect(mrkdwn).not.toContain('<');
    expect(mrkdwn).toContain('*&lt;!here&gt; Rosa &amp; Co 0*');
    expect(mrkdwn).toContain('&lt;http://evil|click&gt;');
    expect(mrkdwn).toContain('“&lt;b&gt;rosa&lt;/b&gt;”');
    expect(texts(view.blocks, 'plain_text')).toContain(
      '<!here> Rosa & Co 0 is taken out of the address book. Bookings already made keep their details.',
    );
    const text = JSON.stringify(view.blocks);
    expect(text).toContain(`Only the first ${MAX_LISTED} are shown`);
    expect(view.title.text.length).toBeLessThanOrEqual(24);
  });
});
