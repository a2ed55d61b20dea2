/**
 * Embedded sandbox of the courier's waybill service (docs/courier-interface.md): node:http, no framework.
 * The bot's default upstream (in-process, loopback), the tests' upstream, and `npm run sandbox` on its own.
 *
 * Routes: POST {pathPrefix}API/Waybill/WaybillQuote | WaybillRequest | WaybillUpdate. Other paths: 404,
 * other methods on those paths: 405 (both JSON, neither recorded nor subject to faults).
 *
 * Order of handling of a routed request: read body -> record in `received` -> faults (latency, then drop /
 * status / body) -> Authorization -> JSON + schema validation -> operation.
 *
 * Writes nothing to stdout/stderr; pass `onRequest` to observe.
 */

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import {
  type BookingRequestWire,
  endpointPaths,
  type Operation,
  type QuotationRequestWire,
  type UpdateRequestWire,
} from '../wire-types.js';
import { type QuotationResponse, quotationResponse } from './pricing.js';
import { parseWireRequest } from './wire-schemas.js';

export interface SandboxFault {
  /** Wait this long before answering (after reading the body). */
  latencyMs?: number;
  /** Answer only once this settles (after any latency): holds a call in flight for as long as a test needs. */
  holdUntil?: Promise<unknown>;
  /** Answer with this HTTP status (e.g. 500, 502); the request is not processed. */
  status?: number;
  /** A Retry-After header sent with `status` (e.g. '2' seconds with a 429). */
  retryAfter?: string;
  /** Answer with this raw body instead of the normal JSON (e.g. HTML or 'not json'); not processed. */
  body?: string;
  /** Content-type for `body` (default text/html). */
  contentType?: string;
  /** Read the request, then destroy the socket without answering; the request is not processed. */
  drop?: boolean;
  /**
   * Process the request normally (e.g. store the booking), then destroy the socket instead of answering:
   * the "it happened but the caller never heard" case. Ignored when `status`/`body`/`drop` is set.
   */
  dropAfterProcessing?: boolean;
}

export interface ReceivedRequest {
  operation: Operation;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, or the raw text when it is not JSON. */
  body: unknown;
}

export interface SandboxRequestInfo {
  operation: Operation;
  /** HTTP status answered, or null when the socket was dropped (or the sandbox closed mid-request). */
  status: number | null;
  /** Milliseconds from the end of reading the request to answering (includes injected latency). */
  latencyMs: number;
}

export interface SandboxOptions {
  token: string;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: any free port. */
  port?: number;
  /** Default 'sandbox/'. Leading slashes are dropped; a trailing slash is added when missing (unless ''). */
  pathPrefix?: string;
  /** Per-server faults, applied to every routed request. */
  faults?: SandboxFault;
  /** Called once per routed request when it is answered or dropped. Exceptions are swallowed. */
  onRequest?: (info: SandboxRequestInfo) => void;
}

export interface Sandbox {
  /** e.g. http://127.0.0.1:PORT/sandbox/ (ends with '/'; endpoint paths are appended directly). */
  baseUrl: string;
  /** Every routed request, in arrival order (including ones later rejected). */
  received: ReceivedRequest[];
  /** Stored bookings by trackingNumber, updates applied. */
  bookings: Map<string, BookingRequestWire>;
  /** Replaces the per-server faults (undefined: none). */
  setFaults(faults: SandboxFault | undefined): void;
  /** Queues per-request faults (FIFO), each merged over the per-server faults for one request. */
  injectNext(...faults: SandboxFault[]): void;
  /** Stops listening, cancels pending latencies, closes every socket. Idempotent. */
  close(): Promise<void>;
}

/** Error body of every non-2xx JSON answer. */
export interface SandboxErrorResponse {
  ResponseCode: string;
  ResponseDetail: string;
  remarks: string;
}

/** 2.3 Booking success body. */
export interface BookingResponse {
  ResponseCode: string;
  ResponseDetail: string;
  remarks: string;
  TrackingRefNo: string;
  returnNum: number;
  id: number;
}

/** 2.4 Update success body. */
export interface UpdateResponse {
  ResponseMessage: string;
  ResponseDetail: string;
}

const MAX_BODY_BYTES = 1024 * 1024;

type Reply = { status: number; body: unknown };

const errorReply = (status: number, detail: string, remarks: string): Reply => ({
  status,
  body: { ResponseCode: String(status), ResponseDetail: detail, remarks } satisfies SandboxErrorResponse,
});

function normalisePrefix(prefix: string): string {
  const p = prefix.replace(/^\/+/, '');
  return p === '' || p.endsWith('/') ? p : `${p}/`;
}

class BodyTooLarge extends Error {}
class RequestAborted extends Error {}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => {
      if (tooLarge) reject(new BodyTooLarge());
      else resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', () => reject(new RequestAborted()));
    req.on('close', () => {
      if (!req.complete) reject(new RequestAborted());
    });
  });
}

export async function startSandbox(options: SandboxOptions): Promise<Sandbox> {
  const host = options.host ?? '127.0.0.1';
  const prefix = normalisePrefix(options.pathPrefix ?? 'sandbox/');
  const expectedAuth = `Bearer ${options.token}`;
  const routes = new Map<string, Operation>(
    (Object.entries(endpointPaths) as [Operation, string][]).map(([op, path]) => [`/${prefix}${path}`, op]),
  );

  let serverFaults: SandboxFault | undefined = options.faults;
  const queued: SandboxFault[] = [];
  const received: ReceivedRequest[] = [];
  const bookings = new Map<string, BookingRequestWire>();
  /** Every trackingNumber in use, waybill or child. */
  const usedTrackingNumbers = new Set<string>();
  let counter = 0;
  let closed = false;
  type PendingWait = { timer: NodeJS.Timeout | undefined; done: (completed: boolean) => void };
  const pendingWaits = new Set<PendingWait>();

  /** Resolves true once `start`'s callback runs, or false at once if the sandbox closes first. */
  const pending = (start: (done: () => void) => NodeJS.Timeout | undefined): Promise<boolean> =>
    new Promise((resolve) => {
      if (closed) return resolve(false);
      const entry: PendingWait = {
        timer: undefined,
        done: (completed: boolean) => {
          clearTimeout(entry.timer);
          if (pendingWaits.delete(entry)) resolve(completed);
        },
      };
      pendingWaits.add(entry);
      entry.timer = start(() => entry.done(true));
    });
  const wait = (ms: number) => pending((done) => setTimeout(done, ms));
  const hold = (until: Promise<unknown>) =>
    pending((done) => {
      until.then(done, done);
      return undefined;
    });

  const report = (info: SandboxRequestInfo): void => {
    try {
      options.onRequest?.(info);
    } catch {
      // observability must never break the sandbox
    }
  };

  const send = (
    res: ServerResponse,
    status: number,
    body: string,
    contentType: string,
    headers: Record<string, string> = {},
  ): void => {
    if (res.destroyed || res.headersSent) return;
    res.writeHead(status, {
      'content-type': contentType,
      'content-length': Buffer.byteLength(body),
      ...(status === 401 ? { 'www-authenticate': 'Bearer' } : {}),
      ...(status === 405 ? { allow: 'POST' } : {}),
      ...headers,
    });
    res.end(body);
  };

  const sendJson = (res: ServerResponse, reply: Reply, headers?: Record<string, string>): void =>
    send(res, reply.status, JSON.stringify(reply.body), 'application/json; charset=utf-8', headers);

  const quote = (body: QuotationRequestWire): Reply => ({
    status: 200,
    body: quotationResponse(body) satisfies QuotationResponse,
  });

  const book = (body: BookingRequestWire): Reply => {
    const numbers = [body.trackingNumber, ...body.childWaybills.map((c) => c.trackingNumber)];
    const taken = numbers.find((n) => usedTrackingNumbers.has(n));
    if (taken !== undefined) {
      return errorReply(409, 'Duplicate trackingNumber', `trackingNumber ${taken} already exists`);
    }
    for (const n of numbers) usedTrackingNumbers.add(n);
    bookings.set(body.trackingNumber, structuredClone(body));
    counter += 1;
    return {
      status: 200,
      body: {
        ResponseCode: '200',
        ResponseDetail: 'Success',
        remarks: 'Waybill created',
        TrackingRefNo: `SBX${String(counter).padStart(8, '0')}`,
        returnNum: 1 + body.childWaybills.length,
        id: counter,
      } satisfies BookingResponse,
    };
  };

  const update = (body: UpdateRequestWire): Reply => {
    const existing = bookings.get(body.trackingNumber);
    if (existing === undefined) {
      return errorReply(404, 'Not found', `trackingNumber ${body.trackingNumber} is not booked`);
    }
    const { handlingInstruction, ...core } = body;
    // Every Update key is required by the schema, so "merge" overwrites all shared fields and keeps the
    // Booking-only ones (OperatorContactNumber, shipperCode, warehouseName, childWaybills).
    bookings.set(body.trackingNumber, { ...existing, ...core, handlingInstructions: handlingInstruction });
    return {
      status: 200,
      body: {
        ResponseMessage: `Waybill ${body.trackingNumber} updated`,
        ResponseDetail: 'Transaction successful',
      } satisfies UpdateResponse,
    };
  };

  const processRequest = (operation: Operation, req: IncomingMessage, raw: string): Reply => {
    const auth = req.headers.authorization;
    if (auth === undefined || auth === '') {
      return errorReply(401, 'Unauthorized', 'missing Authorization header');
    }
    if (auth !== expectedAuth) return errorReply(401, 'Unauthorized', 'invalid bearer token');
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return errorReply(400, 'Invalid request', 'body is not valid JSON');
    }
    switch (operation) {
      case 'quote': {
        const parsed = parseWireRequest('quote', json);
        return parsed.ok ? quote(parsed.value) : errorReply(400, 'Invalid request', parsed.remarks);
      }
      case 'book': {
        const parsed = parseWireRequest('book', json);
        return parsed.ok ? book(parsed.value) : errorReply(400, 'Invalid request', parsed.remarks);
      }
      case 'update': {
        const parsed = parseWireRequest('update', json);
        return parsed.ok ? update(parsed.value) : errorReply(400, 'Invalid request', parsed.remarks);
      }
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const operation = routes.get(path);

    let raw: string;
    try {
      raw = await readBody(req);
    } catch (err) {
      if (err instanceof BodyTooLarge) {
        if (operation !== undefined && req.method === 'POST') {
          received.push({ operation, path, headers: { ...req.headers }, body: undefined });
        }
        sendJson(res, errorReply(413, 'Payload too large', `body exceeds ${MAX_BODY_BYTES} bytes`));
      } else {
        res.destroy();
      }
      return;
    }

    if (operation === undefined) {
      sendJson(res, errorReply(404, 'Not found', `no route ${req.method ?? ''} ${path}`));
      return;
    }
    if (req.method !== 'POST') {
      sendJson(res, errorReply(405, 'Method not allowed', `${req.method ?? ''} not allowed; use POST`));
      return;
    }

    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      body = raw;
    }
    received.push({ operation, path, headers: { ...req.headers }, body });

    const started = performance.now();
    const fault: SandboxFault = { ...serverFaults, ...queued.shift() };
    const finish = (status: number | null): void =>
      report({ operation, status, latencyMs: Math.round(performance.now() - started) });

    const waited =
      (!(fault.latencyMs && fault.latencyMs > 0) || (await wait(fault.latencyMs))) &&
      (!fault.holdUntil || (await hold(fault.holdUntil)));
    if (!waited) {
      res.destroy();
      finish(null);
      return;
    }
    if (fault.drop) {
      req.socket.destroy();
      finish(null);
      return;
    }
    if (fault.body !== undefined) {
      const status = fault.status ?? 200;
      send(res, status, fault.body, fault.contentType ?? 'text/html; charset=utf-8');
      finish(status);
      return;
    }
    if (fault.status !== undefined) {
      sendJson(
        res,
        errorReply(fault.status, 'Sandbox fault', `injected HTTP ${fault.status}`),
        fault.retryAfter === undefined ? {} : { 'retry-after': fault.retryAfter },
      );
      finish(fault.status);
      return;
    }

    const reply = processRequest(operation, req, raw);
    if (fault.dropAfterProcessing) {
      req.socket.destroy();
      finish(null);
      return;
    }
    sendJson(res, reply);
    finish(reply.status);
  };

  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) {
        sendJson(res, errorReply(500, 'Internal error', 'sandbox failed to handle the request'));
      } else {
        res.destroy();
      }
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('clientError', (_err, socket) => {
    socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });

  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      closed = true;
      for (const entry of [...pendingWaits]) entry.done(false);
      server.close(() => resolve());
      server.closeIdleConnections();
      server.closeAllConnections();
      for (const socket of sockets) socket.destroy();
    });
    return closing;
  };

  return {
    baseUrl: `http://${urlHost}:${port}/${prefix}`,
    received,
    bookings,
    setFaults(faults) {
      serverFaults = faults;
    },
    injectNext(...faults) {
      queued.push(...faults);
    },
    close,
  };
}
