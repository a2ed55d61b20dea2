/**
 * Who sees a booking, on every surface that names one (operations/access.ts, the one rule): four
 * bookings in four conversations (the dispatch channel, a private one, a Slack Connect one and one
 * outside ALLOWED_CHANNEL_IDS), then every surface driven by each kind of viewer (an allowed
 * dispatcher, a colleague not on the lists, a guest of another organisation, a workflow), checking what
 * was posted, where and to whom: receivers public only in their own conversation, nothing to another
 * organisation or to someone not allowed, the restricted channel's booking to nobody, and a refusal that
 * never tells whether a booking exists. On SQLite and PostgreSQL.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ids } from '../../fakes/ids.js';
import type { FakeCall } from '../../fakes/slack-fake.js';
import type { Store } from '../../src/store/index.js';
import { describeEachBackend } from '../store/backends.js';
import { bookStepInputs } from '../support/booking-flow.js';
import { startTestBot, type TestBot } from '../support/bot-harness.js';

const TEMPLATE = 'https://courier.example/track/{tn}';
const OTHER_TEAM = 'T0OTHER';

/** Each booking's receiver, by the conversation it is booked in; a name seen anywhere is that booking seen. */
const RECEIVERS = {
  CDISPATCH: 'Dana Dispatchrcv',
  CPRIVATE1: 'Paula Privatercv',
  CSHARED1: 'Sam Sharedrcv',
  CRESTRICTED: 'Rita Restrictedrcv',
} as const;
type Channel = keyof typeof RECEIVERS;
const CHANNELS = Object.keys(RECEIVERS) as Channel[];

const ALLOWED = {
  ALLOWED_CHANNEL_IDS: 'CDISPATCH,CPRIVATE1,CSHARED1',
  ALLOWED_USER_IDS: 'UDISPATCH',
  TRACKING_URL_TEMPLATE: TEMPLATE,
};

let messageTs = 1_765_000_000;
const nextTs = () => `${++messageTs}.000300`;

/** A link_shared event: `user` posted links to these bookings' tracking pages in `channel`. */
const shareLinks = (bot: TestBot, channel: string, user: string, numbers: readonly string[]) =>
  bot.event({
    type: 'link_shared',
    channel,
    user,
    message_ts: nextTs(),
    links: numbers.map((n) => ({ domain: 'courier.example', url: TEMPLATE.replace('{tn}', n) })),
  });

const bots: TestBot[] = [];
afterEach(async () => {
  for (const bot of bots.splice(0)) await bot.stop();
});

/** Everything a Slack call or a response URL carried, as text. */
const said = (call: { body: unknown }) => JSON.stringify(call.body);
/** The receivers named in a text. */
const named = (text: string) => CHANNELS.filter((channel) => text.includes(RECEIVERS[channel]));

/** Every post the bot made, by where it went: `public <channel>`, `private <user>`. */
function posts(bot: TestBot): { where: string; names: Channel[] }[] {
  const where = (call: FakeCall): string => {
    const body = call.body as Record<string, unknown>;
    if (call.method === 'chat.postEphemeral') return `private ${String(body.user)}`;
    if (call.method === 'views.publish') return `private ${String(body.user_id)}`;
    if (call.method === 'response_url') return 'private asker';
    if (call.method.startsWith('views.')) return 'private asker';
    const channel = String(body.channel ?? body.channel_id ?? '');
    return channel.startsWith('U') || channel.startsWith('D') ? `private ${channel}` : `public ${channel}`;
  };
  return [
    ...bot.fake.calls,
    ...bot.fake.responseUrlPosts.map((post) => ({ ...post, method: 'response_url' })),
  ]
    .map((call) => ({ where: where(call as FakeCall), names: named(said(call)) }))
    .filter((post) => post.names.length > 0);
}

/** The four bookings, booked by the dispatcher through the workflow step while no list was set. */
async function bookEverywhere(store: Store): Promise<Record<Channel, string>> {
  const open = await startTestBot({ store });
  const numbers = {} as Record<Channel, string>;
  for (const channel of CHANNELS) {
    const { completion } = await open.step({
      callbackId: ids.stepBook,
      inputs: bookStepInputs(channel, RECEIVERS[channel]),
    });
    numbers[channel] = String((completion.body.outputs as { tracking_number: string }).tracking_number);
  }
  // A return recorded on the restricted channel's booking: no record elsewhere may count it.
  await open.command('/waybill', `status ${numbers.CRESTRICTED} returned`, { channel_id: 'CRESTRICTED' });
  for (const channel of ['CDISPATCH', 'CSHARED1'])
    await open.command('/waybill', 'recognise on', { channel_id: channel });
  await open.stop();
  return numbers;
}

/** The bot as the operator runs it after: the lists set; UEXTERNAL is another organisation's guest. */
async function listed(store: Store, env: Record<string, string> = {}, now?: () => Date): Promise<TestBot> {
  const bot = await startTestBot({ store, env: { ...ALLOWED, ...env }, ...(now ? { now } : {}) });
  bots.push(bot);
  bot.fake.respond('users.info', (body) =>
    body.user === 'UEXTERNAL'
      ? { ok: true, user: { id: 'UEXTERNAL', team_id: OTHER_TEAM, is_bot: false, deleted: false } }
      : undefined,
  );
  return bot;
}

/** Who asks, as each surface carries them. */
const VIEWERS = {
  dispatcher: { user: 'UDISPATCH', team: 'T0001' },
  colleague: { user: 'UOUTSIDER', team: 'T0001' },
  guest: { user: 'UEXTERNAL', team: OTHER_TEAM },
} as const;
type Viewer = keyof typeof VIEWERS;

/**
 * Every surface that names a booking, driven by `viewer` from `channel`: a message naming all four
 * numbers, their links, Show all, /waybill show and find, the Home tab and its find, exports, and
 * the parcels /waybill statuses offers.
 */
async function everySurface(
  bot: TestBot,
  viewer: Viewer,
  channel: Channel,
  numbers: Record<Channel, string>,
) {
  const { user, team } = VIEWERS[viewer];
  const all = CHANNELS.map((c) => numbers[c]);
  await bot.event({
    type: 'message',
    channel,
    channel_type: 'channel',
    user,
    user_team: team,
    text: `where are ${all.join(' ')}?`,
    ts: nextTs(),
  });
  await shareLinks(bot, channel, user, all);
  await bot.clickInMessage(ids.recogniseShowAll, all.join(' '), {
    channelId: channel,
    user: { id: user, team_id: team },
  });
  for (const n of all)
    await bot.command('/waybill', `show ${n}`, { channel_id: channel, user_id: user, team_id: team });
  await bot.command('/waybill', 'find 0917 123 4567', { channel_id: channel, user_id: user, team_id: team });
  await bot.event({ type: 'app_home_opened', user, tab: 'home' });
  await bot.command('/waybill', 'export 2026-11-23', { channel_id: channel, user_id: user, team_id: team });
  await bot.command('/waybill', 'statuses', { channel_id: channel, user_id: user, team_id: team });
  await bot.idle();
}

describeEachBackend(import.meta.filename, 'who sees a booking', (backend) => {
  it('the matrix: every surface, every viewer, from the dispatch channel and the Slack Connect one', async () => {
    const store = await backend.open();
    const numbers = await bookEverywhere(store);
    const bot = await listed(store);
    for (const viewer of Object.keys(VIEWERS) as Viewer[]) {
      for (const channel of ['CDISPATCH', 'CSHARED1'] as const) {
        bot.fake.reset();
        bot.fake.respond('users.info', (body) =>
          body.user === 'UEXTERNAL'
            ? { ok: true, user: { id: 'UEXTERNAL', team_id: OTHER_TEAM, is_bot: false, deleted: false } }
            : undefined,
        );
        await everySurface(bot, viewer, channel, numbers);
        const seen = posts(bot);
        const row = `${viewer} in ${channel}`;
        // The restricted channel's booking: to nobody, anywhere.
        expect(
          seen.filter((p) => p.names.includes('CRESTRICTED')),
          row,
        ).toEqual([]);
        if (viewer !== 'dispatcher') {
          // Another organisation's guest, or a colleague not on the lists: no receiver, anywhere.
          expect(seen, row).toEqual([]);
          continue;
        }
        // In public, only the channel's own booking; the others privately to the dispatcher.
        for (const post of seen.filter((p) => p.where.startsWith('public')))
          expect(post.names, `${row}: ${post.where}`).toEqual([post.where.slice('public '.length)]);
        const privately = new Set(seen.filter((p) => p.where.startsWith('private')).flatMap((p) => p.names));
        expect([...privately].sort(), row).toEqual(['CDISPATCH', 'CPRIVATE1', 'CSHARED1']);
      }
    }
  });

  it('a guest of another organisation in a Slack Connect channel is shown nothing and told why in one line', async () => {
    const store = await backend.open();
    const numbers = await bookEverywhere(store);
    // Settings at their defaults: only the installing organisation is served.
    const bot = await startTestBot({ store, env: { TRACKING_URL_TEMPLATE: TEMPLATE } });
    bots.push(bot);
    bot.fake.respond('users.info', () => ({ ok: true, user: { id: 'UEXTERNAL', team_id: OTHER_TEAM } }));
    await everySurface(bot, 'guest', 'CSHARED1', numbers);
    expect(posts(bot)).toEqual([]);
    expect(bot.fake.callsTo('chat.unfurl')).toEqual([]);
    const shown = await bot.command('/waybill', `show ${numbers.CSHARED1}`, {
      channel_id: 'CSHARED1',
      user_id: 'UEXTERNAL',
      team_id: OTHER_TEAM,
    });
    expect(shown.body.text).toBe(
      "Sorry, this bot answers only its own organisation's people. Ask whoever runs it if your organisation should be added.",
    );
    // ALLOWED_TEAM_IDS names their organisation: served as ours.
    const shared = await startTestBot({
      store,
      env: { TRACKING_URL_TEMPLATE: TEMPLATE, ALLOWED_TEAM_IDS: OTHER_TEAM },
    });
    bots.push(shared);
    const allowed = await shared.command('/waybill', `show ${numbers.CSHARED1}`, {
      channel_id: 'CSHARED1',
      user_id: 'UEXTERNAL',
      team_id: OTHER_TEAM,
    });
    expect(String(allowed.body.text)).toContain(numbers.CSHARED1);
  });

  it('a number of another channel named with only ALLOWED_USER_IDS set: private to the dispatcher, not in the channel', async () => {
    const store = await backend.open();
    const numbers = await bookEverywhere(store);
    const bot = await startTestBot({
      store,
      env: { ALLOWED_USER_IDS: 'UDISPATCH', TRACKING_URL_TEMPLATE: TEMPLATE },
    });
    bots.push(bot);
    const asked = nextTs();
    await bot.event({
      type: 'message',
      channel: 'CDISPATCH',
      user: 'UDISPATCH',
      text: `${numbers.CPRIVATE1} and ${numbers.CDISPATCH}?`,
      ts: asked,
    });
    await bot.idle();
    const replies = bot.fake.callsTo('chat.postMessage').filter((c) => c.body.thread_ts === asked);
    expect(replies.map((c) => named(said(c)))).toEqual([['CDISPATCH']]);
    const ephemeral = bot.fake.callsTo('chat.postEphemeral');
    expect(ephemeral.map((c) => [c.body.user, c.body.thread_ts, named(said(c))])).toEqual([
      ['UDISPATCH', asked, ['CPRIVATE1']],
    ]);
    // Its link, in a channel where recognition is off: the number and status, never the receiver.
    await shareLinks(bot, 'COTHER', 'UDISPATCH', [numbers.CPRIVATE1]);
    const unfurl = await bot.fake.waitFor('chat.unfurl');
    expect(said(unfurl)).toContain(numbers.CPRIVATE1);
    expect(named(said(unfurl))).toEqual([]);
  });

  it("where Slack cannot say a person's organisation (users.info refused), they are shown nothing, and the log says why", async () => {
    const store = await backend.open();
    const numbers = await bookEverywhere(store);
    const bot = await startTestBot({ store, env: { TRACKING_URL_TEMPLATE: TEMPLATE } });
    bots.push(bot);
    bot.fake.respond('users.info', { ok: false, error: 'missing_scope' });
    await shareLinks(bot, 'CDISPATCH', 'UDISPATCH', [numbers.CDISPATCH]);
    await bot.idle();
    expect(bot.fake.callsTo('chat.unfurl')).toEqual([]);
    expect(bot.logs.filter((line) => line.includes('users:read scope'))).toHaveLength(1);
  });

  it("a refusal never tells whether a booking exists: the restricted channel's number and an unknown one read alike", async () => {
    const store = await backend.open();
    const numbers = await bookEverywhere(store);
    const bot = await listed(store);
    for (const verb of ['show', 'update', 'status', 'label', 'assign'] as const) {
      const words = (n: string) =>
        verb === 'status' ? `${n} delivered` : verb === 'assign' ? `${n} <@UDISPATCH>` : n;
      const restricted = await bot.command('/waybill', `${verb} ${words(numbers.CRESTRICTED)}`);
      const unknown = await bot.command(
        '/waybill',
        `${verb} ${words(numbers.CRESTRICTED.replace(/\d$/, '9'))}`,
      );
      await bot.idle();
      const textOf = (answer: { body: { text?: unknown } }) =>
        String(answer.body.text).replace(/WB\d+/g, 'WB…');
      expect(textOf(restricted), verb).toBe(textOf(unknown));
    }
  });

  it('what needs attention lists only the bookings its viewer sees, on the command and the Home tab', async () => {
    const store = await backend.open();
    const numbers = await bookEverywhere(store);
    const open = await startTestBot({ store });
    bots.push(open);
    for (const channel of ['CDISPATCH', 'CRESTRICTED'] as const)
      await open.command('/waybill', `status ${numbers[channel]} picked-up`, { channel_id: channel });
    // Two hours on, each picked-up parcel with nothing since is stale at one minute.
    const later = () => new Date(Date.now() + 2 * 3_600_000);
    const bot = await listed(store, { ATTENTION_STALE_AFTER: '1m' }, later);
    const listedNow = JSON.stringify((await bot.command('/waybill', 'attention')).body);
    expect(listedNow).toContain(numbers.CDISPATCH);
    expect(listedNow).not.toContain(numbers.CRESTRICTED);
    await bot.event({ type: 'app_home_opened', user: 'UDISPATCH', tab: 'home' });
    const home = said(await bot.fake.waitFor('views.publish'));
    expect(home).toContain(numbers.CDISPATCH);
    expect(home).not.toContain(numbers.CRESTRICTED);
  });

  it("the COD owed keeps every booking's money, but names the parties only of those its viewer sees", async () => {
    const store = await backend.open();
    const numbers = await bookEverywhere(store);
    const open = await startTestBot({ store });
    bots.push(open);
    for (const channel of ['CDISPATCH', 'CRESTRICTED'] as const)
      await open.command('/waybill', `status ${numbers[channel]} delivered`, { channel_id: channel });
    const bot = await listed(store);
    await bot.command('/waybill', 'cod', { channel_id: 'CDISPATCH' });
    await bot.idle();
    const owed = bot.fake.uploadsCompleted().find((u) => u.filename === 'cod-owed.csv');
    expect(owed?.text).toContain(numbers.CDISPATCH);
    expect(owed?.text).toContain(numbers.CRESTRICTED);
    expect(named(owed?.text ?? '')).toEqual(['CDISPATCH']);
  });

  it("the receiver's record counts only the bookings its viewer sees", async () => {
    const store = await backend.open();
    await bookEverywhere(store);
    const bot = await listed(store);
    const { completion } = await bot.step({
      callbackId: ids.stepBook,
      inputs: {
        receiver_name: 'Same Phone',
        receiver_phone: '0917 123 4567',
        receiver_address: '88 Rizal Ave',
        receiver_city: 'Cebu City',
        cod_amount: '',
        weight_kg: 1,
        item_description: 'Scales',
        channel_id: 'CDISPATCH',
        requested_by: 'UDISPATCH',
      },
    });
    const number = String((completion.body.outputs as { tracking_number: string }).tracking_number);
    // Three earlier parcels it may see (CDISPATCH, CPRIVATE1, CSHARED1); not the restricted one, nor its return.
    expect((await store.receivers.checksOf([number])).get(number)).toMatchObject({ parcels: 3, returned: 0 });
  });

  it('the digest posts in its channel only its own bookings whole; the pickup list goes to the person when it spans channels', async () => {
    const store = await backend.open();
    await bookEverywhere(store);
    const bot = await listed(store, { DIGEST_CHANNEL_ID: 'CDISPATCH', DIGEST_TIME: '08:00' });
    await bot.deps.jobs.turn('daily digest');
    await bot.idle();
    const digestFile = bot.fake.uploadsCompleted().find((u) => u.filename.startsWith('digest-'));
    expect(digestFile?.channelId).toBe('CDISPATCH');
    expect(named(digestFile?.text ?? '')).toEqual(['CDISPATCH']);

    await bot.command('/waybill', 'manifest 2026-11-24', { channel_id: 'CDISPATCH' });
    await bot.idle();
    const manifests = bot.fake.uploadsCompleted().filter((u) => u.filename.startsWith('pickup-'));
    expect(manifests.length).toBeGreaterThan(0);
    for (const file of manifests) expect(file.channelId, file.filename).not.toBe('CDISPATCH');
  });
});

describe('workflow steps: who they act for, and their channel and person inputs', () => {
  it('refuses a step whose channel or person is not one Slack ID, naming the input; acts for who ran it', async () => {
    const bot = await startTestBot({
      env: { ALLOWED_CHANNEL_IDS: 'CDISPATCH', ALLOWED_USER_IDS: 'UDISPATCH' },
    });
    bots.push(bot);
    const inputs = {
      receiver_name: 'Maria Santos',
      receiver_phone: '0917 123 4567',
      receiver_address: '88 Rizal Ave',
      receiver_city: 'Cebu City',
      weight_kg: 1,
      item_description: 'Scales',
      channel_id: 'CDISPATCH',
      requested_by: 'UDISPATCH',
    };
    const cases: [Record<string, unknown>, string][] = [
      [{ channel_id: ['C0SECRET1'] }, 'channel_id:'],
      [{ channel_id: 12345 }, 'channel_id:'],
      [{ channel_id: undefined }, 'channel_id:'],
      [{ requested_by: ['U0OUTSIDER'], recorded_by: 'UDISPATCH' }, 'requested_by:'],
      [{ interactivity: { interactor: { id: 'UOUTSIDER' } } }, 'not on the list'],
    ];
    for (const [changes, error] of cases) {
      const { completion } = await bot.step({ callbackId: ids.stepBook, inputs: { ...inputs, ...changes } });
      expect(completion.method, JSON.stringify(changes)).toBe('functions.completeError');
      expect(String(completion.body.error), JSON.stringify(changes)).toContain(error);
    }
    expect(await bot.deps.store.bookings.get('WB000001')).toBeUndefined();
    expect(bot.sandbox.bookings.size).toBe(0);

    // find_waybill with a dispatcher's ID typed by the author, run by someone else: refused.
    const found = await bot.step({
      callbackId: ids.stepFind,
      inputs: {
        query: 'maria',
        requested_by: 'UDISPATCH',
        interactivity: { interactor: { id: 'UOUTSIDER' } },
      },
    });
    expect(found.completion.method).toBe('functions.completeError');
    // Run by the dispatcher: it acts for them.
    const mine = await bot.step({
      callbackId: ids.stepBook,
      inputs: { ...inputs, requested_by: 'UOUTSIDER', interactivity: { interactor: { id: 'UDISPATCH' } } },
    });
    expect(mine.completion.method, String(mine.completion.body.error)).toBe('functions.completeSuccess');
    expect(await bot.deps.store.bookings.get('WB000001')).toMatchObject({ bookedBy: 'UDISPATCH' });
  });
});
