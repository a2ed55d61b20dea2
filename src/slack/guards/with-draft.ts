/** `withDraft(kind)`: the listener middleware that finds the draft of the modal a request comes from, or says it has expired. */
import type { AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import type { ModalView } from '@slack/types';
import type { Draft, Drafts } from '../../store/index.js';
import { inputBlockIds } from '../kit/forms.js';
import { draftOfView } from '../kit/ids.js';

/** What a listener behind `withDraft` finds in its context. */
export type DraftContext<T> = { draft: Draft<T> };

/**
 * What a form submitted after its draft is gone answers: a message under an input (the form's first,
 * unless `block` names another), or another view in the form's place. A button or menu in a modal
 * whose draft is gone is acknowledged and does nothing.
 */
export type Expired = { error: string; block?: string } | { view: () => ModalView };

/**
 * Loads the draft of the kind the modal's private_metadata names into `context.draft`; when it is
 * gone (expired, or another kind), answers `expired` and the listener is not called. A draft is
 * its opener's: Slack lets only them act in the modal, so a request from anyone else is forged,
 * refused and logged.
 */
export function withDraft<T>(
  drafts: Pick<Drafts, 'get'>,
  kind: string,
  expired?: Expired,
  // biome-ignore lint/suspicious/noExplicitAny: whatever context the listener's other middleware adds
): Middleware<AnyMiddlewareArgs, any> {
  return async (args) => {
    const { body } = args;
    const view = 'view' in body ? body.view : undefined;
    const draft = view ? await draftOfView<T>(drafts, view.private_metadata, kind) : undefined;
    const userId = 'user' in body ? body.user?.id : undefined;
    if (draft && draft.userId === userId) {
      args.context.draft = draft;
      return args.next();
    }
    if (draft) {
      args.logger.warn(
        `refused: user ${userId} acted in a modal whose ${kind} draft ${draft.id} is ${draft.userId}'s`,
      );
    }
    if (!('ack' in args)) return;
    const ack = args.ack as (response?: unknown) => Promise<void>;
    if (draft) {
      if (body.type !== 'view_submission') return ack();
      const block = inputBlockIds(body.view.blocks)[0] ?? '';
      return ack({ response_action: 'errors', errors: { [block]: 'This form was opened by someone else.' } });
    }
    if (body.type !== 'view_submission' || !expired) return ack();
    if ('view' in expired) return ack({ response_action: 'update', view: expired.view() });
    const block = expired.block ?? inputBlockIds(body.view.blocks)[0] ?? '';
    await ack({ response_action: 'errors', errors: { [block]: expired.error } });
  };
}
