/** A modal's input state as a Slack client sends it, from the modal's blocks and what a dispatcher typed. */
import { pathOfBlock } from '../src/slack/kit/forms.js';
import {
  conversationsSelect,
  datepicker,
  email,
  externalSelect,
  fileInput,
  numberInput,
  plainText,
  type StateValue,
  type StateValues,
  staticSelect,
  timepicker,
} from './slack-requests.js';

/** A Slack state value for an input element, as the client would send it. */
function stateValue(
  element: { type: string; options?: { value: string; text: { text: string } }[] },
  value: string | null,
): StateValue {
  switch (element.type) {
    case 'static_select': {
      const chosen = element.options?.find((o) => o.value === value);
      return staticSelect(chosen ? chosen.value : value, chosen?.text.text);
    }
    case 'datepicker':
      return datepicker(value);
    case 'timepicker':
      return timepicker(value, 'Asia/Manila');
    case 'number_input':
      return numberInput(value);
    case 'email_text_input':
      return email(value);
    case 'conversations_select':
      return conversationsSelect(value);
    case 'external_select':
      return externalSelect(value);
    case 'file_input':
      return fileInput(value === null ? [] : value.split(','));
    case 'checkboxes':
    case 'multi_static_select': {
      // The ticked (or picked) options' values, comma-separated; none: null. A value no option has is
      // sent as a forged request would.
      const picked = value === null ? [] : value.split(',');
      return {
        type: element.type,
        selected_options: picked.map(
          (v) => element.options?.find((o) => o.value === v) ?? { value: v, text: { text: v } },
        ),
      };
    }
    default:
      return plainText(value);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: Block Kit element JSON
function initialValue(element: any): string | null {
  return (
    element.initial_value ??
    element.initial_option?.value ??
    element.initial_date ??
    element.initial_time ??
    element.initial_conversation ??
    null
  );
}

/**
 * The state Slack sends for a modal's inputs: `typed` by schema path (a file input's: file ids,
 * comma-separated), the rest as the modal pre-filled them.
 */
// biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON as Slack holds it
export function stateFor(blocks: any[], typed: Record<string, string | null>): StateValues {
  const values: StateValues = {};
  for (const block of blocks) {
    if (block.type !== 'input') continue;
    const path = pathOfBlock(block.block_id);
    const value = path in typed ? (typed[path] ?? null) : initialValue(block.element);
    values[block.block_id] = { [block.element.action_id]: stateValue(block.element, value) };
  }
  return values;
}
