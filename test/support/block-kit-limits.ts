/** Slack's Block Kit limits, checked on a modal or a message built by a view builder (no Slack needed). */
import { expect } from 'vitest';

// biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON, walked generically
type Json = any;

/** Every object inside the JSON, depth first. */
function objectsIn(value: Json, found: Json[] = []): Json[] {
  if (Array.isArray(value)) {
    for (const item of value) objectsIn(item, found);
  } else if (typeof value === 'object' && value !== null) {
    found.push(value);
    for (const item of Object.values(value)) objectsIn(item, found);
  }
  return found;
}

/**
 * What Slack refuses a view or message for: a modal's title, submit and close over 24 characters,
 * private_metadata over 3,000, more than 100 blocks in a modal or Home tab (50 in a message), a block id used
 * twice or over 255 characters, option text over 75 or value over 150, section text over 3,000,
 * header text over 150, an input label over 2,000, more than 10 context elements, 25 actions.
 */
export function expectWithinSlackLimits(surface: Json): void {
  const context = JSON.stringify(surface).slice(0, 500);
  const blocks: Json[] = surface.blocks ?? [];
  if (surface.type === 'modal') {
    for (const text of [surface.title, surface.submit, surface.close]) {
      if (text) expect(text.text.length, `${text.text}: ${context}`).toBeLessThanOrEqual(24);
    }
    expect(surface.title?.text.length, context).toBeGreaterThan(0);
    expect((surface.private_metadata ?? '').length, context).toBeLessThanOrEqual(3000);
    expect((surface.callback_id ?? '').length, context).toBeLessThanOrEqual(255);
    expect(blocks.length, context).toBeLessThanOrEqual(100);
  } else {
    expect(blocks.length, context).toBeLessThanOrEqual(surface.type === 'home' ? 100 : 50);
  }
  const blockIds = blocks.map((block) => block.block_id).filter((id) => id !== undefined);
  expect(new Set(blockIds).size, `block ids repeated: ${blockIds.join(' ')}`).toBe(blockIds.length);
  for (const id of blockIds) expect(id.length, id).toBeLessThanOrEqual(255);
  for (const block of blocks) {
    if (block.type === 'section' && block.text) expect(block.text.text.length).toBeLessThanOrEqual(3000);
    if (block.type === 'header') expect(block.text.text.length).toBeLessThanOrEqual(150);
    if (block.type === 'input') expect(block.label.text.length).toBeLessThanOrEqual(2000);
    if (block.type === 'context') expect(block.elements.length).toBeLessThanOrEqual(10);
    if (block.type === 'actions') expect(block.elements.length).toBeLessThanOrEqual(25);
  }
  for (const node of objectsIn(blocks)) {
    if (Array.isArray(node.options)) {
      expect(node.options.length).toBeLessThanOrEqual(100);
      for (const option of node.options) {
        expect(option.text.text.length, option.text.text).toBeLessThanOrEqual(75);
        expect(option.value.length, option.value).toBeLessThanOrEqual(150);
      }
    }
    if (typeof node.action_id === 'string') expect(node.action_id.length).toBeLessThanOrEqual(255);
  }
}

/** The mrkdwn texts anywhere in the JSON: what Slack parses for mentions and links. */
export function mrkdwnTexts(surface: Json): string[] {
  return objectsIn(surface)
    .filter((node) => node.type === 'mrkdwn' && typeof node.text === 'string')
    .map((node) => node.text as string);
}
