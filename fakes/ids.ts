/** Every feature's callback and action ids in one object, for the tests and the bench that send Slack requests naming them. */
import { ids as addresses } from '../src/slack/addresses/ids.js';
import { ids as attention } from '../src/slack/attention/ids.js';
import { ids as book } from '../src/slack/book/ids.js';
import { ids as booking } from '../src/slack/booking/ids.js';
import { ids as bulk } from '../src/slack/bulk/ids.js';
import { ids as find } from '../src/slack/find/ids.js';
import { ids as home } from '../src/slack/home/ids.js';
import { ids as labels } from '../src/slack/labels/ids.js';
import { ids as quote } from '../src/slack/quote/ids.js';
import { ids as recognise } from '../src/slack/recognise/ids.js';
import { ids as remittance } from '../src/slack/remittance/ids.js';
import { ids as status } from '../src/slack/status/ids.js';
import { ids as steps } from '../src/slack/steps/ids.js';
import { ids as update } from '../src/slack/update/ids.js';

export const ids = {
  ...addresses,
  ...attention,
  ...book,
  ...booking,
  ...bulk,
  ...find,
  ...home,
  ...labels,
  ...quote,
  ...recognise,
  ...remittance,
  ...status,
  ...steps,
  ...update,
} as const;
