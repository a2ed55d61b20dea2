/**
 * A fake Semaphore SMS API over loopback HTTP, for tests and the bench: `POST /api/v4/messages` with a
 * form body (apikey, number, message, sendername) answers as Semaphore does, a list of one message.
 * Each call is recorded in `calls`; answers can be scripted with `respond` (a 429 with Retry-After, a
 * 503, a 422 refusal) or the request held without an answer (`hang`); `stop()` makes it unreachable.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SemaphoreCall {
  apikey: string;
  number: string;
  message: string;
  sendername: string;
  /** When it arrived, by the clock the fake was given (the test's own). */
  at: number;
}

export type SemaphoreAnswer =
  | { status: number; retryAfter?: number; body?: unknown }
  /** Take the request and never answer it (a timeout after sending). */
  | 'hang';

export class FakeSemaphore {
  readonly calls: SemaphoreCall[] = [];
  private readonly scripted: SemaphoreAnswer[] = [];
  private readonly hanging = new Set<ServerResponse>();
  private readonly server = createServer((req, res) => void this.handle(req, res));
  private nextId = 1000;

  private constructor(private readonly now: () => number) {}

  static async start(now: () => number = Date.now): Promise<FakeSemaphore> {
    const fake = new FakeSemaphore(now);
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  /** The base address, as SEMAPHORE_URL takes it. */
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/`;
  }

  /** The next calls' answers, in order; then the usual success. */
  respond(...answers: SemaphoreAnswer[]): void {
    this.scripted.push(...answers);
  }

  /** The calls to one number. */
  to(number: string): SemaphoreCall[] {
    return this.calls.filter((call) => call.number === number);
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || req.url !== '/api/v4/messages') {
      res.writeHead(404).end();
      return;
    }
    const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    const call = {
      apikey: form.get('apikey') ?? '',
      number: form.get('number') ?? '',
      message: form.get('message') ?? '',
      sendername: form.get('sendername') ?? '',
      at: this.now(),
    };
    this.calls.push(call);
    const answer = this.scripted.shift();
    if (answer === 'hang') {
      this.hanging.add(res);
      return;
    }
    if (answer) {
      res.writeHead(answer.status, {
        'content-type': 'application/json',
        ...(answer.retryAfter === undefined ? {} : { 'retry-after': String(answer.retryAfter) }),
      });
      res.end(JSON.stringify(answer.body ?? {}));
      return;
    }
    this.nextId += 1;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify([
        {
          message_id: this.nextId,
          recipient: call.number,
          message: call.message,
          sender_name: call.sendername,
          status: 'Pending',
        },
      ]),
    );
  }
}
