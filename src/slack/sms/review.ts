/** On the booking review: which SMS the receiver will get and in which language, and how texts to them fared. */

import type { KnownBlock } from '@slack/types';
import { teamScope } from '../../operations/access.js';
import { receiverTexts, smsPlan } from '../../operations/sms.js';
import { readMobile } from '../../sms/mobile.js';
import type { Store } from '../../store/index.js';
import type { Booking } from '../../waybill/schemas.js';
import type { Core } from '../core.js';
import { context } from '../kit/blocks.js';
import { smsFailuresText, smsReviewText } from './blocks.js';

/** The review's SMS line, for a booking made in `channelId`. Counts and settings only: nothing typed. */
export async function smsReviewBlocks(
  deps: { store: Pick<Store, 'sms'> } & { bot: Pick<Core['bot'], 'sms' | 'access'> },
  booking: Pick<Booking, 'consignee'>,
  channelId: string,
): Promise<KnownBlock[]> {
  const { consignee } = booking;
  const mobile = readMobile(consignee.phone, consignee.country).ok;
  const texts = await receiverTexts(deps.store, consignee, teamScope(deps.bot.access));
  const failures = texts && smsFailuresText(texts.texts, texts.failed);
  const plan = smsPlan(deps.bot.sms, channelId);
  return [context([smsReviewText(plan, mobile), ...(failures ? [failures] : [])].join(' · '))];
}
