/**
 * Every feature of the bot, each declared in its folder's index.ts: bot.ts registers them in this
 * order, and /waybill help lists their verbs in it.
 */
import { feature as addresses } from './addresses/index.js';
import { feature as attention } from './attention/index.js';
import { feature as book } from './book/index.js';
import { feature as booking } from './booking/index.js';
import { feature as bulk } from './bulk/index.js';
import { feature as digest } from './digest/index.js';
import type { Feature } from './feature.js';
import { feature as find } from './find/index.js';
import { feature as home } from './home/index.js';
import { feature as labels } from './labels/index.js';
import { feature as owners } from './owners/index.js';
import { feature as places } from './places/index.js';
import { feature as quote } from './quote/index.js';
import { feature as recognise } from './recognise/index.js';
import { feature as reminders } from './reminders/index.js';
import { feature as remittance } from './remittance/index.js';
import { feature as report } from './report/index.js';
import { feature as sms } from './sms/index.js';
import { feature as status } from './status/index.js';
import { feature as steps } from './steps/index.js';
import { feature as update } from './update/index.js';

export const features: readonly Feature[] = [
  quote,
  book,
  update,
  find,
  addresses,
  home,
  status,
  owners,
  labels,
  digest,
  attention,
  remittance,
  recognise,
  report,
  reminders,
  sms,
  places,
  bulk,
  steps,
  booking,
];
