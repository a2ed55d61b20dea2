/**
 * The client against the sandbox over loopback: rejections, faults, retries, outcome unknown; tolerant
 * reading of answers.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import {
  classifyTransportFailure,
  createWaybillClient,
  retryAfterMsOf,
  type WaybillClientOptions,
} from '../../src/waybill/client.js';
import {
  isOutcomeUnknown,
  MalformedResponseError,
  rateLimitOf,
  UpstreamHttpError,
  UpstreamNetworkError,
  UpstreamRejectedError,
  UpstreamTimeoutError,
  type WaybillApiError,
} from '../../src/waybill/errors.js';
import {
  bodyExcerpt,
  normaliseAmount,
  readBookingResponse,
  readQuoteResponse,
  readUpdateResponse,
} from '../../src/waybill/responses.js';
import { type Sandbox, startSandbox } from '../../src/waybill/sandbox/server.js';
import {
  sampleBooking,
  sampleQuotation,
  sampleUpdate,
  uniqueTrackingNumber,
} from '../support/wire-samples.js';

const TOKEN = 'tok-Upstream-5ecret-7f3a9c';

/** Everything any client logged and every error message produced in this file: checked for the token. */
const everything: string[] = [];

interface LogLine {
  level: number;
  msg: string;
  operation: string;
  trackingNumber?: string;
  status: number | null;
  latencyMs: number;
  attempts: number;
  outcome: string;
  outcomeUnknown?: boolean;
}

const openClients: { close(): Promise<void> }[] = [];

function makeClient(baseUrl: string, overrides: Partial<WaybillClientOptions> = {}) {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      const s = chunk.toString('utf8');
      chunks.push(s);
      everything.push(s);
      cb();
    },
  });
  // No `secrets` on purpose: the client itself must keep the token out of log lines.
  const logger = createLogger({ level: 'trace', destination: stream });
  const client = createWaybillClient({
    baseUrl,
    token: TOKEN,
    timeoutMs: 2_000,
    logger,
    retryBaseDelayMs: 1,
    ...overrides,
  });
  openClients.push(client);
  const logs = () =>
    chunks
      .join('')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as LogLine);
  return { client, logs };
}

/** Awaits a rejection and returns the typed error (recording its texts for the token check). */
async function failure(p: Promise<unknown>): Promise<WaybillApiError> {
  try {
    await p;
  } catch (e) {
    const err = e as WaybillApiError;
    everything.push(err.message, err.userMessage(), JSON.stringify(err), String(err.stack));
    return err;
  }
  throw new Error('expected the call to fail');
}

afterEach(async () => {
  await Promise.all(openClients.splice(0).map((c) => c.close()));
});

afterAll(() => {
  const all = everything.join('\n');
  expect(all.length).toBeGreaterThan(0);
  expect(all).not.toContain(TOKEN);
});

describe('against the sandbox', () => {
  let sandbox: Sandbox;

  beforeAll(async () => {
    sandbox = await startSandbox({ token: TOKEN });
  });
  afterAll(async () => {
    await sandbox.close();
  });
  afterEach(() => {
    sandbox.setFaults(undefined);
    sandbox.received.length = 0;
  });

  it('quote: POSTs the body with the exact headers to base + path and normalises the amounts', async () => {
    const { client, logs } = makeClient(sandbox.baseUrl);
    const body = sampleQuotation();
    const result = await client.quote(body);
    expect(result.deliveryCharge).toMatch(/^\d+\.\d{2}$/);
    expect(result.vat).toMatch(/^\d+\.\d{2}$/);
    expect(result.totalCharge).toMatch(/^\d+\.\d{2}$/);

    expect(sandbox.received).toHaveLength(1);
    const [req] = sandbox.received;
    expect(req?.operation).toBe('quote');
    expect(req?.path).toBe('/sandbox/API/Waybill/WaybillQuote');
    expect(req?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(req?.headers['content-type']).toBe('application/json');
    expect(req?.headers.accept).toBe('application/json');
    expect(req?.body).toEqual(body);

    const lines = logs();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      operation: 'quote',
      status: 200,
      attempts: 1,
      outcome: 'ok',
    });
    expect(lines[0]).not.toHaveProperty('trackingNumber');
    expect(lines[0]).not.toHaveProperty('outcomeUnknown');
    expect(typeof lines[0]?.latencyMs).toBe('number');
  });

  it('book then update: results read, booking stored, one info line per call', async () => {
    const { client, logs } = makeClient(sandbox.baseUrl);
    const tn = uniqueTrackingNumber();
    const booked = await client.book(sampleBooking(tn));
    expect(booked.trackingRefNo).toMatch(/^SBX\d+$/);
    expect(booked.responseDetail).toBe('Success');
    expect(booked.remarks).toBe('Waybill created');
    expect(booked.returnNum).toBe(3);
    expect(typeof booked.id).toBe('number');
    expect(sandbox.bookings.has(tn)).toBe(true);

    const updated = await client.update(sampleUpdate(tn));
    expect(updated.responseMessage).toContain(tn);
    expect(updated.responseDetail).toBe('Transaction successful');
    expect(sandbox.bookings.get(tn)?.handlingInstructions).toBe('Call before delivery');

    expect(sandbox.received.map((r) => r.path)).toEqual([
      '/sandbox/API/Waybill/WaybillRequest',
      '/sandbox/API/Waybill/WaybillUpdate',
    ]);
    expect(logs()).toMatchObject([
      { level: 30, operation: 'book', trackingNumber: tn, status: 200, attempts: 1, outcome: 'ok' },
      { level: 30, operation: 'update', trackingNumber: tn, status: 200, attempts: 1, outcome: 'ok' },
    ]);
  });

  it('appends the endpoint path to a base address with a versioned path prefix', async () => {
    const live = await startSandbox({ token: TOKEN, pathPrefix: 'courier/api/v2/' });
    try {
      expect(live.baseUrl).toMatch(/\/courier\/api\/v2\/$/);
      const { client } = makeClient(live.baseUrl);
      await client.book(sampleBooking());
      await client.quote(sampleQuotation());
      expect(live.received.map((r) => r.path)).toEqual([
        '/courier/api/v2/API/Waybill/WaybillRequest',
        '/courier/api/v2/API/Waybill/WaybillQuote',
      ]);
    } finally {
      await live.close();
    }
  });

  describe('rejections (not done, never retried)', () => {
    it('duplicate booking: UpstreamRejectedError with the courier reason', async () => {
      const { client, logs } = makeClient(sandbox.baseUrl);
      const tn = uniqueTrackingNumber();
      await client.book(sampleBooking(tn));
      const err = await failure(client.book(sampleBooking(tn)));
      expect(err).toBeInstanceOf(UpstreamRejectedError);
      const r = err as UpstreamRejectedError;
      expect(r).toMatchObject({
        operation: 'book',
        outcome: 'not-done',
        responseCode: '409',
        httpStatus: 409,
      });
      expect(r.responseDetail).toBe('Duplicate trackingNumber');
      expect(r.remarks).toContain(tn);
      expect(r.userMessage()).toContain('Duplicate trackingNumber');
      expect(r.userMessage()).toContain(`waybill ${tn}`);
      expect(r.userMessage()).not.toMatch(/outcome unknown/i);
      expect(isOutcomeUnknown(r)).toBe(false);
      expect(sandbox.received).toHaveLength(2);
      expect(logs()[1]).toMatchObject({ level: 40, operation: 'book', status: 409, outcome: 'rejected' });
      expect(logs()[1]).not.toHaveProperty('outcomeUnknown');
    });

    it('update of an unknown waybill: rejected 404', async () => {
      const { client, logs } = makeClient(sandbox.baseUrl);
      const err = await failure(client.update(sampleUpdate(uniqueTrackingNumber())));
      expect(err).toBeInstanceOf(UpstreamRejectedError);
      expect(err).toMatchObject({ operation: 'update', outcome: 'not-done', responseCode: '404' });
      expect(err.userMessage()).toContain('Nothing was changed');
      expect(logs()).toMatchObject([{ level: 40, outcome: 'rejected', status: 404 }]);
    });

    it('bad token: rejected 401, quote not retried', async () => {
      const { client, logs } = makeClient(sandbox.baseUrl, { token: 'wrong-token' });
      const err = await failure(client.quote(sampleQuotation()));
      expect(err).toBeInstanceOf(UpstreamRejectedError);
      expect(err).toMatchObject({
        operation: 'quote',
        responseCode: '401',
        httpStatus: 401,
        outcome: 'not-done',
      });
      expect(sandbox.received).toHaveLength(1);
      expect(logs()).toMatchObject([{ outcome: 'rejected', attempts: 1 }]);
    });

    it('invalid body: rejected 400 with the courier remarks', async () => {
      const { client } = makeClient(sandbox.baseUrl);
      const body = { ...sampleBooking(), codAmount: '1500' };
      const err = await failure(client.book(body));
      expect(err).toBeInstanceOf(UpstreamRejectedError);
      expect(err).toMatchObject({
        responseCode: '400',
        responseDetail: 'Invalid request',
        outcome: 'not-done',
      });
      expect((err as UpstreamRejectedError).remarks).toMatch(/codAmount/);
      expect(err.userMessage()).toContain('Nothing was booked');
    });
  });

  describe('429: not done, and how long the courier asked the bot to wait', () => {
    it('reads Retry-After in seconds on a 429, and nothing on other statuses or without the header', async () => {
      const { client } = makeClient(sandbox.baseUrl);
      sandbox.injectNext({ status: 429, retryAfter: '3' }, { status: 429 }, { status: 400, retryAfter: '3' });
      const waited = await failure(client.book(sampleBooking(uniqueTrackingNumber())));
      // The sandbox's 429 carries a ResponseCode: a rejection, with the HTTP status beside it.
      expect(waited).toMatchObject({ httpStatus: 429, outcome: 'not-done', retryAfterMs: 3000 });
      expect(rateLimitOf(waited)).toEqual({ retryAfterMs: 3000 });
      const unsaid = await failure(client.book(sampleBooking(uniqueTrackingNumber())));
      expect(rateLimitOf(unsaid)).toEqual({});
      const refused = await failure(client.book(sampleBooking(uniqueTrackingNumber())));
      expect(refused.retryAfterMs).toBeUndefined();
      expect(rateLimitOf(refused)).toBeUndefined();
    });

    it('Retry-After as seconds or an HTTP date; anything else is not read', () => {
      const now = Date.parse('2026-11-24T10:00:00Z');
      expect(retryAfterMsOf('120', now)).toBe(120_000);
      expect(retryAfterMsOf([' 5 '], now)).toBe(5000);
      expect(retryAfterMsOf('Tue, 24 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
      expect(retryAfterMsOf('Tue, 24 Nov 2026 09:00:00 GMT', now)).toBe(0);
      for (const unreadable of [undefined, '', 'soon', '-1', '1.5'])
        expect(retryAfterMsOf(unreadable, now)).toBeUndefined();
    });
  });

  describe('faults on book/update: never retried, outcome unknown once the request was sent', () => {
    it('HTTP 500 on book: UpstreamHttpError, outcome unknown', async () => {
      sandbox.setFaults({ status: 500 });
      const { client, logs } = makeClient(sandbox.baseUrl);
      const tn = uniqueTrackingNumber();
      const err = await failure(client.book(sampleBooking(tn)));
      expect(err).toBeInstanceOf(UpstreamHttpError);
      expect(err).toMatchObject({ operation: 'book', status: 500, outcome: 'unknown' });
      expect(isOutcomeUnknown(err)).toBe(true);
      expect(err.userMessage()).toContain('outcome unknown');
      expect(err.userMessage()).toContain(`waybill ${tn}`);
      expect(err.userMessage()).toContain('Check with the courier before booking again');
      expect(sandbox.received).toHaveLength(1);
      expect(logs()).toMatchObject([
        {
          level: 40,
          operation: 'book',
          trackingNumber: tn,
          status: 500,
          attempts: 1,
          outcome: 'http-error',
          outcomeUnknown: true,
        },
      ]);
    });

    it('HTTP 502 with an HTML page: excerpt without tags, outcome unknown', async () => {
      sandbox.setFaults({
        status: 502,
        body: '<html><head><title>502 Bad Gateway</title><style>body{color:red}</style></head>\n<body>\n  <h1>Bad   Gateway</h1><p>upstream &amp; proxy</p></body></html>',
      });
      const { client } = makeClient(sandbox.baseUrl);
      const err = await failure(client.book(sampleBooking()));
      expect(err).toBeInstanceOf(UpstreamHttpError);
      const h = err as UpstreamHttpError;
      expect(h.status).toBe(502);
      expect(h.bodyExcerpt).toBe('502 Bad Gateway Bad Gateway upstream & proxy');
      expect(h.outcome).toBe('unknown');
    });

    it('HTTP 503 on update: outcome unknown, advises checking before updating again', async () => {
      sandbox.setFaults({ status: 503 });
      const { client } = makeClient(sandbox.baseUrl);
      const tn = uniqueTrackingNumber();
      const err = await failure(client.update(sampleUpdate(tn)));
      expect(err).toMatchObject({ operation: 'update', outcome: 'unknown', status: 503 });
      expect(err.userMessage()).toMatch(/^Update outcome unknown: /);
      expect(err.userMessage()).toContain('Check with the courier before updating again');
      expect(sandbox.received).toHaveLength(1);
    });

    it('2xx with a non-JSON body on book: MalformedResponseError, outcome unknown', async () => {
      sandbox.setFaults({ status: 200, body: 'OK, booked!', contentType: 'text/plain' });
      const { client, logs } = makeClient(sandbox.baseUrl);
      const err = await failure(client.book(sampleBooking()));
      expect(err).toBeInstanceOf(MalformedResponseError);
      expect(err).toMatchObject({
        outcome: 'unknown',
        reason: 'body is not JSON',
        bodyExcerpt: 'OK, booked!',
      });
      expect(err.userMessage()).toContain('outcome unknown');
      expect(logs()).toMatchObject([{ outcome: 'malformed', status: 200, outcomeUnknown: true }]);
    });

    it('dropped connection on book: UpstreamNetworkError sent, outcome unknown, not retried', async () => {
      sandbox.setFaults({ drop: true });
      const { client, logs } = makeClient(sandbox.baseUrl);
      const err = await failure(client.book(sampleBooking()));
      expect(err).toBeInstanceOf(UpstreamNetworkError);
      expect(err).toMatchObject({ operation: 'book', outcome: 'unknown', requestSent: true });
      expect(err.userMessage()).toContain('outcome unknown');
      expect(sandbox.received).toHaveLength(1);
      expect(logs()).toMatchObject([
        { outcome: 'network-error', status: null, attempts: 1, outcomeUnknown: true },
      ]);
    });

    it('booking stored but the answer lost: reported as outcome unknown (and it did happen)', async () => {
      sandbox.setFaults({ dropAfterProcessing: true });
      const { client } = makeClient(sandbox.baseUrl);
      const tn = uniqueTrackingNumber();
      const err = await failure(client.book(sampleBooking(tn)));
      expect(isOutcomeUnknown(err)).toBe(true);
      expect(sandbox.bookings.has(tn)).toBe(true);
    });

    it('latency beyond the timeout on book: UpstreamTimeoutError response phase, outcome unknown', async () => {
      sandbox.setFaults({ latencyMs: 5_000 });
      const { client, logs } = makeClient(sandbox.baseUrl, { timeoutMs: 150 });
      const err = await failure(client.book(sampleBooking()));
      expect(err).toBeInstanceOf(UpstreamTimeoutError);
      expect(err).toMatchObject({ phase: 'response', timeoutMs: 150, outcome: 'unknown' });
      expect(err.userMessage()).toContain('outcome unknown');
      expect(sandbox.received).toHaveLength(1);
      const [line] = logs();
      expect(line).toMatchObject({ outcome: 'timeout', status: null, attempts: 1, outcomeUnknown: true });
      expect(line?.latencyMs).toBeLessThan(4_000);
    });
  });

  describe('faults on quote: retried on 5xx and lost connections only', () => {
    it('5xx then success: retried and succeeds', async () => {
      sandbox.injectNext({ status: 503 }, { status: 502, body: '<h1>bad gateway</h1>' });
      const { client, logs } = makeClient(sandbox.baseUrl);
      const result = await client.quote(sampleQuotation());
      expect(result.totalCharge).toMatch(/^\d+\.\d{2}$/);
      expect(sandbox.received).toHaveLength(3);
      expect(logs()).toMatchObject([
        { level: 30, operation: 'quote', status: 200, attempts: 3, outcome: 'ok' },
      ]);
    });

    it('dropped connection then success: retried and succeeds', async () => {
      sandbox.injectNext({ drop: true });
      const { client, logs } = makeClient(sandbox.baseUrl);
      await client.quote(sampleQuotation());
      expect(sandbox.received).toHaveLength(2);
      expect(logs()).toMatchObject([{ outcome: 'ok', attempts: 2 }]);
    });

    it('5xx on every attempt: gives up after quoteRetries extra attempts, not-done', async () => {
      sandbox.setFaults({ status: 500 });
      const { client, logs } = makeClient(sandbox.baseUrl, { quoteRetries: 2 });
      const err = await failure(client.quote(sampleQuotation()));
      expect(err).toBeInstanceOf(UpstreamHttpError);
      expect(err).toMatchObject({ operation: 'quote', status: 500, outcome: 'not-done' });
      expect(err.userMessage()).not.toMatch(/outcome unknown/i);
      expect(sandbox.received).toHaveLength(3);
      expect(logs()).toMatchObject([{ level: 40, outcome: 'http-error', status: 500, attempts: 3 }]);
      expect(logs()[0]).not.toHaveProperty('outcomeUnknown');
    });

    it('quoteRetries 0: a single attempt', async () => {
      sandbox.setFaults({ status: 500 });
      const { client } = makeClient(sandbox.baseUrl, { quoteRetries: 0 });
      await failure(client.quote(sampleQuotation()));
      expect(sandbox.received).toHaveLength(1);
    });

    it('response timeout: not retried (bounded latency), not-done', async () => {
      sandbox.setFaults({ latencyMs: 5_000 });
      const { client, logs } = makeClient(sandbox.baseUrl, { timeoutMs: 150 });
      const err = await failure(client.quote(sampleQuotation()));
      expect(err).toBeInstanceOf(UpstreamTimeoutError);
      expect(err).toMatchObject({ phase: 'response', outcome: 'not-done' });
      expect(sandbox.received).toHaveLength(1);
      expect(logs()).toMatchObject([{ outcome: 'timeout', attempts: 1 }]);
    });

    it('2xx with a non-JSON body: malformed, not-done, not retried', async () => {
      sandbox.setFaults({ status: 200, body: '<html>maintenance</html>' });
      const { client } = makeClient(sandbox.baseUrl);
      const err = await failure(client.quote(sampleQuotation()));
      expect(err).toBeInstanceOf(MalformedResponseError);
      expect(err.outcome).toBe('not-done');
      expect(sandbox.received).toHaveLength(1);
    });
  });
});

describe('connection refused', () => {
  let refusedBase: string;

  beforeAll(async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    refusedBase = `http://127.0.0.1:${port}/sandbox/`;
  });

  it('book: network error before sending, not-done, safe to retry', async () => {
    const { client, logs } = makeClient(refusedBase);
    const tn = uniqueTrackingNumber();
    const err = await failure(client.book(sampleBooking(tn)));
    expect(err).toBeInstanceOf(UpstreamNetworkError);
    expect(err).toMatchObject({ code: 'ECONNREFUSED', requestSent: false, outcome: 'not-done' });
    expect(err.userMessage()).toContain('connection refused');
    expect(err.userMessage()).toContain('was not sent');
    expect(logs()).toMatchObject([
      {
        level: 40,
        operation: 'book',
        trackingNumber: tn,
        status: null,
        attempts: 1,
        outcome: 'network-error',
      },
    ]);
    expect(logs()[0]).not.toHaveProperty('outcomeUnknown');
  });

  it('quote: retried, then fails not-done', async () => {
    const { client, logs } = makeClient(refusedBase, { quoteRetries: 2 });
    const err = await failure(client.quote(sampleQuotation()));
    expect(err).toMatchObject({ code: 'ECONNREFUSED', outcome: 'not-done' });
    expect(logs()).toMatchObject([{ outcome: 'network-error', attempts: 3 }]);
  });

  it('after close(), calls fail as not sent', async () => {
    const { client } = makeClient(refusedBase);
    await client.close();
    const err = await failure(client.book(sampleBooking()));
    expect(err).toBeInstanceOf(UpstreamNetworkError);
    expect(err.outcome).toBe('not-done');
  });
});

/** A loopback server answering canned responses in order, for bodies the sandbox cannot produce. */
interface Canned {
  status?: number;
  body: string | ((req: IncomingMessage) => string);
  contentType?: string;
}

describe('tolerant reading (canned responses)', () => {
  let server: Server;
  let base: string;
  const queue: Canned[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const c = queue.shift() ?? { status: 500, body: 'no canned response' };
        const body = typeof c.body === 'function' ? c.body(req) : c.body;
        res.writeHead(c.status ?? 200, { 'content-type': c.contentType ?? 'application/json' });
        res.end(body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2/`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  afterEach(() => {
    queue.length = 0;
  });
  const reply = (...c: Canned[]) => queue.push(...c);

  it('book: ResponseCode as number 200, lower-camel trackingRefNo, extra fields', async () => {
    reply({
      body: JSON.stringify({
        ResponseCode: 200,
        responseDetail: 'Success',
        Remarks: 'created',
        trackingRefNo: 'REF-77',
        returnNum: '2',
        id: 91,
        extra: { nested: true },
      }),
    });
    const { client } = makeClient(base);
    await expect(client.book(sampleBooking())).resolves.toEqual({
      trackingRefNo: 'REF-77',
      responseDetail: 'Success',
      remarks: 'created',
      returnNum: 2,
      id: 91,
    });
  });

  it('quote: amounts as numeric strings and float numbers, lower-camel keys', async () => {
    reply(
      {
        body: JSON.stringify({ DeliveryCharge: '1500', VAT: '180.5', TotalCharge: 1680.5, Currency: 'PHP' }),
      },
      {
        body: JSON.stringify({
          deliveryCharge: 0.1 + 0.2,
          vat: 1.005,
          totalCharge: '1.3049',
          ResponseCode: '200',
        }),
      },
    );
    const { client } = makeClient(base);
    await expect(client.quote(sampleQuotation())).resolves.toEqual({
      deliveryCharge: '1500.00',
      vat: '180.50',
      totalCharge: '1680.50',
    });
    await expect(client.quote(sampleQuotation())).resolves.toEqual({
      deliveryCharge: '0.30',
      vat: '1.01',
      totalCharge: '1.30',
    });
  });

  it('quote: a missing amount is malformed (not-done)', async () => {
    reply({ body: JSON.stringify({ DeliveryCharge: 100, TotalCharge: 112 }) });
    const { client } = makeClient(base);
    const err = await failure(client.quote(sampleQuotation()));
    expect(err).toBeInstanceOf(MalformedResponseError);
    expect(err).toMatchObject({ outcome: 'not-done' });
    expect((err as MalformedResponseError).reason).toContain('VAT');
  });

  it('book: 2xx with ResponseCode 200 but no TrackingRefNo is malformed, outcome unknown', async () => {
    reply({ body: JSON.stringify({ ResponseCode: '200', ResponseDetail: 'Success', remarks: 'ok' }) });
    const { client, logs } = makeClient(base);
    const err = await failure(client.book(sampleBooking()));
    expect(err).toBeInstanceOf(MalformedResponseError);
    expect(err).toMatchObject({ outcome: 'unknown', reason: 'missing TrackingRefNo' });
    expect(logs()).toMatchObject([{ outcome: 'malformed', outcomeUnknown: true }]);
  });

  it('book: HTTP 200 carrying a non-200 ResponseCode is a rejection', async () => {
    reply({
      body: JSON.stringify({ ResponseCode: 400, responseDetail: 'Invalid consigneePostal', remarks: 'x' }),
    });
    const { client } = makeClient(base);
    const err = await failure(client.book(sampleBooking()));
    expect(err).toBeInstanceOf(UpstreamRejectedError);
    expect(err).toMatchObject({ responseCode: '400', httpStatus: 200, outcome: 'not-done' });
    expect(err.userMessage()).toContain('Invalid consigneePostal');
  });

  it('update: 2xx without ResponseCode (lower-camel texts) or with ResponseCode 200 is success', async () => {
    reply(
      {
        body: JSON.stringify({
          responseMessage: 'Waybill updated',
          responseDetail: 'Transaction successful',
        }),
      },
      { body: JSON.stringify({ ResponseCode: 200, ResponseMessage: 'done' }) },
    );
    const { client } = makeClient(base);
    await expect(client.update(sampleUpdate())).resolves.toEqual({
      responseMessage: 'Waybill updated',
      responseDetail: 'Transaction successful',
    });
    await expect(client.update(sampleUpdate())).resolves.toEqual({
      responseMessage: 'done',
      responseDetail: '',
    });
  });

  it('update: 2xx with an empty object or an empty body is malformed, outcome unknown', async () => {
    reply({ body: '{}' }, { body: '' });
    const { client } = makeClient(base);
    const a = await failure(client.update(sampleUpdate()));
    expect(a).toBeInstanceOf(MalformedResponseError);
    expect(a.outcome).toBe('unknown');
    const b = await failure(client.update(sampleUpdate()));
    expect(b).toMatchObject({ reason: 'empty body', outcome: 'unknown' });
  });

  it('book: a 4xx without a readable ResponseCode is an HTTP error, not-done', async () => {
    reply({ status: 403, body: '<html><body>Forbidden</body></html>', contentType: 'text/html' });
    const { client } = makeClient(base);
    const err = await failure(client.book(sampleBooking()));
    expect(err).toBeInstanceOf(UpstreamHttpError);
    expect(err).toMatchObject({ status: 403, outcome: 'not-done', bodyExcerpt: 'Forbidden' });
    expect(err.userMessage()).toContain('could not authenticate');
  });

  it('a 5xx carrying a ResponseCode is still an HTTP error (unknown for book)', async () => {
    reply({ status: 500, body: JSON.stringify({ ResponseCode: '500', ResponseDetail: 'Internal error' }) });
    const { client } = makeClient(base);
    const err = await failure(client.book(sampleBooking()));
    expect(err).toBeInstanceOf(UpstreamHttpError);
    expect(err.outcome).toBe('unknown');
    expect((err as UpstreamHttpError).bodyExcerpt).toContain('Internal error');
  });

  it('a courier echoing the Authorization header never puts the token in errors or logs', async () => {
    const echo = (req: IncomingMessage) => `auth was ${String(req.headers.authorization)}`;
    reply(
      {
        status: 400,
        body: (req) => JSON.stringify({ ResponseCode: '400', ResponseDetail: echo(req), remarks: echo(req) }),
      },
      { status: 502, body: echo, contentType: 'text/plain' },
      { status: 200, body: echo, contentType: 'text/plain' },
    );
    const { client, logs } = makeClient(base);
    const errors = [
      await failure(client.book(sampleBooking())),
      await failure(client.book(sampleBooking())),
      await failure(client.update(sampleUpdate())),
    ];
    expect(errors.map((e) => e.constructor)).toEqual([
      UpstreamRejectedError,
      UpstreamHttpError,
      MalformedResponseError,
    ]);
    const texts = [
      ...errors.flatMap((e) => [e.message, e.userMessage(), JSON.stringify(e)]),
      JSON.stringify(logs()),
    ].join('\n');
    expect(texts).toContain('auth was Bearer [redacted]');
    expect(texts).not.toContain(TOKEN);
  });
});

describe('classifyTransportFailure', () => {
  const base = {
    trackingNumber: 'TN1',
    overallTimedOut: false,
    overallTimeoutMs: 7_000,
    timeoutMs: 5_000,
    connectTimeoutMs: 2_000,
  };
  const withCode = (code: string, name = 'Error') => Object.assign(new Error(code), { code, name });

  it('connect timeout: connect phase, not-done even for book', () => {
    const e = classifyTransportFailure(withCode('UND_ERR_CONNECT_TIMEOUT'), {
      ...base,
      operation: 'book',
      sent: false,
    });
    expect(e).toBeInstanceOf(UpstreamTimeoutError);
    expect(e).toMatchObject({ phase: 'connect', timeoutMs: 2_000, outcome: 'not-done' });
    expect(e.userMessage()).toContain('safe to try again');
  });

  it('headers/body timeout: response phase, unknown for book and update, not-done for quote', () => {
    for (const code of ['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']) {
      const book = classifyTransportFailure(withCode(code), { ...base, operation: 'book', sent: true });
      expect(book).toMatchObject({ phase: 'response', timeoutMs: 5_000, outcome: 'unknown' });
      const update = classifyTransportFailure(withCode(code), { ...base, operation: 'update', sent: true });
      expect(update.userMessage()).toContain('Update outcome unknown');
      const quote = classifyTransportFailure(withCode(code), { ...base, operation: 'quote', sent: true });
      expect(quote.outcome).toBe('not-done');
    }
  });

  it('overall abort: phase decided by whether the request was sent', () => {
    const abort = new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    const before = classifyTransportFailure(abort, {
      ...base,
      operation: 'book',
      sent: false,
      overallTimedOut: true,
    });
    expect(before).toMatchObject({ phase: 'connect', outcome: 'not-done' });
    const after = classifyTransportFailure(abort, {
      ...base,
      operation: 'book',
      sent: true,
      overallTimedOut: true,
    });
    expect(after).toMatchObject({ phase: 'response', outcome: 'unknown' });
  });

  it('reset after sending is unknown for book; DNS and refused (also as AggregateError) are not-done', () => {
    expect(
      classifyTransportFailure(withCode('ECONNRESET'), { ...base, operation: 'book', sent: true }),
    ).toMatchObject({
      code: 'ECONNRESET',
      outcome: 'unknown',
    });
    expect(
      classifyTransportFailure(withCode('ENOTFOUND'), { ...base, operation: 'book', sent: false }),
    ).toMatchObject({
      outcome: 'not-done',
    });
    const agg = Object.assign(new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')]), {});
    expect(classifyTransportFailure(agg, { ...base, operation: 'update', sent: false })).toMatchObject({
      code: 'ECONNREFUSED',
      requestSent: false,
      outcome: 'not-done',
    });
  });
});

describe('responses (pure)', () => {
  it('normaliseAmount: half-up on the decimal text, no float drift', () => {
    const cases: [unknown, string | undefined][] = [
      [1500, '1500.00'],
      ['1500', '1500.00'],
      ['1500.00', '1500.00'],
      [' 12.5 ', '12.50'],
      [0.1 + 0.2, '0.30'],
      [1.005, '1.01'],
      ['1.004999', '1.00'],
      ['0.005', '0.01'],
      ['0.0049', '0.00'],
      ['.5', '0.50'],
      ['12.', '12.00'],
      ['-2.345', '-2.35'],
      ['-0.001', '0.00'],
      [1e-7, '0.00'],
      ['1.5e3', '1500.00'],
      [123456789012345.67, '123456789012345.67'],
      ['99999999999999999999.995', '100000000000000000000.00'],
      ['', undefined],
      ['.', undefined],
      ['abc', undefined],
      ['1,500.00', undefined],
      ['0x10', undefined],
      [Number.NaN, undefined],
      [Number.POSITIVE_INFINITY, undefined],
      [null, undefined],
      [true, undefined],
    ];
    for (const [input, expected] of cases) expect([input, normaliseAmount(input)]).toEqual([input, expected]);
  });

  it('readers: rejection, malformed and ok shapes', () => {
    expect(readQuoteResponse('nope')).toEqual({ kind: 'malformed', reason: 'body is not a JSON object' });
    expect(readQuoteResponse([1])).toMatchObject({ kind: 'malformed' });
    expect(
      readQuoteResponse({ ResponseCode: '401', ResponseDetail: 'Unauthorized', remarks: 'bad token' }),
    ).toEqual({
      kind: 'rejected',
      responseCode: '401',
      responseDetail: 'Unauthorized',
      remarks: 'bad token',
    });
    expect(readBookingResponse({ ResponseCode: { x: 1 }, TrackingRefNo: 'A' })).toMatchObject({
      kind: 'malformed',
    });
    expect(readBookingResponse({ TrackingRefNo: 'A' })).toEqual({
      kind: 'malformed',
      reason: 'missing ResponseCode',
    });
    expect(readBookingResponse({ ResponseCode: '200', TrackingRefNo: '  ' })).toMatchObject({
      kind: 'malformed',
    });
    expect(readBookingResponse({ ResponseCode: ' 200 ', TrackingRefNo: 'A', returnNum: 'x' })).toEqual({
      kind: 'ok',
      value: { trackingRefNo: 'A', responseDetail: '', remarks: '' },
    });
    expect(readUpdateResponse({ ResponseCode: '404', ResponseDetail: 'Not found' })).toMatchObject({
      kind: 'rejected',
      responseCode: '404',
    });
  });

  it('bodyExcerpt: tags stripped, whitespace collapsed, about 200 characters', () => {
    const html = `<html><script>var secret = 1;</script><body><p>Service\n\n   Unavailable</p>${'x'.repeat(500)}</body></html>`;
    const ex = bodyExcerpt(html, (text) => text);
    expect(ex.startsWith('Service Unavailable x')).toBe(true);
    expect(ex).not.toContain('<');
    expect(ex).not.toContain('secret');
    expect(ex.length).toBeLessThanOrEqual(200);
  });

  it('bodyExcerpt: scrubs before it cuts, so no part of a secret is left at the cut', () => {
    const scrub = (text: string) => text.replaceAll('tok-SECRET-123', '[redacted]');
    for (let at = 180; at < 205; at += 1) {
      const ex = bodyExcerpt(`${'x'.repeat(at)} tok-SECRET-123 and more`, scrub);
      expect(ex, `secret at ${at}`).not.toMatch(/ tok/);
    }
  });
});
