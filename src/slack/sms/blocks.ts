/** The lines an SMS posts in its booking card's thread, and what the review says the receiver will get (pure). */

import { SMS_EVENT_WORDS, SMS_LANGUAGES, type SmsEvent, type SmsLanguage } from '../../sms/templates.js';
import type { SmsRow } from '../../store/index.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';

const eventWords = (event: string) => SMS_EVENT_WORDS[event as SmsEvent] ?? event;
const languageWord = (language: string | undefined) =>
  language ? (SMS_LANGUAGES[language as SmsLanguage] ?? language) : '';

/** 08:00 (Manila), as the thread says when a held SMS goes. */
function manilaTime(at: Date): string {
  return new Intl.DateTimeFormat('en-PH', {
    timeZone: 'Asia/Manila',
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
  }).format(at);
}

/** The thread line of the row's `note`: held, waiting for the gateway, or what came of it. */
export function smsLine(row: SmsRow, gateway: string): string {
  const which = `the ${eventWords(row.event)} SMS`;
  const quoted = row.message ? ` “${escapeMrkdwn(row.message)}”` : '';
  const language = row.language ? ` (${languageWord(row.language)})` : '';
  // Said inside a sentence of ours: its own full stop left out.
  const detail = escapeMrkdwn(row.detail ?? '').replace(/\.+$/, '');
  if (row.note === 'held') {
    return `:zzz: Receiver's quiet hours: ${which} is held and goes at ${manilaTime(row.heldUntil ?? row.dueAt)} (Manila).`;
  }
  if (row.note === 'waiting') {
    return `:hourglass_flowing_sand: ${capital(which)} is still queued: ${detail}. The bot tries again by itself.`;
  }
  switch (row.outcome) {
    case 'sent':
      return `:speech_balloon: Texted the receiver ${which}${language} through ${gateway}:${quoted}`;
    case 'logged':
      return `:memo: Would have texted the receiver ${which}${language} (SMS_GATEWAY is ${gateway}: nothing was sent):${quoted}`;
    case 'refused':
      return `:warning: ${capital(which)} was not sent: ${detail}.`;
    case 'unknown':
      return `:warning: ${capital(which)} may or may not have reached the receiver (${detail}); it is not sent again, so they are never texted twice.`;
    case 'not_mobile':
      return `:no_mobile_phones: The receiver is not texted ${which}: their phone is ${detail}.`;
    case 'opted_out':
      return `:no_bell: The receiver is not texted ${which}: they asked not to be (\`/waybill sms start <phone>\` texts them again).`;
    default:
      return `${capital(which)}: ${escapeMrkdwn(row.outcome ?? 'not sent')}.`;
  }
}

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** What the review says: the SMS the receiver will get, and in which language; or that they get none. */
export function smsReviewText(
  plan: { events: readonly string[]; language: string },
  mobile: boolean,
): string {
  if (plan.events.length === 0) return ':speech_balloon: The receiver is not texted (SMS_EVENTS is off).';
  if (!mobile)
    return ':no_mobile_phones: The receiver is not texted: their phone is not a Philippine mobile number.';
  const events = plan.events.map(eventWords);
  const list = events.length > 1 ? `${events.slice(0, -1).join(', ')} and ${events.at(-1)}` : events[0];
  return `:speech_balloon: The receiver is texted in ${languageWord(plan.language)} at ${list}.`;
}

/** The receiver's record of texts to that phone: how many, how many failed; nothing before the first. */
export function smsFailuresText(texts: number, failed: number): string | undefined {
  if (texts === 0) return undefined;
  return `Texts to this phone so far: ${texts}, ${failed} failed.`;
}
