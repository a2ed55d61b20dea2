/**
 * The address book end to end: parties saved by bookings (and not by refused ones), the type-ahead on /quote
 * and /book through `block_suggestion` and `block_actions` (options, limits, timing with 5,000 parties,
 * filling), Book from this message with a saved party, /waybill addresses search, edit (a barangay that no
 * longer fits its city refused on its input) and delete, access.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ids } from '../../fakes/ids.js';
import { postToApp } from '../../fakes/post-to-app.js';
import { quoteTyped } from '../../fakes/quote-values.js';
import { blockSuggestionPayload, interactiveBody } from '../../fakes/slack-requests.js';
import type { SavedParty } from '../../src/store/index.js';
import type { Party } from '../../src/waybill/schemas.js';
import { maria, party } from '../fixtures/parties.js';
import {
  bookFromSenderStep,
  bookThroughModal,
  fillToReview,
  next,
  receiver,
  shipment,
} from '../support/booking-flow.js';
import {
  elementOf,
  mrkdwnOf,
  secrets,
  startTestBot,
  type TestBot,
  type View,
} from '../support/bot-harness.js';

// biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON
const textOf = (blocks: any): string => JSON.stringify(blocks);

let bot: TestBot;

afterEach(async () => {
  await bot?.stop();
});

async function seed(...parties: Party[]): Promise<SavedParty[]> {
  return bot.deps.store.parties.save(parties);
}

/** The address book's audit entries, newest first: what was done, by whom. */
async function addressBookAudit(): Promise<[string, string][]> {
  const audit = await bot.deps.store.audit.list({ operation: 'addresses' });
  return audit.map((entry) => [entry.outcome, entry.userId]);
}

/** The block id of the type-ahead that fills `party` on a view (it carries the view's `#rev`). */
function pickerOf(view: View, party: string): string {
  const block = view.blocks.find(
    (b) => typeof b.block_id === 'string' && b.block_id.split('#')[0] === `party_picker:${party}`,
  );
  expect(block, `a type-ahead for ${party}`).toBeDefined();
  return block.block_id;
}

type Options = {
  options: { text: { type: string; text: string }; value: string; description?: { text: string } }[];
};

/** The options Slack would show for what was typed into a view's type-ahead. */
async function optionsFor(view: View, party: string, actionId: string, typed: string): Promise<Options> {
  const response = await bot.suggest(view, pickerOf(view, party), actionId, typed);
  expect(response.status).toBe(200);
  return response.body as Options;
}

/**
 * Chooses a saved party in the view's type-ahead for `party` (with `typed` in the inputs on screen),
 * and waits for the view shown again with that party's `field` filled in.
 */
async function choose(
  view: View,
  party: string,
  actionId: string,
  saved: SavedParty | undefined,
  { typed = {}, field = 'name' }: { typed?: Record<string, string>; field?: keyof SavedParty } = {},
): Promise<View> {
  await bot.pickInView(view, pickerOf(view, party), actionId, saved?.id ?? '', saved?.name ?? '', typed);
  return bot.updatedView(view.id, (v) => {
    // A place input (external_select) holds its value as its initial option.
    const element = elementOf(v, `${party}.${field}`);
    return (element?.initial_value ?? element?.initial_option?.value) === saved?.[field];
  });
}

describe('parties saved by bookings', () => {
  it('saves the receiver, sender and return party once the courier accepted the booking; booked again, the same entries', async () => {
    bot = await startTestBot();
    await bookThroughModal(bot);
    const saved = await bot.deps.store.parties.find('');
    expect(saved.map((p) => [p.name, p.phone, p.city, p.uses]).sort()).toEqual(
      [
        ['Acme Pasig Warehouse', '0917 000 0202', 'City of Pasig', 1],
        ['Acme Returns Desk', '0917 000 0303', 'Quezon City', 1],
        ['Maria Santos', '0917 123 4567', 'City of Cebu', 1],
      ].sort(),
    );
    const sender = saved.find((p) => p.name === 'Acme Pasig Warehouse');
    expect(sender).toMatchObject({
      street: 'Lot 4 Sample Industrial Compound, 25 E. Rodriguez Jr. Avenue',
      barangay: 'Bagong Ilog',
      postal: '1600',
      country: 'PH',
      latitude: 14.5764,
      longitude: 121.0851,
      email: 'warehouse@acme.example.ph',
    });
    expect(saved.find((p) => p.name === 'Maria Santos')).toMatchObject({ postal: '6000', country: 'PH' });

    // The same booking again (a new number): the same three entries, each used twice.
    await bot.command('/book');
    const first = await bot.openedView();
    const second = await next(bot, first, shipment);
    const third = await next(bot, second, { ...receiver, 'consignee.name': 'maria  SANTOS' });
    await bookFromSenderStep(bot, third, { id: 'pasig-warehouse', shows: 'Acme Pasig Warehouse' });
    const again = await bot.deps.store.parties.find('');
    expect(again).toHaveLength(3);
    expect(again.map((p) => p.uses)).toEqual([2, 2, 2]);
    expect(again.find((p) => p.phone === '0917 123 4567')?.name).toBe('maria  SANTOS');
  });

  it('saves nothing when the courier refuses the booking', async () => {
    bot = await startTestBot();
    const review = await fillToReview(bot);
    bot.sandbox.injectNext({
      status: 400,
      body: JSON.stringify({ ResponseCode: '400', ResponseDetail: 'Invalid request', remarks: 'Not served' }),
    });
    await bot.submit(review);
    await bot.idle();
    await bot.updatedView(review.id, (v) => textOf(v.blocks).includes('Not served'));
    expect(await bot.deps.store.parties.find('')).toEqual([]);
  });
});

describe('the type-ahead on /book', () => {
  it('finds saved parties by name, phone or city as the dispatcher types, and fills the step from the one chosen; the fields stay editable', async () => {
    bot = await startTestBot();
    const [saved] = await seed(
      maria,
      party('Mario Reyes', '0999 888 7777', 'Manila'),
      party('Ana Cruz', '0917 222 3333', 'Cebu City'),
    );
    await bot.command('/book');
    const first = await bot.openedView();
    const step = await next(bot, first, shipment);
    expect(step.blocks.findIndex((b) => b.block_id?.startsWith('party_picker:consignee'))).toBeLessThan(
      step.blocks.findIndex((b) => b.block_id?.startsWith('consignee.name')),
    );
    expect(elementOf(step, pickerOf(step, 'consignee').split('#')[0] ?? '')).toMatchObject({
      type: 'external_select',
      action_id: ids.bookingParty,
      min_query_length: 1,
    });

    const byName = await optionsFor(step, 'consignee', ids.bookingParty, 'mar');
    expect(byName.options.map((o) => o.text.text).sort()).toEqual(
      ['Maria Santos · 0918 555 0202', 'Mario Reyes · 0999 888 7777'].sort(),
    );
    expect(byName.options.find((o) => o.value === saved?.id)?.description?.text).toBe(
      '45 Rizal St, Brgy. 667, Ermita, Manila, Metro Manila, 1000, PH',
    );
    expect(
      (await optionsFor(step, 'consignee', ids.bookingParty, '0918 555')).options.map((o) => o.value),
    ).toEqual([saved?.id]);
    expect(
      (await optionsFor(step, 'consignee', ids.bookingParty, 'cebu')).options.map((o) => o.text.text),
    ).toEqual(['Ana Cruz · 0917 222 3333']);
    expect((await optionsFor(step, 'consignee', ids.bookingParty, 'nobody')).options).toEqual([]);

    const filled = await choose(step, 'consignee', ids.bookingParty, saved, {
      typed: { 'consignee.name': 'Someone else', 'consignee.email': 'someone@example.com' },
    });
    expect(elementOf(filled, 'consignee.phone').initial_value).toBe('0918 555 0202');
    expect(elementOf(filled, 'consignee.email').initial_value).toBe('maria@example.com');
    expect(elementOf(filled, 'consignee.street').initial_value).toBe('45 Rizal St');
    expect(elementOf(filled, 'consignee.barangay').initial_option?.value).toBe('Brgy. 667');
    expect(elementOf(filled, 'consignee.latitude').initial_value).toBe('14.5826');
    // The rest of the booking is as typed: the shipment step's values are kept.
    const sender = await next(bot, filled, { 'consignee.street': '47 Rizal St' });
    await bookFromSenderStep(bot, sender, { id: 'makati-office', shows: 'Makati' });
    expect(bot.sandbox.received[0]?.body).toMatchObject({
      consigneeName: 'Maria Santos',
      consigneeContact: '0918 555 0202',
      consigneeEmail: 'maria@example.com',
      consigneeAddress: '47 Rizal St',
      consigneeAddress1: 'Metro Manila',
      consigneeAddress2: 'City of Manila',
      consigneePostal: '1000',
      codAmount: '1500.00',
      itemDescription: 'Kitchen scales',
    });
    // The edited street is what the address book keeps now.
    expect((await bot.deps.store.parties.get(saved?.id ?? ''))?.street).toBe('47 Rizal St');
  });

  it('fills the sender and the return party on the sender step', async () => {
    bot = await startTestBot();
    const [returns] = await seed(party('Acme Returns Desk', '0917 000 0303', 'Quezon City'));
    const [shipper] = await seed(party('Juan dela Cruz', '0917 000 1111', 'Makati'));
    await bot.command('/book');
    const second = await next(bot, await bot.openedView(), shipment);
    const sender = await next(bot, second, receiver);
    const one = await choose(sender, 'shipper', ids.bookingParty, shipper);
    const both = await choose(one, 'returnTo', ids.bookingParty, returns);
    expect(elementOf(both, 'shipper.city').initial_option?.value).toBe('Makati');
    expect(elementOf(both, 'returnTo.city').initial_option?.value).toBe('Quezon City');
    expect(elementOf(both, 'returnTo.phone').initial_value).toBe('0917 000 0303');
  });

  it('answers within Slack’s limits: at most 100 options, text cut to 75, shown as typed', async () => {
    bot = await startTestBot();
    await seed(
      ...Array.from({ length: 130 }, (_, i) =>
        party(`Rosa ${'Villanueva-'.repeat(8)}${i}`, `0917 100 ${String(1000 + i)}`, 'Pasig'),
      ),
      party('<!channel> & <@U123> Rosa', '0917 999 0000', 'Pasig'),
    );
    await bot.command('/book');
    const step = await next(bot, await bot.openedView(), shipment);
    const { options } = await optionsFor(step, 'consignee', ids.bookingParty, 'rosa');
    expect(options).toHaveLength(100);
    for (const option of options) {
      expect(option.text.type).toBe('plain_text');
      expect(option.text.text.length).toBeLessThanOrEqual(75);
      expect(option.value.length).toBeLessThanOrEqual(150);
      expect(option.description?.text.length ?? 0).toBeLessThanOrEqual(75);
    }
    expect(options.some((o) => o.text.text.endsWith('…'))).toBe(true);
    // Plain text: Slack shows it as typed, so nothing is escaped.
    const sneaky = (await optionsFor(step, 'consignee', ids.bookingParty, 'rosa 0917 999')).options;
    expect(sneaky.map((o) => o.text.text)).toEqual(['<!channel> & <@U123> Rosa · 0917 999 0000']);
  });

  it('answers every key typed, a re-delivered request too: options are only read', async () => {
    bot = await startTestBot();
    await seed(maria);
    await bot.command('/book');
    const step = await next(bot, await bot.openedView(), shipment);
    const body = interactiveBody(
      blockSuggestionPayload({
        actionId: ids.bookingParty,
        blockId: pickerOf(step, 'consignee'),
        value: 'mari',
        user: 'UDISPATCH',
        view: {
          callbackId: step.callback_id,
          privateMetadata: step.private_metadata,
          viewId: step.id,
          hash: step.hash ?? 'h1',
        },
      }),
    );
    const first = await postToApp(bot.url, secrets.signingSecret, body);
    const again = await postToApp(bot.url, secrets.signingSecret, body, {
      headers: { 'X-Slack-Retry-Num': '1', 'X-Slack-Retry-Reason': 'http_timeout' },
    });
    for (const response of [first, again]) {
      expect((response.body as Options).options.map((o) => o.text.text)).toEqual([
        'Maria Santos · 0918 555 0202',
      ]);
    }
  });

  it('answers well under Slack’s 3 seconds with 5,000 saved parties', async () => {
    bot = await startTestBot();
    const cities = ['Manila', 'Quezon City', 'Makati', 'Pasig', 'Cebu City', 'Davao', 'Taguig', 'Naga'];
    for (let batch = 0; batch < 10; batch += 1) {
      await seed(
        ...Array.from({ length: 500 }, (_, j) => {
          const n = batch * 500 + j;
          return party(
            `Maria ${['Santos', 'Reyes', 'Cruz', 'Garcia'][n % 4]} ${n}`,
            `0917 ${String(n).padStart(7, '0')}`,
            cities[n % 8] ?? '',
          );
        }),
      );
    }
    await bot.command('/book');
    const step = await next(bot, await bot.openedView(), shipment);
    const times: number[] = [];
    for (const typed of [
      'm',
      'ma',
      'mar',
      'maria',
      'maria s',
      'maria santos',
      '0917',
      'cebu',
      'maria cebu',
    ]) {
      const started = performance.now();
      const { options } = await optionsFor(step, 'consignee', ids.bookingParty, typed);
      times.push(performance.now() - started);
      expect(options.length, typed).toBeGreaterThan(0);
    }
    // The whole round trip through Bolt, slowest of nine; Slack gives up at 3 s.
    expect(Math.max(...times)).toBeLessThan(1000);
  });
});

describe('the type-ahead on /quote', () => {
  it('fills the sender, receiver or return place from a saved party; the rest of the form stays as typed', async () => {
    bot = await startTestBot();
    const [saved] = await seed(maria);
    await bot.command('/quote');
    const form = await bot.openedView();
    for (const partyPath of ['shipper', 'consignee', 'returnTo']) pickerOf(form, partyPath);
    const { options } = await optionsFor(form, 'consignee', ids.quoteParty, 'ermita manila');
    expect(options.map((o) => o.value)).toEqual([]);
    const byName = await optionsFor(form, 'consignee', ids.quoteParty, 'santos');
    expect(byName.options.map((o) => o.value)).toEqual([saved?.id]);

    const typed = {
      ...quoteTyped,
      'package.weight': '2.5',
      'consignee.city': 'Somewhere',
      'consignee.postal': '9999',
    };
    const filled = await choose(form, 'consignee', ids.quoteParty, saved, { typed, field: 'city' });
    expect(elementOf(filled, 'consignee.street').initial_value).toBe('45 Rizal St');
    expect(elementOf(filled, 'consignee.postal').initial_value).toBe('1000');
    // What was typed elsewhere is kept.
    expect(elementOf(filled, 'shipper.city').initial_option?.value).toBe(typed['shipper.city']);
    expect(elementOf(filled, 'package.weight').initial_value).toBe(typed['package.weight']);
    // A quote has no names: none is put on the form.
    expect(textOf(filled.blocks)).not.toContain('0918 555 0202');

    await bot.submit(filled, { 'consignee.district': 'Malate' });
    await bot.idle();
    expect(bot.sandbox.received[0]?.body).toMatchObject({
      consigneeAddress: '45 Rizal St',
      consigneeAddress2: 'City of Manila',
      consigneeAddress3: 'Malate',
      consigneePostal: '1000',
    });
  });
});

describe('Book from this message, with the address book', () => {
  it('fills the receiver from the one saved party the message names', async () => {
    bot = await startTestBot();
    await seed(maria, party('Juan dela Cruz', '0917 000 1111', 'Makati'));
    await bot.messageShortcut('pls book 1 box for *maria santos*, COD 800 — same address as last time');
    const first = await bot.openedView();
    const top = mrkdwnOf(first);
    expect(top).toContain('• *Receiver phone*: 0918 555 0202  _from_ “saved party "Maria Santos"”');
    const receiverStep = await next(bot, first, {
      itemDescription: 'Shoes',
      'package.weight': '1',
      operatorContactNumber: '0917 555 0100',
    });
    expect(elementOf(receiverStep, 'consignee.street').initial_value).toBe('45 Rizal St');
    expect(elementOf(receiverStep, 'consignee.city').initial_option?.value).toBe('Manila');
  });
});

describe('/waybill addresses', () => {
  it('lists the matches with Edit and Delete; edits through the party rules, refuses a copy of another party, deletes', async () => {
    bot = await startTestBot();
    const [saved, juan] = await seed(maria, party('Juan dela Cruz', '0917 000 1111', 'Makati'));
    const response = await bot.command('/waybill', 'addresses maria');
    expect(response.status).toBe(200);
    const list = await bot.openedView();
    expect(list.callback_id).toBe(ids.addressesList);
    expect(mrkdwnOf(list)).toContain('*Maria Santos* · 0918 555 0202 · maria@example.com');
    expect(mrkdwnOf(list)).not.toContain('Juan');
    expect(elementOf(list, 'addresses_query').initial_value).toBe('maria');

    // Searching again, in the window.
    const all = bot.ackedView(await bot.submit(list, { addresses_query: 'makati' }), list.id);
    expect(mrkdwnOf(all)).toContain('*Juan dela Cruz*');
    expect(mrkdwnOf(all)).not.toContain('Maria');
    const back = bot.ackedView(await bot.submit(all, { addresses_query: '' }), list.id);
    expect(mrkdwnOf(back)).toContain('*Maria Santos*');
    expect(mrkdwnOf(back)).toContain('*Juan dela Cruz*');

    await bot.clickInView(back, ids.addressesEdit, saved?.id);
    const pushed = await bot.fake.waitFor('views.push');
    const answer = pushed.response?.body as { view: { id: string; hash: string } };
    // Slack submits a pushed view with the root of its stack, the list.
    const form: View = { ...(pushed.body.view as View), ...answer.view, root_view_id: list.id };
    expect(form.callback_id).toBe(ids.addressesEditForm);
    expect(elementOf(form, 'party.name').initial_value).toBe('Maria Santos');
    expect(elementOf(form, 'party.latitude').initial_value).toBe('14.5826');

    const invalid = await bot.submit(form, { 'party.phone': '12', 'party.city': '' });
    expect(invalid.body).toEqual({
      response_action: 'errors',
      errors: {
        'party.phone':
          'Party phone has too few digits for a phone number in PH, e.g. 0917 123 4567 or (02) 8123 4567',
        'party.city': 'Party city is required',
      },
    });
    const copy = await bot.submit(form, {
      'party.name': 'JUAN dela cruz',
      'party.phone': '+63 917 000 1111',
    });
    expect(copy.body).toEqual({
      response_action: 'errors',
      errors: {
        'party.name':
          'Another saved party has this name and phone (Juan dela Cruz, 0917 000 1111): edit or delete that one instead',
      },
    });

    // Moved to Pasay, its Manila barangay no longer fits: said on the input, with where it is; fixed in place.
    const elsewhere = await bot.submit(form, { 'party.city': 'Pasay' });
    expect(elsewhere.body.errors).toEqual({
      'party.barangay': expect.stringMatching(
        /^Party barangay "Brgy\. 667" is not a barangay of Pasay City: Barangay 667 is in .*Metro Manila/,
      ),
    });
    const ok = await bot.submit(form, {
      'party.city': 'Pasay',
      'party.barangay': 'Brgy. 76',
      'party.street': '1 Roxas Blvd',
    });
    expect(ok.status).toBe(200);
    // An empty answer closes the form, showing the list below it.
    expect(ok.body).toBe('');
    const refreshed = await bot.updatedView(list.id, (v) => mrkdwnOf(v).includes('Saved Maria Santos.'));
    expect(mrkdwnOf(refreshed)).toContain('1 Roxas Blvd');
    expect(await bot.deps.store.parties.get(saved?.id ?? '')).toMatchObject({
      city: 'Pasay City',
      street: '1 Roxas Blvd',
      uses: 1,
    });
    expect((await bot.deps.store.parties.find('pasay')).map((p) => p.id)).toEqual([saved?.id]);

    await bot.clickInView(refreshed, ids.addressesDelete, juan?.id);
    const afterDelete = await bot.updatedView(list.id, (v) =>
      mrkdwnOf(v).includes('Deleted Juan dela Cruz.'),
    );
    expect(mrkdwnOf(afterDelete)).not.toContain('*Juan dela Cruz*');
    expect(await bot.deps.store.parties.get(juan?.id ?? '')).toBeUndefined();
    expect(await addressBookAudit()).toEqual([
      ['deleted', 'UDISPATCH'],
      ['edited', 'UDISPATCH'],
    ]);
  });

  it('escapes what it shows, says when nothing matches, and is in /waybill help', async () => {
    bot = await startTestBot();
    await seed(party('<!channel> Rosa & Sons', '0917 000 4444', '<http://x.example|Pasig>'));
    await bot.command('/waybill', 'addresses rosa');
    const list = await bot.openedView();
    const shown = mrkdwnOf(list);
    expect(shown).toContain('*&lt;!channel&gt; Rosa &amp; Sons*');
    expect(shown).toContain('&lt;http://x.example|Pasig&gt;');
    expect(shown).not.toMatch(/<[!@h]/);
    await bot.command('/waybill', 'addresses <!here>');
    expect(mrkdwnOf(await bot.openedView())).toContain('No saved party matches “&lt;!here&gt;”.');
    const help = await bot.command('/waybill', 'help');
    expect(help.body.text).toContain('/waybill addresses');
  });
});

describe('two dispatchers at once', () => {
  /** `user`'s address book window on `query`. */
  async function windowOf(user: string, query: string): Promise<View> {
    await bot.command('/waybill', `addresses ${query}`, { user_id: user });
    return bot.openedView();
  }

  /** Edit pressed in `list` by `user`: the edit form Slack pushes, as it will be submitted. */
  async function editForm(list: View, partyId: string, user: string): Promise<View> {
    const pushes = bot.fake.callsTo('views.push').length;
    await bot.clickInView(list, ids.addressesEdit, partyId, {}, user);
    const pushed = await bot.fake.waitFor('views.push', undefined, { count: pushes + 1 });
    const answer = pushed.response?.body as { view: { id: string; hash: string } };
    return { ...(pushed.body.view as View), ...answer.view, root_view_id: list.id };
  }

  it('both edit the same party: the first is saved; the second is told it changed, shown it as saved now, and saves on top of it', async () => {
    bot = await startTestBot();
    const [saved] = await seed(maria);
    const id = saved?.id ?? '';
    const [listA, listB] = [await windowOf('UDISPATCH', 'maria'), await windowOf('UOTHER', 'maria')];
    const [formA, formB] = [await editForm(listA, id, 'UDISPATCH'), await editForm(listB, id, 'UOTHER')];

    expect(
      (await bot.submit(formA, { 'party.city': 'Pasay', 'party.barangay': 'Brgy. 76' }, 'UDISPATCH')).body,
    ).toBe('');
    const told = await bot.submit(formB, { 'party.street': '9 Other St' }, 'UOTHER');
    expect(told.body.response_action).toBe('update');
    const shown = told.body.view as View;
    expect(mrkdwnOf(shown)).toContain('Someone changed this party while you were editing it');
    expect(elementOf(shown, 'party.city').initial_option?.value).toBe('Pasay City');
    expect(elementOf(shown, 'party.street').initial_value).toBe('45 Rizal St');
    expect(await bot.deps.store.parties.get(id)).toMatchObject({ city: 'Pasay City', street: '45 Rizal St' });

    // Saved again from what it shows now, the change goes on top of the first.
    const again = await bot.submit({ ...shown, id: formB.id }, { 'party.street': '9 Other St' }, 'UOTHER');
    expect(again.body).toBe('');
    expect(await bot.deps.store.parties.get(id)).toMatchObject({ city: 'Pasay City', street: '9 Other St' });
    expect(await addressBookAudit()).toEqual([
      ['edited', 'UOTHER'],
      ['edited', 'UDISPATCH'],
    ]);
  });

  it('a booking changes the party while its form is open: the dispatcher saving is told, nothing the booking wrote is lost', async () => {
    bot = await startTestBot();
    const [saved] = await seed(maria);
    const form = await editForm(await windowOf('UDISPATCH', 'maria'), saved?.id ?? '', 'UDISPATCH');
    await bot.deps.store.parties.save([{ ...maria, email: 'maria.new@example.com' }]);
    const told = await bot.submit(form, { 'party.city': 'Pasay', 'party.barangay': 'Brgy. 76' });
    expect(mrkdwnOf(told.body.view as View)).toContain(
      'Someone changed this party while you were editing it',
    );
    expect(await bot.deps.store.parties.get(saved?.id ?? '')).toMatchObject({
      city: 'Manila',
      email: 'maria.new@example.com',
    });
  });

  it('one deletes the party while the other edits it: the edit is told the party is gone, nothing is saved back', async () => {
    bot = await startTestBot();
    const [saved] = await seed(maria);
    const id = saved?.id ?? '';
    const listB = await windowOf('UOTHER', 'maria');
    const form = await editForm(await windowOf('UDISPATCH', 'maria'), id, 'UDISPATCH');
    await bot.clickInView(listB, ids.addressesDelete, id, {}, 'UOTHER');
    await bot.updatedView(listB.id, (v) => mrkdwnOf(v).includes('Deleted Maria Santos.'));
    const told = await bot.submit(form, { 'party.city': 'Pasay', 'party.barangay': 'Brgy. 76' });
    expect(told.body.response_action).toBe('update');
    expect(mrkdwnOf(told.body.view as View)).toContain('someone deleted it meanwhile');
    expect(await bot.deps.store.parties.find('maria')).toEqual([]);
    // Deleted twice: the second is told so.
    await bot.clickInView(listB, ids.addressesDelete, id, {}, 'UOTHER');
    await bot.updatedView(listB.id, (v) => mrkdwnOf(v).includes('That party was already deleted.'));
  });

  it('one deletes the party another has just been offered in the type-ahead of /book or /quote: choosing it says so, the form stays as typed', async () => {
    bot = await startTestBot();
    const [saved] = await seed(maria);
    await bot.command('/book');
    const step = await next(bot, await bot.openedView(), shipment);
    expect((await optionsFor(step, 'consignee', ids.bookingParty, 'maria')).options).toHaveLength(1);
    const list = await windowOf('UOTHER', 'maria');
    await bot.clickInView(list, ids.addressesDelete, saved?.id, {}, 'UOTHER');
    await bot.updatedView(list.id, (v) => mrkdwnOf(v).includes('Deleted Maria Santos.'));

    await bot.pickInView(
      step,
      pickerOf(step, 'consignee'),
      ids.bookingParty,
      saved?.id ?? '',
      'Maria Santos',
      {
        'consignee.name': 'Typed Name',
      },
    );
    const shown = await bot.updatedView(step.id, (v) => mrkdwnOf(v).includes('was deleted'));
    expect(mrkdwnOf(shown)).toContain('Maria Santos');
    expect(elementOf(shown, 'consignee.name').initial_value).toBe('Typed Name');

    // The same on /quote.
    await bot.command('/quote');
    const form = await bot.openedView();
    await bot.pickInView(form, pickerOf(form, 'consignee'), ids.quoteParty, saved?.id ?? '', 'Maria Santos', {
      ...quoteTyped,
      'consignee.city': 'Somewhere',
    });
    const quote = await bot.updatedView(form.id, (v) => mrkdwnOf(v).includes('was deleted'));
    expect(elementOf(quote, 'consignee.city').initial_option?.value).toBe('Somewhere');
    await bot.idle();
    expect(bot.logs.filter((line) => /"level":(50|60)/.test(line))).toEqual([]);
  });
});

describe('access control', () => {
  it('the type-ahead, choosing from it and /waybill addresses are refused to someone not allowed', async () => {
    bot = await startTestBot({ env: { ALLOWED_USER_IDS: 'UDISPATCH' } });
    const [saved] = await seed(maria);
    await bot.command('/book');
    const step = await next(bot, await bot.openedView(), shipment);

    const refused = await bot.suggest(
      step,
      pickerOf(step, 'consignee'),
      ids.bookingParty,
      'maria',
      'UOUTSIDER',
    );
    expect(refused.body).toEqual({ options: [] });
    const allowed = await bot.suggest(step, pickerOf(step, 'consignee'), ids.bookingParty, 'maria');
    expect((allowed.body as Options).options).toHaveLength(1);

    await bot.pickInView(
      step,
      pickerOf(step, 'consignee'),
      ids.bookingParty,
      saved?.id ?? '',
      'Maria Santos',
      {},
      'UOUTSIDER',
    );
    const refusedView = await bot.updatedView(step.id);
    expect(textOf(refusedView.blocks)).toContain('not on the list of people who may book waybills');

    const command = await bot.command('/waybill', 'addresses maria', { user_id: 'UOUTSIDER' });
    expect(command.body.text).toContain('not on the list of people who may use the address book');
    await bot.command('/waybill', 'addresses maria');
    const list = await bot.openedView();
    await bot.clickInView(list, ids.addressesDelete, saved?.id, {}, 'UOUTSIDER');
    await bot.updatedView(list.id, (v) => textOf(v.blocks).includes('may use the address book'));
    expect(await bot.deps.store.parties.get(saved?.id ?? '')).toBeDefined();
    const refusals = await bot.deps.store.audit.list({ operation: 'addresses' });
    expect(refusals.map((entry) => [entry.outcome, entry.userId])).toEqual([
      ['refused', 'UOUTSIDER'],
      ['refused', 'UOUTSIDER'],
    ]);
  });

  it('in a conversation not allowed, the window opened elsewhere is refused too', async () => {
    bot = await startTestBot({ env: { ALLOWED_CHANNEL_IDS: 'CDISPATCH' } });
    await seed(maria);
    const elsewhere = await bot.command('/waybill', 'addresses', { channel_id: 'COTHER' });
    expect(elsewhere.body.text).toContain('the address book is not enabled in this conversation');
    await bot.command('/waybill', 'addresses');
    const list = await bot.openedView();
    const search = await bot.submit(list, { addresses_query: 'maria' });
    expect(textOf(bot.ackedView(search, list.id).blocks)).toContain('*Maria Santos*');
  });
});
