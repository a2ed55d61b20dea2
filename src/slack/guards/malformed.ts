/**
 * Requests Slack never sends, refused before any listener reads them: a NUL character (PostgreSQL
 * cannot hold one), a command without its text, a workflow step's event without what identifies it.
 * A NUL typed into a form is bad input instead.
 */
import { inputBlockIds } from '../kit/forms.js';
import type { AroundRequest } from './around-request.js';

/** A request that is the sender's fault: the HTTP receiver answers it 400, Socket Mode acknowledges it; one log line. */
export class MalformedRequestError extends Error {}

/** Said on each input of a submitted form that holds a NUL. */
export const nulInputText = 'This holds a control character (NUL) that cannot be saved: type it again.';

type Body = Record<string, unknown> & {
  type?: unknown;
  event?: unknown;
  view?: { state?: { values?: unknown }; blocks?: unknown };
};

/**
 * Around each request (around-request.ts): a NUL in a tracking number,
 * draft id, attempt key or note failed deep in a listener on PostgreSQL (HTTP 500), and every
 * command's text is read before its listener runs. What a form's inputs hold is typing: a submission
 * with a NUL there is answered on those inputs; a click in the modal passes (its draft keeps text as JSON).
 */
export const refuseMalformed: AroundRequest = (processEvent) => async (event) => {
  const body = event.body as Body;
  const typed = body.view?.state;
  if (body.command !== undefined && typeof body.text !== 'string')
    throw new MalformedRequestError('a slash command without its text');
  if (malformedStep(body.event))
    throw new MalformedRequestError('a workflow step without its execution, function or inputs');
  // The HTTP receiver tells from the raw body that no NUL can be in it (the walk costs more than the rest of this guard).
  const mayHoldNul = event.customProperties?.[NUL_FREE] !== true;
  if (mayHoldNul && holdsNul(body, typed)) throw new MalformedRequestError('a NUL character in the request');
  const blocks =
    mayHoldNul && body.type === 'view_submission' ? inputsHoldingNul(typed?.values, body.view?.blocks) : [];
  if (blocks.length) {
    await event.ack({
      response_action: 'errors',
      errors: Object.fromEntries(blocks.map((blockId) => [blockId, nulInputText])),
    });
    return;
  }
  await processEvent(event);
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A step's event lacking what Bolt routes and ends it by: the function's callback id, the execution, inputs. */
function malformedStep(event: unknown): boolean {
  if (!isRecord(event) || event.type !== 'function_executed') return false;
  return (
    typeof event.function_execution_id !== 'string' ||
    !isRecord(event.function) ||
    typeof event.function.callback_id !== 'string' ||
    (event.inputs !== undefined && !isRecord(event.inputs))
  );
}

/** The form's inputs whose typed values hold a NUL (blocks that are no input of the form are never read). */
function inputsHoldingNul(values: unknown, blocks: unknown): string[] {
  if (typeof values !== 'object' || values === null) return [];
  const inputs = inputBlockIds(Array.isArray(blocks) ? blocks.filter((b) => typeof b === 'object' && b) : []);
  return inputs.filter((blockId) => holdsNul((values as Record<string, unknown>)[blockId]));
}

/** The custom property (in the request's context) by which the HTTP receiver says its body holds no NUL. */
export const NUL_FREE = 'bodyWithoutNul';

/**
 * Whether a raw request body surely decodes to no NUL. JSON holds one only as a byte or as the escape
 * `\u0000`: two native searches. A form body holds one also URL-encoded, where `%00` is one and `%30` or
 * `%75` could spell the escape's `0` or `u` (Slack never encodes those). Anything else is walked after
 * decoding.
 */
export function surelyNulFree(raw: Buffer, json: boolean): boolean {
  if (json) return !raw.includes(0) && !raw.includes('u0000');
  return !MAY_SPELL_NUL.test(raw.toString('latin1'));
}

// One pass of a regular expression: a few times quicker than a Buffer search per pattern.
const MAY_SPELL_NUL = /\0|u0000|%(?:00|30|75)/;

/** Whether a string anywhere in the value, a key included, holds U+0000 (`skip` and what it holds aside); walked without recursion, however deep. */
function holdsNul(value: unknown, skip?: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      if (next.includes('\u0000')) return true;
    } else if (typeof next === 'object' && next !== null && next !== skip) {
      for (const [key, inner] of Object.entries(next)) {
        if (key.includes('\u0000')) return true;
        pending.push(inner);
      }
    }
  }
  return false;
}
