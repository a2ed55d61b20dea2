/** `/quote` end to end: signed Slack requests into Bolt, the fake Slack Web API, the sandbox. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ids } from '../../fakes/ids.js';
import { postToApp } from '../../fakes/post-to-app.js';
import { quoteCommandText, quoteTyped } from '../../fakes/quote-values.js';
import { nowSeconds, slashCommandBody } from '../../fakes/slack-requests.js';
import { secrets, startTestBot, type TestBot, type View } from '../support/bot-harness.js';

const typed = quoteTyped;

// biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON
const textOf = (blocks: any[]): string => JSON.stringify(blocks);

let bot: TestBot;

beforeEach(async () => {
  bot = await startTestBot();
});

afterEach(async () => {
  await bot.stop();
  const leaked = bot.logs.filter((line) => Object.values(secrets).some((secret) => line.includes(secret)));
  expect(leaked).toEqual([]);
});

async function openQuoteForm(text = quoteCommandText): Promise<View> {
  const response = await bot.command('/quote', text);
  expect(response.status).toBe(200);
  return bot.openedView();
}

describe('/quote', () => {
  it('opens the form at once, pre-filled from the command text and sensible defaults', async () => {
    const view = await openQuoteForm();
    const open = bot.fake.callsTo('views.open')[0];
    expect(open?.body.trigger_id).toBe('13345224609.738474920.8088930838d88f008e0');
    expect(view.callback_id).toBe(ids.quoteForm);
    expect(view.blocks.length).toBeLessThanOrEqual(100);
    const block = (id: string) => view.blocks.find((b) => b.block_id === id);
    expect(block('package.weight').element.initial_value).toBe('2.5');
    expect(block('consignee.city').element.initial_option?.value).toBe('Cebu City');
    expect(block('pickupDate').element.initial_date).toBe('2026-11-23');
    expect(block('expectedDeliveryDate').element.initial_date).toBe('2026-11-24');
    expect(block('serviceType').element.initial_option.value).toBe('DOOR_TO_DOOR');
    // Required exactly where the schema requires, so Slack never labels a required field "(optional)".
    expect(block('package.weight').optional).toBe(false);
    expect(block('consignee.country').optional).toBe(false);
    expect(block('codAmount').optional).toBe(true);
    expect(textOf(view.blocks)).toContain('Sandbox');
  });

  it('says which words of the command text it could not use', async () => {
    const view = await openQuoteForm('weight=2 colour=red oops');
    expect(textOf(view.blocks)).toContain('Ignored \\"colour\\": not a known key');
    expect(textOf(view.blocks)).toContain('Ignored \\"oops\\"');
  });

  it('takes a value in curly quotes, as phones and Slack on a Mac type them', async () => {
    const view = await openQuoteForm('to_city=“Lapu-Lapu City” weight=3');
    const block = (id: string) => view.blocks.find((b) => b.block_id === id);
    expect(block('consignee.city').element.initial_option?.value).toBe('Lapu-Lapu City');
    expect(block('package.weight').element.initial_value).toBe('3');
  });

  it('explains itself with /quote help, without opening anything', async () => {
    const response = await bot.command('/quote', 'help');
    expect(response.body).toMatchObject({ response_type: 'ephemeral' });
    expect(response.body.text).toContain('`to_postal`');
    expect(response.body.text).toContain('`weight`');
    expect(bot.fake.callsTo('views.open')).toHaveLength(0);
  });

  it('prices a valid form: "Getting a quote…" at once, then the price in the modal and the channel', async () => {
    const view = await openQuoteForm();
    const ack = await bot.submit(view, typed);
    expect(ack.body.response_action).toBe('update');
    expect(textOf(ack.body.view.blocks)).toContain('Getting a quote');
    await bot.idle();

    expect(bot.sandbox.received).toHaveLength(1);
    expect(bot.sandbox.received[0]?.body).toStrictEqual({
      ServiceType: 'DOOR_TO_DOOR',
      pickupDate: '2026-11-23',
      expectedDeliveryDate: '2026-11-24',
      paymentMethod: 'COD',
      codAmount: '1500.00',
      declaredValue: '2000.00',
      quantity: '1',
      shipperCountry: 'PH',
      shipperAddress: '12 Jupiter St',
      shipperAddress1: '',
      shipperAddress2: 'City of Makati',
      shipperAddress3: '',
      shipperAddress4: '',
      shipperPostal: '1209',
      shipperLongitude: '',
      shipperLatitude: '',
      consigneeCountry: 'PH',
      consigneeAddress: '88 Rizal Ave',
      consigneeAddress1: '',
      consigneeAddress2: 'City of Cebu',
      consigneeAddress3: '',
      consigneeAddress4: '',
      consigneePostal: '',
      consigneeLongitude: '',
      consigneeLatitude: '',
      returnAddress: '12 Jupiter St',
      returnCountry: 'PH',
      returnAddress1: '',
      returnAddress2: 'City of Makati',
      returnAddress3: '',
      returnAddress4: '',
      returnLongitude: '',
      returnLatitude: '',
      merchantName: '',
      packageType: 'BOX',
      packageLength: '30',
      packageWidth: '20',
      packageHeight: '10',
      packageWeight: '2.5',
      Packagevolume: '6000',
    });

    // Sandbox formula: 3 kg → 100 + 120, COD fee 30, valuation 20 → 270.00; VAT 32.40; total 302.40.
    const result = await bot.updatedView(view.id);
    const shown = textOf(result.blocks);
    expect(shown).toContain('Total: PHP 302.40');
    expect(shown).toContain('PHP 270.00');
    expect(shown).toContain('PHP 32.40');
    expect(shown).toContain('Posted in <#CDISPATCH>');

    const posted = bot.fake.callsTo('chat.postMessage');
    expect(posted).toHaveLength(1);
    expect(posted[0]?.body.channel).toBe('CDISPATCH');
    const message = textOf(posted[0]?.body.blocks as unknown[]);
    expect(message).toContain('<@UDISPATCH>');
    expect(message).toContain('PHP 302.40');
    expect(message).toContain('City of Makati, 1209, PH → City of Cebu, PH');
    expect(message).toContain('Sandbox');
    expect(message).toContain(ids.bookFromQuote);
    expect((await bot.deps.store.audit.list({ operation: 'quote' }))[0]).toMatchObject({
      outcome: 'ok',
      userId: 'UDISPATCH',
    });
  });

  it('shows bad input inline under each input, naming the field, and calls nobody', async () => {
    const view = await openQuoteForm();
    const ack = await bot.submit(view, {
      ...typed,
      codAmount: '',
      'consignee.country': 'Philippines',
      'shipper.latitude': '95',
      'package.weight': '0',
      expectedDeliveryDate: '2026-11-20',
    });
    expect(ack.body).toEqual({
      response_action: 'errors',
      errors: {
        codAmount: 'COD amount must be more than 0 when the payment method is Cash on delivery',
        'consignee.country': 'Receiver country must be a two-letter country code, e.g. PH',
        'shipper.latitude': 'Sender latitude must be a number between -90 and 90',
        'package.weight': 'Package weight must be a number more than 0 and at most 100000 kg',
        expectedDeliveryDate: 'Expected delivery must not be before pickup',
        'shipper.longitude': 'Sender longitude is required when the latitude is given',
      },
    });
    expect(bot.sandbox.received).toHaveLength(0);
  });

  it('says "required" for an input filled with only spaces', async () => {
    const view = await openQuoteForm();
    const ack = await bot.submit(view, { ...typed, 'consignee.street': '   ' });
    expect(ack.body.errors).toEqual({ 'consignee.street': 'Receiver address is required' });
  });

  it('on an upstream failure shows the reason, and Try again sends the same input once', async () => {
    bot.sandbox.setFaults({ status: 500 });
    const view = await openQuoteForm();
    await bot.submit(view, typed);
    await bot.idle();
    expect(bot.sandbox.received).toHaveLength(3); // a quotation is retried twice on 5xx
    const failed = await bot.updatedView(view.id);
    expect(textOf(failed.blocks)).toContain('No quote this time');
    expect(textOf(failed.blocks)).toContain('HTTP error 500');
    expect(bot.fake.callsTo('chat.postMessage')).toHaveLength(0);
    expect((await bot.deps.store.audit.list({ operation: 'quote' }))[0]).toMatchObject({ outcome: 'failed' });

    bot.sandbox.setFaults(undefined);
    await bot.clickInView(failed, ids.quoteRetry);
    // A second click on the same, now stale, button is refused by Slack's hash check: no second call.
    await bot.clickInView(failed, ids.quoteRetry);
    await bot.idle();
    expect(bot.sandbox.received).toHaveLength(4);
    const priced = await bot.updatedView(view.id, (v) => textOf(v.blocks).includes('Total'));
    expect(textOf(priced.blocks)).toContain('Total: PHP 302.40');
  });

  it('goes back to the form with everything typed kept', async () => {
    bot.sandbox.setFaults({ status: 502, body: '<html><body>Bad gateway</body></html>' });
    const view = await openQuoteForm();
    await bot.submit(view, typed);
    await bot.idle();
    const failed = await bot.updatedView(view.id);
    await bot.clickInView(failed, ids.quoteBack);
    const form = await bot.updatedView(view.id, (v) => v.callback_id === ids.quoteForm);
    const block = (id: string) => form.blocks.find((b) => b.block_id === id);
    expect(block('consignee.street').element.initial_value).toBe('88 Rizal Ave');
    expect(block('codAmount').element.initial_value).toBe('1500');
    expect(block('package.type').element.initial_option.value).toBe('BOX');
    expect(block('package.weight').element.initial_value).toBe('2.5');
  });

  it('still delivers the price when the modal was closed before the courier answered', async () => {
    const view = await openQuoteForm();
    bot.fake.respond('views.update', { ok: false, error: 'not_found' });
    await bot.submit(view, typed);
    await bot.close(view);
    await bot.idle();
    expect(bot.fake.callsTo('chat.postMessage')).toHaveLength(1);
  });

  it('sends a failure privately, with a way back to the form, when the modal was closed', async () => {
    bot.sandbox.setFaults({
      status: 400,
      body: '{"ResponseCode":"400","ResponseDetail":"Bad","remarks":"no route"}',
      contentType: 'application/json',
    });
    const view = await openQuoteForm();
    bot.fake.respond('views.update', { ok: false, error: 'not_found' });
    await bot.submit(view, typed);
    await bot.idle();
    const ephemeral = bot.fake.callsTo('chat.postEphemeral');
    expect(ephemeral).toHaveLength(1);
    expect(ephemeral[0]?.body).toMatchObject({ channel: 'CDISPATCH', user: 'UDISPATCH' });
    expect(textOf(ephemeral[0]?.body.blocks as unknown[])).toContain('no route');

    const draftId = JSON.parse(view.private_metadata ?? '{}').draftId;
    await bot.clickInMessage(ids.quoteReopen, draftId);
    const reopened = await bot.fake.waitFor('views.open', undefined, { count: 2 });
    const blocks = (reopened.body.view as View).blocks;
    expect(blocks.find((b) => b.block_id === 'consignee.street').element.initial_value).toBe('88 Rizal Ave');
  });

  it('posts through the response_url where the bot cannot post, and says so', async () => {
    bot.fake.respond('chat.postMessage', { ok: false, error: 'channel_not_found' });
    const view = await openQuoteForm();
    await bot.submit(view, typed);
    await bot.idle();
    const post = await bot.fake.waitForResponseUrlPost();
    expect(post.body).toMatchObject({ response_type: 'in_channel' });
    const result = await bot.updatedView(view.id);
    expect(textOf(result.blocks)).toContain('Posted in the conversation where you typed the command');
  });

  it('falls back to a DM when neither the channel nor an ephemeral message works', async () => {
    bot.fake.respond('chat.postMessage', { ok: false, error: 'not_in_channel' }, { times: 1 });
    bot.fake.respond('response_url', { status: 404, body: 'expired_url' });
    bot.fake.respond('chat.postEphemeral', { ok: false, error: 'channel_not_found' });
    const view = await openQuoteForm();
    await bot.submit(view, typed);
    await bot.idle();
    const dm = await bot.fake.waitFor('conversations.open');
    expect(dm.body.users).toBe('UDISPATCH');
    expect(bot.fake.callsTo('chat.postMessage').at(-1)?.body.channel).toMatch(/^D/);
  });

  it('escapes what was typed, so nobody can ping the channel or forge a link', async () => {
    const view = await openQuoteForm('');
    const ack = await bot.submit(view, {
      ...typed,
      'package.weight': '1',
      'consignee.city': 'Cebu City',
      // Abroad, so the Philippine place list does not refuse it before it is posted.
      'shipper.city': '<!channel> <http://evil|click> & co',
      'shipper.country': 'SG',
    });
    expect(ack.body.response_action).toBe('update');
    await bot.idle();
    const posted = bot.fake.callsTo('chat.postMessage')[0];
    const message = `${posted?.body.text} ${textOf(posted?.body.blocks as unknown[])}`;
    expect(message).not.toContain('<!channel>');
    expect(message).not.toContain('<http://evil');
    expect(message).toContain('&lt;!channel&gt; &lt;http://evil|click&gt; &amp; co');
  });

  it('tells the user to try again when Slack refuses an expired trigger_id', async () => {
    bot.fake.respond('views.open', { ok: false, error: 'expired_trigger_id' });
    await bot.command('/quote');
    const post = await bot.fake.waitForResponseUrlPost();
    expect(post.body).toMatchObject({ response_type: 'ephemeral' });
    expect(String(post.body.text)).toContain('type `/quote` again');
  });

  it('says in plain words why, when Slack will not open the form for any other reason', async () => {
    bot.fake.respond('views.open', { ok: false, error: 'invalid_arguments' }, { times: 1 });
    await bot.command('/quote', 'weight=2');
    const post = await bot.fake.waitForResponseUrlPost();
    expect(post.body).toMatchObject({ response_type: 'ephemeral' });
    expect(String(post.body.text)).toContain('Slack refused to show the form');
    expect(String(post.body.text)).toContain('Nothing was sent to the courier. Please type `/quote` again');
  });
});

describe('command text the form cannot take', () => {
  it('answers keys named like Object.prototype members as unknown keys, and opens the form', async () => {
    const view = await openQuoteForm('constructor=1 __proto__=2 toString=x hasOwnProperty=y weight=2');
    for (const key of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      expect(textOf(view.blocks)).toContain(`Ignored \\"${key}\\": not a known key`);
    }
    expect(view.blocks.find((b) => b.block_id === 'package.weight').element.initial_value).toBe('2');
    await bot.idle();
    expect(bot.logs.filter((line) => JSON.parse(line).level >= 50)).toEqual([]);
  });

  it('leaves out a value its input cannot hold, naming the field, so Slack still opens the form', async () => {
    const view = await openQuoteForm('parcels=2.5 weight=heavy pickup=2026-02-30 service=rocket height=12');
    const block = (id: string) => view.blocks.find((b) => b.block_id === id);
    const shown = textOf(view.blocks);
    expect(shown).toContain('Ignored \\"parcels=2.5\\": Number of parcels must be a whole number');
    expect(shown).toContain('Ignored \\"weight=heavy\\": Weight (kg) must be a number');
    expect(shown).toContain('Ignored \\"pickup=2026-02-30\\": Pickup date must be a date, YYYY-MM-DD');
    expect(shown).toContain('Ignored \\"service=rocket\\": Service type is not one of the choices');
    // The defaults stand where the typed value was refused; the value that fits is used.
    expect(block('quantity').element.initial_value).toBe('1');
    expect(block('pickupDate').element.initial_date).toBe('2026-11-23');
    expect(block('package.height').element.initial_value).toBe('12');
  });
});

describe('requests that are not from Slack', () => {
  it.each([
    ['unsigned', { unsigned: true }],
    ['wrongly signed', { badSignature: true }],
    ['six minutes old', { timestamp: nowSeconds() - 360 }],
  ])('refuses a %s request with 401', async (_name, options) => {
    const response = await postToApp(
      bot.url,
      secrets.signingSecret,
      slashCommandBody({ command: '/quote' }),
      options,
    );
    expect(response.status).toBe(401);
    expect(bot.fake.callsTo('views.open')).toHaveLength(0);
  });

  it('answers GET /healthz with 200', async () => {
    const response = await fetch(bot.url.replace('/slack/events', '/healthz'));
    expect(response.status).toBe(200);
  });
});
