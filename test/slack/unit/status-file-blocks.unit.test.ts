/** The status file's outcome window: the counts first, at most ten whole rows of each kind listed, within Block Kit's limits. */
import { expect, it } from 'vitest';
import { statusFileDoneView } from '../../../src/slack/status/file-blocks.js';

it('lists ten rows of each kind and counts the rest, each section within 3000 characters', () => {
  const long = (kind: string, n: number, width = 280) =>
    Array.from({ length: n }, (_, i) => `Row ${i + 2} \`WB${i}\`: ${kind} ${'x'.repeat(width)}`);
  const view = statusFileDoneView('export <1>.csv', {
    recorded: long('recorded', 2000),
    already: [],
    conflicts: long('conflict', 25),
    refused: long('refused', 3, 10),
    superseded: [],
    unreadable: [],
  });
  const texts = view.blocks.map((block) => (block as { text?: { text: string } }).text?.text ?? '');
  expect(texts[0]).toBe(
    '*export &lt;1&gt;.csv* read: 25 in conflict, not recorded, 3 unknown or not yours to update, 2000 recorded.',
  );
  // Ten rows of about 300 characters do not fit one section: those that fit whole are listed, the rest counted.
  const listed = (text = '') => text.match(/^Row /gm)?.length ?? 0;
  expect(listed(texts[1])).toBe(9);
  expect(texts[1]).toContain('…and 16 more rows');
  expect(listed(texts[2])).toBe(3);
  expect(texts[2]).not.toContain('more');
  expect(texts[3]).toContain(`…and ${2000 - listed(texts[3])} more rows`);
  for (const text of texts) expect(text.length).toBeLessThanOrEqual(3000);
  expect(view.blocks.length).toBeLessThan(100);
  expect(view.title.text.length).toBeLessThanOrEqual(24);
});
