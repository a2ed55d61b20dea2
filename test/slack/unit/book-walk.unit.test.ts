/**
 * A booking confirmation's walk goes downwards (issue 45, item 5): Confirm booking validates its
 * draft once, the operation begins and sends it, and each of the step view, the review and the
 * outcome is drawn in one file; no file of the walk calls back into one above it, but through a port.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const bookDir = join(import.meta.dirname, '../../../src/slack/book');
const source = (file: string) => readFileSync(join(bookDir, `${file}.ts`), 'utf8');

/** The confirmation's files, each above those it may import (its walk, top down). */
const walk = [
  'confirm',
  'retry',
  'send',
  'steps',
  'card',
  'receiver-record',
  'review-view',
  'outcome-view',
  'step-view',
  'draft',
  'form',
  'ids',
];

const importsOf = (file: string) =>
  [...source(file).matchAll(/from '\.\/([\w-]+)\.js'/g)].map((match) => match[1] as string);

/** Files of the walk outside `only` that call `call(` (its definition aside). */
const callersOf = (call: string, only: string) =>
  walk.filter((file) => file !== only && new RegExp(`(?<!function )\\b${call}\\(`).test(source(file)));

describe('a booking confirmation', () => {
  it('imports downwards only: no file of its walk reaches one above it or beside it', () => {
    const upwards = walk.flatMap((file, rank) =>
      importsOf(file)
        .filter((target) => walk.includes(target) && walk.indexOf(target) <= rank)
        .map((target) => `${file}.ts imports ${target}.ts`),
    );
    expect(upwards, 'move what both need below both, or hand it down as a port').toEqual([]);
  });

  it('draws the step view and the review in steps.ts alone, and every outcome in outcome-view.ts alone', () => {
    expect(callersOf('bookingStepView', 'steps')).toEqual([]);
    expect(callersOf('bookingReviewView', 'steps')).toEqual([]);
    for (const outcome of ['outcomeOfAttempt', 'outcomeOfFailure', 'outcomeView'])
      expect(callersOf(outcome, 'outcome-view')).toEqual([]);
  });

  it('validates its draft once, in the handler; sending and drawing the outcome validate nothing', () => {
    const validations = (file: string) => source(file).match(/\bvalidateDraft(?:ToSend)?\(/g)?.length ?? 0;
    expect(validations('confirm')).toBe(1);
    for (const below of ['send', 'card', 'outcome-view']) expect(validations(below)).toBe(0);
  });
});
