/** A workflow step's inputs onto a schema's input, and a failed check told by the inputs' own names. */
import type { FieldError } from '../../waybill/schemas.js';

/** Each input a step reads, by its name in the manifest, and the schema path it fills (`package.weight`). */
export type StepInputs = Record<string, string>;

/** What Slack hands a step: strings, numbers, ids; an optional input left empty may be absent or null. */
export type GivenInputs = Record<string, unknown>;

/** The given inputs as the schema's input, over `base`: each as the text a form would hold. */
export function schemaInput(given: GivenInputs, map: StepInputs, base: Record<string, unknown>) {
  const input = structuredClone(base);
  for (const [name, path] of Object.entries(map)) {
    const value = given[name];
    if (value === undefined || value === null || value === '') continue;
    const [group, key] = path.split('.') as [string, string | undefined];
    const typed = typeof value === 'string' ? value.trim() : String(value);
    if (key === undefined) input[group] = typed;
    else input[group] = { ...(input[group] as object | undefined), [key]: typed };
  }
  return input;
}

/**
 * Why a step's inputs were refused, one problem each, named by the input that holds the field (the
 * workflow's builder sees these names), or by the field alone when no input fills it.
 */
export function refusal(errors: readonly FieldError[], map: StepInputs): string {
  const names = Object.entries(map);
  return errors
    .map(({ path, message }) => {
      // A field an input fills, or one an input fills part of (`pickupAt` of `pickupAt.date`).
      const input = names.find(
        ([, filled]) => filled === path || path.startsWith(`${filled}.`) || filled.startsWith(`${path}.`),
      )?.[0];
      return input ? `${input}: ${message}` : message;
    })
    .join('; ');
}
