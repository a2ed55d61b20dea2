/** Mrkdwn escaping on every surface. */
import { afterEach, describe, expect, it } from 'vitest';
import { ids } from '../../fakes/ids.js';
import type { AppResponse } from '../../fakes/slack-requests.js';
import {
  startTestBot as startBot,
  type TestBot,
  type TestBotOptions,
  type View,
} from '../support/bot-harness.js';

/** The places typed here are attacks, not places: warned of on the review (escaped too) rather than refused. */
const startTestBot = (options: TestBotOptions = {}) =>
  startBot({ ...options, env: { WAYBILL_PLACE_CHECK: 'warn', ...options.env } });

/**
 * Everything typed (or sent back by the courier) that is echoed into mrkdwn is escaped: no typed
 * `<!channel>`, mention or link ever reaches Slack as markup. plain_text (labels, input values) is not
 * parsed by Slack, so only mrkdwn objects and message `text` are checked.
 */

const ATTACK = '<!channel> <@U123> <http://evil|click> & co';
const FORBIDDEN = ['<!channel>', '<!here>', '<@U123>', '<@U999>', '<http://evil', '<https://evil'];
const courierError = JSON.stringify({
  ResponseCode: '400',
  ResponseDetail: '<!channel> <https://evil.example|click>',
  remarks: '<@U999>',
});

let bot: TestBot;
const acks: AppResponse[] = [];

afterEach(async () => {
  acks.length = 0;
  await bot?.stop();
});

async function ack(response: Promise<AppResponse>): Promise<AppResponse> {
  const answered = await response;
  acks.push(answered);
  expect(answered.status).toBe(200);
  return answered;
}

/** mrkdwn texts of Block Kit JSON: `{ type: 'mrkdwn', text }` anywhere (section text/fields, context). */
function mrkdwnIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) {
    for (const item of value) mrkdwnIn(item, found);
  } else if (typeof value === 'object' && value !== null) {
    const node = value as Record<string, unknown>;
    if (node.type === 'mrkdwn' && typeof node.text === 'string') found.push(node.text);
    for (const child of Object.values(node)) mrkdwnIn(child, found);
  }
  return found;
}

/** Every mrkdwn text and message `text` Slack received: Web API calls, response_url posts, acks. */
function everythingShown(): string[] {
  const bodies = [
    ...bot.fake.calls.filter((c) => /^(views|chat)\./.test(c.method)).map((c) => c.body),
    ...bot.fake.responseUrlPosts.map((p) => p.body),
    ...acks.map((a) => a.body).filter((b) => typeof b === 'object' && b !== null),
  ];
  return bodies.flatMap((body) => [
    ...(typeof body.text === 'string' ? [body.text] : []),
    ...mrkdwnIn(body.view),
    ...mrkdwnIn(body.blocks),
  ]);
}

function expectAllEscaped(): void {
  const shown = everythingShown();
  for (const text of shown) {
    for (const raw of FORBIDDEN) expect(text, `unescaped ${raw} in: ${text}`).not.toContain(raw);
  }
  expect(shown.some((text) => text.includes('&lt;!channel&gt;'))).toBe(true);
}

function place(prefix: string, country = 'PH') {
  return {
    [`${prefix}.street`]: ATTACK,
    [`${prefix}.region`]: ATTACK,
    [`${prefix}.city`]: ATTACK,
    [`${prefix}.district`]: ATTACK,
    [`${prefix}.barangay`]: ATTACK,
    [`${prefix}.country`]: country,
  };
}

const quoteTyped = {
  paymentMethod: 'COD',
  codAmount: '1500',
  ...place('shipper'),
  'shipper.postal': '<@U123>',
  ...place('consignee'),
  'consignee.city': null, // keeps the `to_city="<!here>"` pre-fill
  ...place('returnTo'),
  'package.type': 'BOX',
  'package.weight': '2',
  merchantName: ATTACK,
};

async function openQuote(): Promise<View> {
  await ack(bot.command('/quote', `to_city="<!here>" merchant="${ATTACK}" <!channel> <@U123>=x`));
  return bot.openedView();
}

describe('the quote flow escapes what was typed', () => {
  it('in the form notices, the working view, the result view and the channel post', async () => {
    bot = await startTestBot();
    const form = await openQuote();
    const answer = await ack(bot.submit(form, { ...quoteTyped, 'consignee.city': '<!here>' }));
    expect(answer.body.response_action).toBe('update');
    await bot.idle();
    await bot.updatedView(form.id, (v) => JSON.stringify(v.blocks).includes('Total'));
    expect(bot.fake.callsTo('chat.postMessage')).toHaveLength(1);
    expectAllEscaped();
  });

  it('in the failure view, and in the private message when the modal was closed', async () => {
    bot = await startTestBot();
    const form = await openQuote();
    bot.sandbox.injectNext({ status: 400, body: courierError, contentType: 'application/json' });
    await ack(bot.submit(form, { ...quoteTyped, 'consignee.city': '<!here>' }));
    await bot.idle();
    const failed = await bot.updatedView(form.id, (v) => JSON.stringify(v.blocks).includes('No quote'));
    expect(JSON.stringify(failed.blocks)).toContain('&lt;@U999&gt;');

    const again = await openQuote();
    bot.sandbox.injectNext({ status: 400, body: courierError, contentType: 'application/json' });
    bot.fake.respond('views.update', { ok: false, error: 'not_found' });
    await ack(bot.submit(again, { ...quoteTyped, 'consignee.city': '<!here>' }));
    await bot.idle();
    await bot.fake.waitFor('chat.postEphemeral');
    expectAllEscaped();
  });
});

const shipmentTyped = {
  paymentMethod: 'COD',
  codAmount: '1500',
  itemDescription: ATTACK,
  handlingInstructions: ATTACK,
  'package.type': 'BOX',
  'package.weight': '4.5',
  operatorContactNumber: '+63 917 555 0100',
  reference1: ATTACK,
  reference2: ATTACK,
  reference3: ATTACK,
  reference4: ATTACK,
  reference5: ATTACK,
};

const receiverTyped = {
  'consignee.name': ATTACK,
  'consignee.phone': '0917 123 4567',
  ...place('consignee'),
  'consignee.postal': '<!here>',
};

const senderTyped = {
  shipperCode: ATTACK,
  'shipper.name': ATTACK,
  'shipper.phone': '0917 000 0202',
  ...place('shipper'),
  merchantName: ATTACK,
  warehouseName: ATTACK,
  'returnTo.name': ATTACK,
  'returnTo.phone': '0917 000 0303',
  ...place('returnTo'),
};

const parcelTyped = {
  'childWaybills.0.packageType': 'BOX',
  'childWaybills.0.itemDescription': ATTACK,
  'childWaybills.0.remarks': ATTACK,
  'childWaybills.0.length': '30',
  'childWaybills.0.width': '20',
  'childWaybills.0.height': '10',
  'childWaybills.0.weight': '1.5',
};

/** /book pre-filled with attack text, every step typed with it, one parcel: the review view. */
async function reviewOfAttack(): Promise<View> {
  await ack(
    bot.command('/book', `description="${ATTACK}" to_name="<!here>" merchant="${ATTACK}" <!channel>`),
  );
  let view = await bot.openedView();
  for (const typed of [shipmentTyped, receiverTyped, senderTyped]) {
    view = bot.ackedView(await ack(bot.submit(view, typed)), view.id);
  }
  await ack(bot.clickInView(view, ids.bookingAddParcel));
  const rows = await bot.updatedView(view.id, (v) => JSON.stringify(v.blocks).includes('Parcel 1: weight'));
  const review = bot.ackedView(await ack(bot.submit(rows, parcelTyped)), rows.id);
  expect(review.callback_id).toBe(ids.bookingReview);
  return review;
}

describe('the booking and update flows escape what was typed', () => {
  it('in every step, the review, the done view, both cards, /waybill show, the update and its thread', async () => {
    bot = await startTestBot({ env: { AUDIT_CHANNEL_ID: 'CAUDIT' } });
    const review = await reviewOfAttack();
    expect(JSON.stringify(review.blocks)).toContain('&lt;!channel&gt;');
    await ack(bot.submit(review));
    await bot.idle();
    await bot.updatedView(review.id, (v) => JSON.stringify(v.blocks).includes('Booked `WB000001`'));
    expect(bot.fake.callsTo('chat.postMessage').map((c) => c.body.channel)).toEqual(['CDISPATCH', 'CAUDIT']);

    await ack(bot.command('/waybill', 'show WB000001'));
    await ack(bot.command('/waybill', 'show <!channel>'));
    await ack(bot.command('/waybill', 'update <@U123>'));

    await ack(bot.command('/waybill', 'update WB000001'));
    const form = await bot.openedView();
    await ack(
      bot.submit(form, {
        'consignee.name': `${ATTACK} (changed)`,
        'consignee.street': '<!here> 2',
        handlingInstructions: '<@U123> keep upright',
        reference1: '<http://evil|new>',
      }),
    );
    await bot.idle();
    await bot.updatedView(form.id, (v) => JSON.stringify(v.blocks).includes('Updated `WB000001`'));
    expect(bot.fake.callsTo('chat.update')).toHaveLength(2);
    expect(bot.fake.callsTo('chat.postMessage').filter((c) => c.body.thread_ts)).toHaveLength(2);
    expectAllEscaped();
  });

  it('in the booking and update failure views', async () => {
    bot = await startTestBot({ env: { AUDIT_CHANNEL_ID: 'CAUDIT' } });
    const review = await reviewOfAttack();
    bot.sandbox.injectNext({ status: 400, body: courierError, contentType: 'application/json' });
    await ack(bot.submit(review));
    await bot.idle();
    const failed = await bot.updatedView(review.id, (v) => JSON.stringify(v.blocks).includes('Not booked'));
    expect(JSON.stringify(failed.blocks)).toContain('&lt;@U999&gt;');

    // Booked on "Try again"; then an update the courier refuses.
    await ack(bot.clickInView(failed, ids.bookingRetry));
    await bot.idle();
    await bot.updatedView(review.id, (v) => JSON.stringify(v.blocks).includes('Booked `WB000001`'));
    await ack(bot.command('/waybill', 'update WB000001'));
    const form = await bot.openedView();
    bot.sandbox.injectNext({ status: 400, body: courierError, contentType: 'application/json' });
    await ack(bot.submit(form, { 'consignee.name': '<!here> again' }));
    await bot.idle();
    await bot.updatedView(form.id, (v) => JSON.stringify(v.blocks).includes('Not updated'));
    expectAllEscaped();
  });
});

describe('messages that stand in for a closed modal escape their `text` as well as their blocks', () => {
  it('a booking the courier refused, shown only to the dispatcher, or by DM where that is refused too', async () => {
    bot = await startTestBot();
    const review = await reviewOfAttack();
    bot.sandbox.injectNext({ status: 400, body: courierError, contentType: 'application/json' });
    bot.fake.respond('views.update', { ok: false, error: 'not_found' });
    await ack(bot.submit(review));
    await bot.idle();
    const notice = await bot.fake.waitFor('chat.postEphemeral');
    expect(String(notice.body.text)).toContain('&lt;https://evil.example|click&gt;');

    const again = await reviewOfAttack();
    bot.sandbox.injectNext({ status: 400, body: courierError, contentType: 'application/json' });
    bot.fake.respond('chat.postEphemeral', { ok: false, error: 'channel_not_found' });
    await ack(bot.submit(again));
    await bot.idle();
    const dm = await bot.fake.waitFor('chat.postMessage', (c) => String(c.body.channel).startsWith('D'));
    expect(String(dm.body.text)).toContain('&lt;!channel&gt;');
    expectAllEscaped();
  });

  it('an update the courier refused, shown only to the dispatcher', async () => {
    bot = await startTestBot();
    await ack(bot.submit(await reviewOfAttack()));
    await bot.idle();
    await ack(bot.command('/waybill', 'update WB000001'));
    const form = await bot.openedView();
    bot.sandbox.injectNext({ status: 400, body: courierError, contentType: 'application/json' });
    bot.fake.respond('views.update', { ok: false, error: 'not_found' });
    await ack(bot.submit(form, { 'consignee.name': '<!here> again' }));
    await bot.idle();
    const notice = await bot.fake.waitFor('chat.postEphemeral');
    expect(String(notice.body.text)).toContain('&lt;https://evil.example|click&gt;');
    expectAllEscaped();
  });

  it('a booking card and a quote posted through the response_url or by DM where the bot cannot post', async () => {
    bot = await startTestBot();
    bot.fake.respond('chat.postMessage', { ok: false, error: 'not_in_channel' }, { times: 1 });
    const review = await reviewOfAttack();
    await ack(bot.submit(review));
    await bot.idle();
    const card = await bot.fake.waitForResponseUrlPost();
    expect(String(card.body.text)).toContain('&lt;!channel&gt;');

    bot.fake.respond('chat.postMessage', { ok: false, error: 'not_in_channel' }, { times: 1 });
    bot.fake.respond('response_url', { status: 404, body: 'expired_url' }, { times: 1 });
    bot.fake.respond('chat.postEphemeral', { ok: false, error: 'not_in_channel' }, { times: 1 });
    const form = await openQuote();
    await ack(bot.submit(form, { ...quoteTyped, 'consignee.city': '<!here>' }));
    await bot.idle();
    const dm = await bot.fake.waitFor('chat.postMessage', (c) => String(c.body.channel).startsWith('D'));
    expect(String(dm.body.text)).toContain('&lt;!here&gt;');
    expectAllEscaped();
  });
});

describe('Book from this message and Rebook escape what was typed', () => {
  it('in the reading shown at the top of the first step, and in a rebooked booking and its review', async () => {
    bot = await startTestBot();
    // What a user typed arrives escaped (`&lt;`), real mentions and links as Slack markup.
    await ack(
      bot.messageShortcut(
        [
          'Name: &lt;!channel&gt; &lt;@U123&gt; &amp; co',
          'Address: 45 &lt;http://evil|click&gt; St, Brgy. &lt;!here&gt;',
          'City: <http://evil|click> <!channel>',
          '0918 555 0202 / 0917 000 1111, COD 1,500 <@U999>',
        ].join('\n'),
      ),
    );
    const first = await bot.openedView();
    expect(JSON.stringify(first.blocks)).toContain('Read from the message');
    expectAllEscaped();

    const review = await reviewOfAttack();
    await ack(bot.submit(review));
    await bot.idle();
    await bot.updatedView(review.id, (v) => JSON.stringify(v.blocks).includes('Booked `WB000001`'));
    await ack(bot.clickInMessage(ids.bookRebook, 'WB000001'));
    await ack(bot.command('/waybill', 'rebook <!channel>'));
    await ack(bot.command('/waybill', 'rebook WB000001'));
    let view = await bot.openedView();
    for (let step = 0; step < 4; step += 1) view = bot.ackedView(await ack(bot.submit(view)), view.id);
    expect(view.callback_id).toBe(ids.bookingReview);
    expect(JSON.stringify(view.blocks)).toContain('&lt;!channel&gt;');
    expectAllEscaped();
  });
});
