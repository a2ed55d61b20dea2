/**
 * Every metric moved by its event: requests by kind and outcome, ack latency, courier calls ok / refused /
 * unknown with latency, calls in flight, unknown outcomes outstanding, Slack API errors and rate-limit waits,
 * bulk rows; the request id on a request's lines, the courier's included; `/metrics` scraped.
 */
// The metrics, each moved by its event through a whole bot (signed requests, the fake Slack, the sandbox), and scraped as Prometheus text; the request id on a request's log lines.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ids } from '../../fakes/ids.js';
import { postToApp } from '../../fakes/post-to-app.js';
import { quoteCommandText, quoteTyped } from '../../fakes/quote-values.js';
import { blockActionsPayload, interactiveBody } from '../../fakes/slack-requests.js';
import { fillToReview } from '../support/booking-flow.js';
import { secrets, startTestBot, type TestBot } from '../support/bot-harness.js';
import { bulkFile, bulkRow } from '../support/bulk-file.js';
import { sample, until } from '../support/metrics.js';
import { checkedImport } from '../support/slack-driver.js';

let bot: TestBot;
/** The probes' listener of their own (HEALTH_PORT), where /metrics is served. */
let server: Server | undefined;

afterEach(async () => {
  server?.close();
  server = undefined;
  await bot?.stop();
});

const logLines = (lines: string[]) => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

describe('metrics', () => {
  it('requests by kind and outcome, the ack latency, a quote call in flight then ok; one request id on its lines', async () => {
    bot = await startTestBot();
    const { metrics } = bot.deps;
    await bot.command('/quote', quoteCommandText);
    expect(await sample(metrics, 'waybill_slack_requests_total', { kind: 'command', outcome: 'ok' })).toBe(1);
    expect(await sample(metrics, 'waybill_slack_ack_seconds', { kind: 'command' }, '_count')).toBe(1);
    const form = await bot.openedView();

    let answer: (value?: unknown) => void = () => undefined;
    bot.sandbox.injectNext({ holdUntil: new Promise((resolve) => (answer = resolve)) });
    await bot.submit(form, quoteTyped);
    expect(await sample(metrics, 'waybill_slack_ack_seconds', { kind: 'view_submission' }, '_count')).toBe(1);
    await until(() => sample(metrics, 'waybill_attempts_in_flight'), 1);
    answer();
    await bot.idle();
    expect(await sample(metrics, 'waybill_attempts_in_flight')).toBe(0);
    expect(await sample(metrics, 'waybill_courier_calls_total', { operation: 'quote', outcome: 'ok' })).toBe(
      1,
    );
    expect(
      await sample(metrics, 'waybill_courier_call_seconds', { operation: 'quote', outcome: 'ok' }, '_count'),
    ).toBe(1);
    expect(await sample(metrics, 'waybill_slack_requests_total', { kind: 'view_submission' })).toBe(1);

    // The courier's line carries the submission's id, as its other lines do, and not the command's.
    const lines = logLines(bot.logs);
    const courierLine = lines.find((line) => line.msg === 'waybill api call');
    const requestId = courierLine?.requestId;
    expect(requestId).toEqual(expect.any(String));
    expect(lines.filter((line) => line.requestId === requestId).length).toBeGreaterThan(1);
    const commandIds = new Set(
      lines.filter((line) => JSON.stringify(line).includes('/quote')).map((line) => line.requestId),
    );
    expect(commandIds.has(requestId)).toBe(false);

    server = await bot.deps.probes.listen(0);
    const scraped = await (
      await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`)
    ).text();
    expect(scraped).toContain('waybill_courier_calls_total{operation="quote",outcome="ok"} 1');
    expect(scraped).toContain('process_cpu_seconds_total');
    expect(scraped).not.toContain('UDISPATCH');
  });

  it('a request Bolt cannot route counts as an error', async () => {
    bot = await startTestBot();
    const payload = blockActionsPayload({ actionId: ids.quoteRetry, value: 'x' }) as Record<string, unknown>;
    const body = interactiveBody({ ...payload, actions: {} });
    expect((await postToApp(bot.url, secrets.signingSecret, body)).status).toBe(400);
    expect(
      await sample(bot.deps.metrics, 'waybill_slack_requests_total', {
        kind: 'block_actions',
        outcome: 'error',
      }),
    ).toBe(1);
  });

  it('booking calls refused and of unknown outcome, and the unknown ones outstanding in the database', async () => {
    bot = await startTestBot();
    const { metrics } = bot.deps;
    expect(await sample(metrics, 'waybill_unknown_outcomes_outstanding')).toBe(0);
    bot.sandbox.injectNext({ status: 401, body: '{"ResponseCode":"401"}', contentType: 'application/json' });
    await bot.submit(await fillToReview(bot));
    await bot.idle();
    expect(
      await sample(metrics, 'waybill_courier_calls_total', { operation: 'book', outcome: 'refused' }),
    ).toBe(1);

    bot.sandbox.injectNext({ dropAfterProcessing: true });
    await bot.submit(await fillToReview(bot));
    await bot.idle();
    expect(
      await sample(metrics, 'waybill_courier_calls_total', { operation: 'book', outcome: 'unknown' }),
    ).toBe(1);
    expect(await sample(metrics, 'waybill_unknown_outcomes_outstanding')).toBe(1);
  });

  it('Slack API errors by method and code, and rate-limit waits', async () => {
    bot = await startTestBot();
    const { metrics } = bot.deps;
    bot.fake.respond('views.open', { ok: false, error: 'expired_trigger_id' }, { times: 1 });
    await bot.command('/quote', quoteCommandText);
    await bot.idle();
    await bot.fake.waitFor('views.open');
    expect(
      await sample(metrics, 'waybill_slack_api_errors_total', {
        method: 'views.open',
        error: 'expired_trigger_id',
      }),
    ).toBe(1);

    bot.fake.respond('views.open', { status: 429, retryAfter: 1 }, { times: 1 });
    await bot.command('/quote', quoteCommandText);
    await until(() => sample(metrics, 'waybill_slack_rate_limit_waits_total', { method: 'views.open' }), 1);
    await bot.idle();
  });

  it('bulk rows by outcome', async () => {
    bot = await startTestBot();
    const file = bot.fake.addFile({
      name: 'orders.csv',
      content: bulkFile(bulkRow('Ana Cruz'), bulkRow('Ben Reyes')),
    });
    const summary = await checkedImport(bot, file.id);
    bot.sandbox.injectNext({}, { dropAfterProcessing: true });
    await bot.submit(summary);
    await bot.idle();
    const rows = (outcome: string) => sample(bot.deps.metrics, 'waybill_bulk_rows_total', { outcome });
    expect([await rows('booked'), await rows('unknown')]).toEqual([1, 1]);
  });
});
