/**
 * Tracking numbers recognised in channel messages, on SQLite and PostgreSQL and over Socket Mode: off until
 * `/waybill recognise on`, one reply in the thread (escaped, the card's buttons), once a number a thread
 * (also with two replicas given the same message at once), never for edits, bots or the card's own thread,
 * three shown and Show all, `off`; the channel rule and the update permission; tracking-page links unfurled
 * (`link_shared`, `chat.unfurl`), none without `TRACKING_URL_TEMPLATE`; 10,000 fuzzed ordinary messages read
 * as naming nothing, a sample of them sent making no Slack call, store write or lookup; replies rate-limited
 * (429) waited out, a refused one's numbers given back; events holding fields of another type not answered.
 */
import fc from 'fast-check';
import { afterEach, expect, it } from 'vitest';
import { ids } from '../../fakes/ids.js';
import { numbersIn, trackingPattern } from '../../src/slack/recognise/message.js';
import { openStore } from '../../src/store/index.js';
import { describeEachBackend } from '../store/backends.js';
import { bookStepInputs } from '../support/booking-flow.js';
import { startTestBot, type TestBot } from '../support/bot-harness.js';

let bot: TestBot | undefined;

afterEach(async () => {
  await bot?.stop();
  bot = undefined;
});

let messageTs = 1_764_000_000;
const nextTs = () => {
  messageTs += 1;
  return `${messageTs}.000200`;
};

/** A booking made through the book_waybill step, its card in `channel`. */
async function booked(running: TestBot, channel = 'CORDERS', name = 'Maria <Santos>'): Promise<string> {
  const { completion } = await running.step({
    callbackId: ids.stepBook,
    inputs: bookStepInputs(channel, name),
  });
  return (completion.body.outputs as { tracking_number: string }).tracking_number;
}

/** A user's message in a channel, as the Events API delivers it; its ts. */
async function say(running: TestBot, text: string, extra: Record<string, unknown> = {}): Promise<string> {
  const ts = nextTs();
  const response = await running.event({
    type: 'message',
    channel: 'CORDERS',
    channel_type: 'channel',
    user: 'UDISPATCH',
    text,
    ts,
    ...extra,
  });
  expect(response.status).toBe(200);
  return ts;
}

const threadReplies = (running: TestBot) =>
  running.fake
    .callsTo('chat.postMessage')
    .filter(
      (call) =>
        call.body.thread_ts !== undefined &&
        call.body.channel === 'CORDERS' &&
        !String(call.body.text).startsWith('Booked'),
    );

describeEachBackend(import.meta.filename, 'tracking numbers in messages', (backend) => {
  it('answers once a number a thread, only where turned on, never edits, bots or the card’s own thread', async () => {
    bot = await startTestBot({ backend });
    const numbers = [];
    for (let i = 0; i < 5; i++) numbers.push(await booked(bot));
    const [first, second, third] = numbers as [string, string, string];
    const before = threadReplies(bot).length;
    await say(bot, `did ${first} go out?`);
    expect(threadReplies(bot)).toHaveLength(before);

    const on = await bot.command('/waybill', 'Recognise ON', { channel_id: 'CORDERS' });
    expect(String(on.body?.text)).toContain('now recognised');
    expect(await bot.deps.store.recognition.isOn('CORDERS')).toBe(true);

    const asked = await say(bot, `did ${first} go out? and <${second}>, WB999999, X${first}`);
    const replies = threadReplies(bot).slice(before);
    expect(replies).toHaveLength(1);
    expect(replies[0]?.body.thread_ts).toBe(asked);
    const shown = JSON.stringify(replies[0]?.body.blocks);
    expect(shown).toContain(first);
    expect(shown).toContain(second);
    expect(shown).not.toContain('WB999999');
    expect(shown).toContain('Maria &lt;Santos&gt;');
    expect(shown).not.toContain('<Santos>');
    for (const action of [ids.waybillUpdate, ids.statusOpen, ids.bookRebook, ids.labelsPrint])
      expect(shown).toContain(action);

    // In the same thread again, and its re-delivery: nothing more.
    await say(bot, `${first} again?`, { thread_ts: asked });
    expect(threadReplies(bot).slice(before)).toHaveLength(1);
    // Edits, bots (ours too), and a booking's card thread.
    await say(bot, third, { subtype: 'message_changed' });
    await say(bot, third, { bot_id: 'BBOT', user: 'UBOT' });
    const card = await bot.deps.store.bookings.get(third);
    await say(bot, `${third} picked up`, { thread_ts: card?.cardTs });
    expect(threadReplies(bot).slice(before)).toHaveLength(1);

    // Five numbers: three shown, and 2 more behind Show all.
    const many = await say(bot, numbers.join(' '));
    const last = threadReplies(bot).at(-1);
    expect(last?.body.thread_ts).toBe(many);
    const blocks = last?.body.blocks as {
      type: string;
      accessory?: { action_id: string; value: string };
      text?: { text: string };
    }[];
    expect(blocks.filter((b) => b.type === 'actions')).toHaveLength(3);
    const showAll = blocks.find((b) => b.accessory?.action_id === ids.recogniseShowAll);
    expect(showAll?.text?.text).toBe('and 2 more');
    await bot.clickInMessage(ids.recogniseShowAll, showAll?.accessory?.value ?? '', { channelId: 'CORDERS' });
    const all = await bot.fake.waitFor(
      'response_url',
      (post) =>
        JSON.stringify(post.body).includes(ids.recogniseShowAll) === false &&
        JSON.stringify(post.body).includes('5 bookings'),
    );
    for (const n of numbers) expect(JSON.stringify(all.body.blocks)).toContain(n);

    await bot.command('/waybill', 'recognise off', { channel_id: 'CORDERS' });
    const count = threadReplies(bot).length;
    await say(bot, `what about ${first}?`);
    expect(threadReplies(bot)).toHaveLength(count);
  });

  it('two replicas given the same message at once reply once, the setting read from the database', async () => {
    bot = await startTestBot({ backend, store: await backend.open() });
    const other = await startTestBot({ backend, store: await backend.open() });
    try {
      const number = await booked(bot);
      // Turned on through one replica, seen by the other.
      await bot.command('/waybill', 'recognise on', { channel_id: 'CORDERS' });
      const message = {
        type: 'message',
        channel: 'CORDERS',
        user: 'UDISPATCH',
        text: `${number}?`,
        ts: nextTs(),
      };
      await Promise.all([bot.event(message), other.event(message)]);
      const replies = [bot, other].flatMap((running) =>
        running.fake.callsTo('chat.postMessage').filter((call) => call.body.thread_ts === message.ts),
      );
      expect(replies).toHaveLength(1);
    } finally {
      await other.stop();
    }
  });

  it('Slack rate-limiting the replies (429, Retry-After): each waited out and posted, none lost', async () => {
    bot = await startTestBot({ backend });
    const number = await booked(bot);
    await bot.command('/waybill', 'recognise on', { channel_id: 'CORDERS' });
    // One post a second, as Slack allows in a channel: every other post at the same moment is refused.
    let lastPosted = 0;
    bot.fake.respond('chat.postMessage', (_body, call) => {
      if (call.receivedAt - lastPosted < 1000) return { status: 429, retryAfter: 1 };
      lastPosted = call.receivedAt;
      return undefined;
    });
    const threads = Array.from({ length: 3 }, () => nextTs());
    const answers = await Promise.all(
      threads.map((ts) =>
        bot?.event({ type: 'message', channel: 'CORDERS', user: 'UDISPATCH', text: `${number}?`, ts }),
      ),
    );
    expect(answers.map((a) => a?.status)).toEqual([200, 200, 200]);
    const replied = bot.fake
      .callsTo('chat.postMessage')
      .filter((c) => c.response?.status === 200 && threads.includes(String(c.body.thread_ts)));
    expect(replied.map((c) => c.body.thread_ts).sort()).toEqual([...threads].sort());
    expect(bot.fake.calls.some((c) => c.response?.status === 429)).toBe(true);
  });

  it('a reply Slack finally refuses gives its number back: the thread’s next mention is answered', async () => {
    bot = await startTestBot({ backend });
    const number = await booked(bot);
    await bot.command('/waybill', 'recognise on', { channel_id: 'CORDERS' });
    bot.fake.respond('chat.postMessage', { ok: false, error: 'fatal_error' }, { times: 1 });
    const asked = nextTs();
    await bot.event({
      type: 'message',
      channel: 'CORDERS',
      user: 'UDISPATCH',
      text: `${number}?`,
      ts: asked,
    });
    await bot.idle();
    const posted = () =>
      threadReplies(bot as TestBot).filter((c) => (c.response?.body as { ok?: boolean } | undefined)?.ok);
    expect(posted()).toHaveLength(0);
    await say(bot, `${number} again?`, { thread_ts: asked });
    const answered = posted();
    expect(answered.map((c) => c.body.thread_ts)).toEqual([asked]);
  });
});

const TEMPLATE = 'https://courier.example/track/{tn}';

/** A link_shared event for these links in CORDERS, as Slack sends it for a posted message. */
const linksShared = (running: TestBot, urls: string[], user = 'UDISPATCH') =>
  running.event({
    type: 'link_shared',
    channel: 'CORDERS',
    user,
    message_ts: nextTs(),
    source: 'conversations_history',
    unfurl_id: `U${messageTs}`,
    links: urls.map((url) => ({ domain: new URL(url).hostname, url })),
  });

it('unfurls links to the courier tracking page as the booking, and none when the template is unset', async () => {
  bot = await startTestBot({ env: { TRACKING_URL_TEMPLATE: TEMPLATE } });
  const number = await booked(bot);
  const page = TEMPLATE.replace('{tn}', number);
  await linksShared(bot, [page, TEMPLATE.replace('{tn}', 'WB999999'), 'https://courier.example/about']);
  const unfurl = await bot.fake.waitFor('chat.unfurl');
  expect(unfurl.body).toMatchObject({ unfurl_id: `U${messageTs}`, source: 'conversations_history' });
  const unfurls = unfurl.body.unfurls as Record<string, { blocks: unknown[] }>;
  expect(Object.keys(unfurls)).toEqual([page]);
  const blocks = JSON.stringify(unfurls[page]?.blocks);
  expect(blocks).toContain('Maria &lt;Santos&gt;');
  for (const action of [ids.waybillUpdate, ids.statusOpen, ids.bookRebook, ids.labelsPrint])
    expect(blocks).toContain(action);
  await bot.stop();

  bot = await startTestBot();
  const other = await booked(bot);
  const response = await linksShared(bot, [TEMPLATE.replace('{tn}', other)]);
  expect(response.status).toBe(200);
  expect(bot.fake.callsTo('chat.unfurl')).toEqual([]);
});

it('answers over Socket Mode too', async () => {
  bot = await startTestBot({ socketMode: true });
  const number = await booked(bot);
  await bot.command('/waybill', 'recognise on', { channel_id: 'CORDERS' });
  const asked = await say(bot, `is ${number} out?`);
  const reply = await bot.fake.waitFor('chat.postMessage', (call) => call.body.thread_ts === asked);
  expect(JSON.stringify(reply.body.blocks)).toContain(number);
});

it('never shows a booking from a channel outside ALLOWED_CHANNEL_IDS, and needs the update permission to turn on', async () => {
  const store = await openStore({ path: ':memory:', leaseRenewMs: 0 });
  try {
    bot = await startTestBot({ store });
    const outside = await booked(bot, 'COTHER');
    const inside = await booked(bot, 'CORDERS');
    await bot.stop();
    bot = await startTestBot({
      store,
      env: { ALLOWED_CHANNEL_IDS: 'CORDERS', ALLOWED_USER_IDS: 'UDISPATCH', TRACKING_URL_TEMPLATE: TEMPLATE },
    });
    const refused = await bot.command('/waybill', 'recognise on', {
      channel_id: 'CORDERS',
      user_id: 'UINTRUDER',
    });
    expect(String(refused.body?.text)).toContain('not on the list');
    expect(await store.recognition.isOn('CORDERS')).toBe(false);
    await bot.command('/waybill', 'recognise on', { channel_id: 'CORDERS' });
    const before = threadReplies(bot).length;
    await say(bot, `${outside} and ${inside}`);
    const replies = threadReplies(bot).slice(before);
    expect(replies).toHaveLength(1);
    expect(JSON.stringify(replies[0]?.body)).toContain(inside);
    expect(JSON.stringify(replies[0]?.body)).not.toContain(outside);
    // An unfurl under the same rule: only the booking made in an allowed channel.
    const pages = [outside, inside].map((n) => TEMPLATE.replace('{tn}', n));
    await linksShared(bot, pages);
    const unfurl = await bot.fake.waitFor('chat.unfurl');
    expect(Object.keys(unfurl.body.unfurls as object)).toEqual([pages[1]]);
    // Someone not allowed to look waybills up gets no answer.
    await say(bot, `${inside}?`, { user: 'UINTRUDER' });
    expect(threadReplies(bot).slice(before)).toHaveLength(1);
  } finally {
    await bot?.stop();
    bot = undefined;
    await store.close();
  }
});

it('ordinary messages: no Slack call, no store write, and only our numbers read', async () => {
  bot = await startTestBot();
  await booked(bot);
  await bot.command('/waybill', 'recognise on', { channel_id: 'CORDERS' });
  const pattern = trackingPattern('WB');
  // 10,000 ordinary messages (any text that names no WB and six digits, in any case) read as naming nothing.
  const ordinary = fc.string({ unit: 'grapheme', maxLength: 200 }).filter((text) => !/WB\d{6}/i.test(text));
  fc.assert(
    fc.property(ordinary, (text) => numbersIn(text, pattern).length === 0),
    { numRuns: 10_000 },
  );
  expect(numbersIn('WB000001, (WB000002) xWB000003 WB0000045 #wb000006 Wb000001', pattern)).toEqual([
    'WB000001',
    'WB000002',
    'WB0000045',
    'WB000006',
  ]);

  // Through Slack's signed requests: a sample of them changes nothing and calls nothing.
  const writes: string[] = [];
  let lookups = 0;
  const { deliveries, recognition } = bot.deps.store;
  const { claim } = deliveries;
  deliveries.claim = (id) => {
    writes.push(id);
    return claim(id);
  };
  const claimReply = recognition.claim;
  recognition.claim = (channel, thread, numbers) => {
    writes.push(numbers.join());
    return claimReply(channel, thread, numbers);
  };
  const lookup = recognition.bookingsIn;
  recognition.bookingsIn = (channel, numbers) => {
    lookups += 1;
    return lookup(channel, numbers);
  };
  const calls = bot.fake.calls.length;
  const samples = fc.sample(ordinary, { numRuns: 300, seed: 32 });
  for (const text of samples) await say(bot, text);
  expect(bot.fake.calls.length).toBe(calls);
  expect(writes).toEqual([]);
  expect(lookups).toBe(0);

  // One of our numbers the store does not hold: one lookup, and still nothing said or written.
  await say(bot, 'did WB999999 go out?');
  await bot.idle();
  expect(lookups).toBe(1);
  expect(bot.fake.calls.length).toBe(calls);
  expect(writes).toEqual([]);
});

it('message and link_shared events holding fields of another type are read as untrusted input: no failure, nothing said', async () => {
  bot = await startTestBot({ env: { TRACKING_URL_TEMPLATE: TEMPLATE } });
  const number = await booked(bot);
  await bot.command('/waybill', 'recognise on', { channel_id: 'CORDERS' });
  const calls = bot.fake.calls.length;
  const logged = bot.logs.length;
  const page = TEMPLATE.replace('{tn}', number);
  const base = { channel: 'CORDERS', user: 'UDISPATCH', message_ts: nextTs() };
  for (const event of [
    { type: 'message', channel: 'CORDERS', user: 'UDISPATCH', ts: nextTs(), text: null },
    { type: 'message', channel: 'CORDERS', user: 'UDISPATCH', ts: nextTs(), text: { number } },
    { type: 'message', channel: 'CORDERS', user: { id: 'UDISPATCH' }, ts: nextTs(), text: number },
    { type: 'link_shared', ...base, links: { url: page } },
    { type: 'link_shared', ...base, links: [null, { url: page }] },
    { type: 'link_shared', ...base, links: [{ url: 7 }] },
  ]) {
    const response = await bot.event(event);
    expect(response.status).toBe(200);
  }
  await bot.idle();
  expect(bot.fake.calls.slice(calls).map((c) => c.method)).toEqual([]);
  const failures = bot.logs
    .slice(logged)
    .filter((line) => (JSON.parse(line) as { level: number }).level >= 50);
  expect(failures).toEqual([]);
  // Well-formed ones are still answered.
  const asked = await say(bot, `${number}?`);
  await bot.fake.waitFor('chat.postMessage', (c) => c.body.thread_ts === asked);
  await linksShared(bot, [page]);
  await bot.fake.waitFor('chat.unfurl');
});
