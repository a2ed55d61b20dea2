/**
 * The forms' place type-ahead through `block_suggestion` on both backends and the real list: provinces, a
 * province's cities, a city's barangays (from the view's state), within Slack's limits; chosen names booked
 * and quoted as the official ones, a pre-filled place kept, one not on the list refused; parties abroad and
 * `WAYBILL_PLACE_CHECK=warn`; QC and districts, a city's nearest barangays for one from elsewhere; the
 * update and address book forms; access.
 */
// The forms' place type-ahead through signed Slack requests (block_suggestion), on the real place list and both backends: province, city and barangay options narrowed by the parts above as the view's state holds them, within Slack's limits; chosen names booked and quoted as the official ones; pre-filled places kept, one not on the list refused; parties abroad and WAYBILL_PLACE_CHECK=warn; the update and address book forms; access.
import { afterEach, expect, it } from 'vitest';
import { ids } from '../../fakes/ids.js';
import { quoteTyped } from '../../fakes/quote-values.js';
import { VALUE_ACTION } from '../../src/slack/kit/forms.js';
import { places } from '../../src/waybill/places.js';
import { describeEachBackend } from '../store/backends.js';
import { expectWithinSlackLimits } from '../support/block-kit-limits.js';
import {
  bookFromSenderStep,
  bookThroughModal,
  next,
  receiver,
  receiverStep,
} from '../support/booking-flow.js';
import {
  elementOf,
  startTestBot as startBot,
  type TestBot,
  type TestBotOptions,
  type View,
} from '../support/bot-harness.js';

interface Option {
  text: { text: string };
  value: string;
  description?: { text: string };
}

const blockOf = (view: View, path: string): string =>
  view.blocks.find((b) => typeof b.block_id === 'string' && b.block_id.split('#')[0] === path)?.block_id;

let bot: TestBot;

/** The options Slack would show in a place input, with `typed` in the inputs on screen. */
async function optionsFor(
  view: View,
  path: string,
  value: string,
  typed: Record<string, string | null> = {},
  user = 'UDISPATCH',
): Promise<Option[]> {
  const response = await bot.suggest(view, blockOf(view, path), VALUE_ACTION, value, user, typed);
  expect(response.status).toBe(200);
  expectWithinSlackLimits(response.body);
  return (response.body as { options: Option[] }).options;
}

const valuesOf = (options: Option[]) => options.map((option) => option.value);
const whereOf = (options: Option[]) => [...new Set(options.map((option) => option.description?.text))];

describeEachBackend(import.meta.filename, 'place type-ahead', (backend) => {
  const startTestBot = (options: TestBotOptions = {}) => startBot({ backend, ...options });

  afterEach(async () => {
    await bot?.stop();
  });

  it('/book offers provinces, then the chosen province’s cities, then the chosen city’s barangays; the chosen names reach the courier', async () => {
    bot = await startTestBot();
    const step = await receiverStep(bot);
    for (const path of ['consignee.region', 'consignee.city', 'consignee.barangay'])
      expect(elementOf(step, path)).toMatchObject({ type: 'external_select', action_id: VALUE_ACTION });
    expect(elementOf(step, 'consignee.street').type).toBe('plain_text_input');
    expectWithinSlackLimits(step);

    // Opened empty: every province (84 fit in one answer), with its region.
    const provinces = await optionsFor(step, 'consignee.region', '');
    expect(provinces).toHaveLength(places().provinces.length);
    expect(provinces).toContainEqual(
      expect.objectContaining({
        value: 'Cebu',
        description: expect.objectContaining({ text: 'Region VII (Central Visayas)' }),
      }),
    );
    expect(valuesOf(await optionsFor(step, 'consignee.region', 'ceb'))).toEqual(['Cebu']);

    // The city narrowed by the province the view's state holds: Cebu's cities and municipalities alone.
    const cebu = places().provincesNamed('Cebu')[0];
    const cities = await optionsFor(step, 'consignee.city', '', { 'consignee.region': 'Cebu' });
    expect(valuesOf(cities).sort()).toEqual(cebu?.cities.map((city) => city.name).sort());
    expect(whereOf(cities)).toEqual(['Cebu']);
    expect(
      valuesOf(await optionsFor(step, 'consignee.city', 'cebu', { 'consignee.region': 'Cebu' })),
    ).toEqual(['City of Cebu']);
    // Without a province, cities anywhere, each saying where (or how many share the name).
    const anywhere = await optionsFor(step, 'consignee.city', 'san isidro');
    expect(anywhere[0]).toMatchObject({
      value: 'San Isidro',
      description: { text: expect.stringMatching(/^\d+ places of this name$/) },
    });

    // The barangay narrowed by the city (and province): Lahug of Cebu City, not of Tapaz.
    const inCebuCity = { 'consignee.region': 'Cebu', 'consignee.city': 'City of Cebu' };
    const lahug = await optionsFor(step, 'consignee.barangay', 'lah', inCebuCity);
    expect(valuesOf(lahug)).toEqual(['Lahug']);
    expect(whereOf(lahug)).toEqual(['City of Cebu, Cebu']);
    const all = await optionsFor(step, 'consignee.barangay', '', inCebuCity);
    expect(all).toHaveLength(places().citiesNamed('City of Cebu')[0]?.barangays.length ?? 0);
    expect(whereOf(all)).toEqual(['City of Cebu, Cebu']);
    expect(
      valuesOf(await optionsFor(step, 'consignee.barangay', 'lahug', { 'consignee.city': 'Makati' })),
    ).not.toContain('Lahug');
    // A misspelling within a city: its nearest names.
    expect(valuesOf(await optionsFor(step, 'consignee.barangay', 'lahgu', inCebuCity))).toContain('Lahug');
    // No city yet: barangays anywhere, saying how many share the name.
    expect(await optionsFor(step, 'consignee.barangay', 'lahug')).toContainEqual(
      expect.objectContaining({
        value: 'Lahug',
        description: { type: 'plain_text', text: '2 places of this name', emoji: true },
      }),
    );

    // Chosen (selected_option values in the state), and booked with the official names.
    const sender = await next(bot, step, {
      ...receiver,
      'consignee.region': 'Cebu',
      'consignee.city': 'City of Cebu',
      'consignee.barangay': 'Lahug',
    });
    await bookFromSenderStep(bot, sender, { id: 'pasig-warehouse', shows: 'Acme Pasig Warehouse' });
    expect(bot.sandbox.received.map((r) => r.operation)).toEqual(['book']);
    expect(bot.sandbox.received[0]?.body).toMatchObject({
      consigneeAddress1: 'Cebu',
      consigneeAddress2: 'City of Cebu',
      consigneeAddress4: 'Lahug',
    });
  });

  it('shows a pre-filled place as it was written (Lahug, Cebu City, Cebu accepted, kept by its official name); one not on the list is shown and refused with what to choose', async () => {
    bot = await startTestBot();
    await bot.command('/quote', 'weight=2.5 to_city="Cebu City"');
    const form = await bot.openedView();
    expect(elementOf(form, 'consignee.city').initial_option).toMatchObject({
      text: { text: 'Cebu City' },
      value: 'Cebu City',
    });
    expectWithinSlackLimits(form);
    const quoted = await bot.submit(form, {
      ...quoteTyped,
      'consignee.region': 'Cebu',
      'consignee.barangay': 'Lahug',
    });
    expect(quoted.body?.response_action).toBe('update');
    await bot.idle();
    // Kept, and so quoted, by the official name.
    expect(bot.sandbox.received[0]?.body).toMatchObject({
      consigneeAddress1: 'Cebu',
      consigneeAddress2: 'City of Cebu',
      consigneeAddress4: 'Lahug',
    });

    await bot.command('/quote', 'weight=2.5 to_city="Makatti"');
    const misspelt = await bot.openedView();
    expect(elementOf(misspelt, 'consignee.city').initial_option.value).toBe('Makatti');
    const refused = await bot.submit(misspelt, quoteTyped);
    expect(refused.body).toEqual({
      response_action: 'errors',
      errors: {
        [blockOf(misspelt, 'consignee.city')]: expect.stringMatching(
          /^Receiver city "Makatti" is not a city or municipality in the Philippines; nearest: City of Makati \(Metro Manila\)/,
        ),
      },
    });
  });

  it('understands QC and districts (Cubao, Manila’s Sampaloc), and offers a city’s nearest barangays for one from elsewhere', async () => {
    bot = await startTestBot();
    const step = await receiverStep(bot);
    for (const typed of ['qc', 'cubao'])
      expect(valuesOf(await optionsFor(step, 'consignee.city', typed))).toEqual(['Quezon City']);
    const inQc = { 'consignee.city': 'QC' };
    expect(valuesOf(await optionsFor(step, 'consignee.barangay', 'cubao', inQc))).toEqual(['Cubao']);
    expect(valuesOf(await optionsFor(step, 'consignee.barangay', 'socorro', inQc))).toEqual(['Socorro']);
    const inManila = { 'consignee.city': 'Manila' };
    expect(valuesOf(await optionsFor(step, 'consignee.barangay', 'sampaloc', inManila))).toEqual([
      'Sampaloc',
    ]);

    // Lahug is in Cebu, not Makati: Makati's nearest names, each in Makati, instead of nothing.
    const instead = await optionsFor(step, 'consignee.barangay', 'lahug', { 'consignee.city': 'Makati' });
    expect(instead.length).toBeGreaterThan(0);
    expect(whereOf(instead)).toEqual(['City of Makati, Metro Manila']);
  });

  it('abroad offers only what was typed; with WAYBILL_PLACE_CHECK=warn, what was typed comes before the list', async () => {
    bot = await startTestBot();
    let step = await receiverStep(bot);
    expect(await optionsFor(step, 'consignee.city', 'Singapore', { 'consignee.country': 'SG' })).toEqual([
      {
        text: { type: 'plain_text', text: 'Singapore', emoji: true },
        value: 'Singapore',
        description: { type: 'plain_text', text: 'As typed', emoji: true },
      },
    ]);
    expect(
      valuesOf(await optionsFor(step, 'consignee.city', 'Cebu Cty', { 'consignee.country': 'PH' })),
    ).not.toContain('Cebu Cty');
    await bot.stop();

    bot = await startTestBot({ env: { WAYBILL_PLACE_CHECK: 'warn' } });
    step = await receiverStep(bot);
    const warned = await optionsFor(step, 'consignee.city', 'Cebu Cty', { 'consignee.country': 'PH' });
    expect(warned[0]).toMatchObject({
      value: 'Cebu Cty',
      description: { text: 'As typed, not on the list' },
    });
    // An official name typed in full is offered once.
    expect(valuesOf(await optionsFor(step, 'consignee.region', 'Cebu'))).toEqual(['Cebu']);
  });

  it('the update form and the address book’s edit form offer the same, to those who may use them; nobody else is offered anything', async () => {
    bot = await startTestBot({ env: { ALLOWED_USER_IDS: 'UDISPATCH' } });
    await bookThroughModal(bot);

    await bot.command('/waybill', 'update WB000001');
    const update = await bot.openedView();
    expect(update.callback_id).toBe(ids.updateForm);
    // The form's own values narrow: the receiver's city as booked (City of Cebu, no province).
    const lahug = await optionsFor(update, 'consignee.barangay', 'lah');
    expect(lahug).toContainEqual(expect.objectContaining({ value: 'Lahug' }));
    expect(whereOf(lahug)).toEqual(['City of Cebu, Cebu']);
    expect(await optionsFor(update, 'consignee.barangay', 'lah', {}, 'UOUTSIDER')).toEqual([]);

    await bot.command('/waybill', 'addresses maria');
    const list = await bot.openedView();
    const partyId = list.blocks.find((b) => b.type === 'actions')?.elements[0].value as string;
    await bot.clickInView(list, ids.addressesEdit, partyId);
    const pushed = await bot.fake.waitFor('views.push');
    const answer = pushed.response?.body as { view: { id: string; hash: string } };
    const edit: View = { ...(pushed.body.view as View), ...answer.view, root_view_id: list.id };
    expect(edit.callback_id).toBe(ids.addressesEditForm);
    expect(elementOf(edit, 'party.city').initial_option.value).toBe('City of Cebu');
    expect(valuesOf(await optionsFor(edit, 'party.region', 'metro'))).toEqual(['Metro Manila']);
    expect(valuesOf(await optionsFor(edit, 'party.city', 'mak', { 'party.region': 'Metro Manila' }))).toEqual(
      ['City of Makati'],
    );
    expect(await optionsFor(edit, 'party.city', 'mak', {}, 'UOUTSIDER')).toEqual([]);
  });
});
