/** Telling dispatchers that a stopped bot (or replica) abandoned their courier call: its outcome is unknown. */
import type { ActionsBlock } from '@slack/types';
import type { Logger } from 'pino';
import type { Attempt } from '../../store/index.js';
import type { WaybillEnv } from '../../waybill/settings.js';
import { context, notice, outcomeModal, section } from '../kit/blocks.js';
import { showInModal } from '../kit/modal.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import { postToUser, type SlackClient } from '../runtime/delivery.js';
import { resolveActions } from './attempts.js';
import { ids } from './ids.js';

function abandonedText(attempt: Attempt): string {
  const tn = escapeMrkdwn(attempt.trackingNumber ?? '');
  return attempt.operation === 'update'
    ? `Update outcome unknown: the bot stopped while your update of \`${tn}\` was being sent to the courier, so the courier may or may not have applied it. Check with the courier; \`/waybill update ${tn}\` shows the last record the bot knows and sends a new update.`
    : `Booking outcome unknown: the bot stopped while \`${tn}\` was being booked, so the courier may or may not have created it. Check with the courier before booking it again.`;
}

/** What the modal a call was made from shows once that call is known to be abandoned. */
function abandonedView(attempt: Attempt, env: WaybillEnv) {
  return outcomeModal({
    callbackId: attempt.operation === 'update' ? ids.updateOutcome : ids.bookingOutcome,
    title: 'Outcome unknown',
    metadata: '',
    env,
    blocks: [
      section(`:question: *${abandonedText(attempt)}*`),
      context('The bot will not send it again by itself.'),
      ...resolvable(attempt),
    ],
  });
}

/** Resolve for an abandoned booking (an update's is settled by the next update). */
function resolvable(attempt: Attempt): ActionsBlock[] {
  return attempt.operation === 'book' ? [resolveActions(attempt.key)] : [];
}

/**
 * Each dispatcher whose call a stopped bot (or replica) abandoned is told that its outcome is
 * unknown: in the modal it was made from if that is still open, else privately in the conversation.
 */
export async function tellAbandoned(
  client: SlackClient,
  attempts: Attempt[],
  { logger, env }: { logger: Logger; env: WaybillEnv },
): Promise<void> {
  for (const attempt of attempts) {
    if (!attempt.userId) continue;
    const where = { userId: attempt.userId, channelId: attempt.channelId ?? '' };
    const { viewId } = attempt;
    try {
      if (viewId && (await showInModal(client, viewId, abandonedView(attempt, env)))) continue;
      const told = notice(':question:', abandonedText(attempt));
      await postToUser(client, where, { ...told, blocks: [...told.blocks, ...resolvable(attempt)] });
    } catch (err) {
      logger.warn(
        { err, trackingNumber: attempt.trackingNumber },
        'the dispatcher of an abandoned call could not be told',
      );
    }
  }
}
