/**
 * Receivers' SMS end to end on both backends, through Slack's protocol and a fake Semaphore on
 * loopback: a booking texts once and says so in its card's thread; quiet hours hold it until 08:00
 * Manila; a 429 is sent again after its Retry-After, never twice; a gateway down leaves it queued and
 * says so; a phone that is no mobile is not texted, nor a receiver who asked not to be; two replicas on one database text a failed
 * attempt once; the log gateway sends nothing; the API key is never written anywhere.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { FakeSemaphore } from '../../fakes/semaphore-fake.js';
import { describeEachBackend } from '../store/backends.js';
import { bookThroughModal, botsPerTest, fillToReview } from '../support/booking-flow.js';
import { manilaClock, type TestBot } from '../support/bot-harness.js';

const API_KEY = 'semaphore-test-key-7f3a9c';
const RECEIVER = '639171234567';

const { started } = botsPerTest();

/** The SMS lines in the booking card's thread. */
async function smsLines(bot: TestBot): Promise<string[]> {
  const card = await bot.deps.store.bookings.get('WB000001');
  return bot.fake
    .callsTo('chat.postMessage')
    .filter((call) => call.body.thread_ts === card?.cardTs && call.body.channel === card?.cardChannelId)
    .filter(
      (call) => (call.body.metadata as { event_type?: string } | undefined)?.event_type === 'receiver_sms',
    )
    .map((call) => String(call.body.text));
}

const smsTurn = (bot: TestBot) => bot.deps.jobs.turn('sms');

describeEachBackend(import.meta.filename, 'receiver SMS', (backend) => {
  let semaphore: FakeSemaphore;
  const clock = manilaClock();
  beforeEach(async () => {
    clock.set(0, '10:00');
    semaphore = await FakeSemaphore.start(() => clock.now().getTime());
  });
  afterEach(() => semaphore.stop());

  const env = () => ({
    SMS_GATEWAY: 'semaphore',
    SEMAPHORE_API_KEY: API_KEY,
    SEMAPHORE_URL: semaphore.url,
    SMS_SENDER_NAME: 'ACMESHOP',
    AUDIT_CHANNEL_ID: 'CAUDIT',
  });

  /** A replica on this test's database, its store on the test's clock too. */
  async function replica(extra: Record<string, string>, socketMode = false): Promise<TestBot> {
    return started({ store: await backend.open({ now: clock.now }), now: clock.now, env: extra, socketMode });
  }

  /** A bot with WB000001 booked (COD 1,500.00 to 0917 123 4567). */
  async function booked(extra: Record<string, string> = {}, socketMode = false): Promise<TestBot> {
    const bot = await replica({ ...env(), ...extra }, socketMode);
    await bookThroughModal(bot);
    return bot;
  }

  it('a booking texts the receiver once, in its channel’s language, and says so in its thread', async () => {
    const bot = await booked({ SMS_CHANNEL_LANGUAGES: 'CDISPATCH=fil' });
    await smsTurn(bot);
    await smsTurn(bot);
    expect(semaphore.calls).toHaveLength(1);
    const [call] = semaphore.calls;
    expect(call).toMatchObject({ apikey: API_KEY, number: RECEIVER, sendername: 'ACMESHOP' });
    expect(call?.message).toMatch(/naka-book na ang order WB000001, COD PHP 1,500\.00, darating sa/);
    expect(await smsLines(bot)).toEqual([
      expect.stringMatching(
        /^:speech_balloon: Texted the receiver the booking SMS \(Filipino\) through semaphore: “.*naka-book na/,
      ),
    ]);
    expect(bot.logs.filter((line) => line.includes(API_KEY))).toEqual([]);
    expect(bot.fake.calls.filter((c) => c.rawBody.includes(API_KEY))).toEqual([]);
  });

  it('quiet hours hold it until 08:00 Manila, said once; then it goes', async () => {
    clock.set(0, '22:30');
    const bot = await booked();
    await smsTurn(bot);
    clock.set(1, '07:59');
    await smsTurn(bot);
    expect(semaphore.calls).toEqual([]);
    expect(await smsLines(bot)).toEqual([
      ":zzz: Receiver's quiet hours: the booking SMS is held and goes at Tue 08:00 (Manila).",
    ]);
    clock.set(1, '08:00');
    await smsTurn(bot);
    expect(semaphore.calls).toHaveLength(1);
    expect(semaphore.calls[0]?.at).toBe(clock.now().getTime());
    expect(await smsLines(bot)).toHaveLength(2);
  });

  it('a 429 is sent again after its Retry-After, never before, never twice', async () => {
    const bot = await booked();
    semaphore.respond({ status: 429, retryAfter: 30 });
    await smsTurn(bot);
    clock.set(0, '10:00');
    await smsTurn(bot);
    expect(semaphore.calls).toHaveLength(1);
    expect(await smsLines(bot)).toEqual([
      ':hourglass_flowing_sand: The booking SMS is still queued: Semaphore asked to slow down (429). The bot tries again by itself.',
    ]);
    const at = clock.now().getTime();
    clock.set(0, '10:01');
    await smsTurn(bot);
    await smsTurn(bot);
    expect(semaphore.calls.map((call) => call.at - at)).toEqual([0, 60_000]);
    expect(await smsLines(bot)).toHaveLength(2);
    expect((await smsLines(bot))[1]).toMatch(/^:speech_balloon: Texted the receiver/);
  });

  it('over Socket Mode as over HTTP: one SMS, one line', async () => {
    const bot = await booked({}, true);
    await smsTurn(bot);
    await smsTurn(bot);
    expect(semaphore.calls).toHaveLength(1);
    expect(await smsLines(bot)).toEqual([expect.stringMatching(/^:speech_balloon: Texted the receiver/)]);
  });

  it('a gateway down leaves it queued, and the thread says so once', async () => {
    const bot = await booked();
    await semaphore.stop();
    await smsTurn(bot);
    expect(await smsLines(bot)).toEqual([
      expect.stringMatching(
        /^:hourglass_flowing_sand: The booking SMS is still queued: Semaphore could not be reached/,
      ),
    ]);
    expect(await bot.deps.store.sms.of('WB000001')).toMatchObject([{ state: 'queued', tries: 1 }]);
    clock.set(0, '10:05');
    await smsTurn(bot);
    expect(await smsLines(bot)).toHaveLength(1);
    expect(await bot.deps.store.sms.of('WB000001')).toMatchObject([{ state: 'queued', tries: 2 }]);
  });

  it('a phone that is no mobile is not texted, and the thread says so', async () => {
    const bot = await booked();
    await backend.query(
      `update bookings set record = replace(record, '0917 123 4567', '(02) 8123 4567') where tracking_number = 'WB000001'`,
    );
    await smsTurn(bot);
    expect(semaphore.calls).toEqual([]);
    expect(await smsLines(bot)).toEqual([
      ':no_mobile_phones: The receiver is not texted the booking SMS: their phone is not a mobile number.',
    ]);
  });

  it('a receiver who asked not to be texted is not, on any booking, until a dispatcher says so; the thread says why', async () => {
    const bot = await replica(env());
    const stop = await bot.command('/waybill', 'sms stop +63 917 123 4567');
    expect(String(stop.body.text)).toContain('639171234567 is not texted any more');
    expect(String((await bot.command('/waybill', 'sms stop 0917-123-4567')).body.text)).toMatch(
      /^Already so/,
    );
    expect(String((await bot.command('/waybill', 'sms stop 02 8123 4567')).body.text)).toContain(
      'not a Philippine mobile number',
    );
    await bookThroughModal(bot);
    await smsTurn(bot);
    expect(semaphore.calls).toEqual([]);
    expect(await smsLines(bot)).toEqual([
      ':no_bell: The receiver is not texted the booking SMS: they asked not to be (`/waybill sms start <phone>` texts them again).',
    ]);
    expect(String((await bot.command('/waybill', 'sms start 09171234567')).body.text)).toContain(
      'texted again',
    );
    await bot.command('/waybill', 'status WB000001 failed not at home');
    await smsTurn(bot);
    expect(semaphore.calls.map((call) => call.number)).toEqual([RECEIVER]);
    // Newest first.
    expect((await bot.deps.store.audit.list({ operation: 'sms' })).map((entry) => entry.detail)).toEqual([
      'texted again: 639171234567',
      'not to be texted: 639171234567',
    ]);
  });

  it('a failed attempt recorded on one of two replicas is texted once, with one line', async () => {
    const first = await booked({ SMS_EVENTS: 'failed_attempt' });
    const second = await replica({ ...env(), SMS_EVENTS: 'failed_attempt' });
    await Promise.all([smsTurn(first), smsTurn(second)]);
    await second.command('/waybill', 'status WB000001 failed attempt not-at-home');
    await second.idle();
    expect((await second.deps.store.sms.of('WB000001')).map((row) => [row.event, row.attempt])).toEqual([
      ['booked', undefined],
      ['failed_attempt', 1],
    ]);
    await Promise.all([smsTurn(first), smsTurn(second), smsTurn(first), smsTurn(second)]);
    expect(semaphore.calls).toHaveLength(1);
    expect(semaphore.calls[0]?.message).toContain('was not delivered (nobody was home), first try');
    const lines = [...(await smsLines(first)), ...(await smsLines(second))];
    expect(lines).toEqual([
      expect.stringMatching(/^:speech_balloon: Texted the receiver the failed attempt SMS/),
    ]);
  });

  it('Out for delivery, recorded by its words, texts the receiver to have the COD money ready', async () => {
    const bot = await booked({ SMS_EVENTS: 'out_for_delivery' });
    await bot.command('/waybill', 'status WB000001 ofd');
    await bot.idle();
    await smsTurn(bot);
    expect(semaphore.calls.map((call) => call.message)).toEqual([
      expect.stringContaining('order WB000001 is out for delivery today. Please prepare PHP 1,500.00.'),
    ]);
    expect(await smsLines(bot)).toEqual([
      expect.stringMatching(/^:speech_balloon: Texted the receiver the out for delivery SMS \(English\)/),
    ]);
  });

  it('the review says which SMS the receiver gets, in which language, and how texts to that phone fared', async () => {
    const bot = await booked({ SMS_CHANNEL_LANGUAGES: 'CDISPATCH=fil', SMS_EVENTS: 'booked,failed_attempt' });
    semaphore.respond({ status: 422, body: { number: ['The number is blocked.'] } });
    await smsTurn(bot);
    expect(await smsLines(bot)).toEqual([
      ':warning: The booking SMS was not sent: Semaphore refused it (422): The number is blocked.',
    ]);
    const review = await fillToReview(bot);
    const said = JSON.stringify(review.blocks);
    expect(said).toContain(
      ':speech_balloon: The receiver is texted in Filipino at booking and failed attempt. · Texts to this phone so far: 1, 1 failed.',
    );
  });

  it('the log gateway (the default) sends nothing and shows what it would have texted', async () => {
    const bot = await replica({ AUDIT_CHANNEL_ID: 'CAUDIT' });
    await bookThroughModal(bot);
    await smsTurn(bot);
    expect(semaphore.calls).toEqual([]);
    expect(await smsLines(bot)).toEqual([
      expect.stringMatching(
        /^:memo: Would have texted the receiver the booking SMS \(English\) \(SMS_GATEWAY is log: nothing was sent\): “.*order WB000001 is booked, COD PHP 1,500\.00/,
      ),
    ]);
  });
});
