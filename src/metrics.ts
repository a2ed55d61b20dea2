/**
 * The bot's metrics in Prometheus's text format (prom-client): the process's own (CPU, memory, event
 * loop, handles) and ours. Labels carry kinds, operations, outcomes, Slack methods and error codes,
 * never a token, a user, a channel or anything typed.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** How a courier call ended, for the metrics: done, refused or failed before it was acted on, or unknown. */
export type CourierResult = 'ok' | 'refused' | 'unknown';

/** What the metrics read from elsewhere when scraped. */
export interface MetricSources {
  /** Calls whose outcome is unknown and not settled since, in the whole database. */
  unknownOutcomes(): Promise<number>;
  /** PostgreSQL: this replica's pool (undefined on SQLite). */
  pool(): { inUse: number; waiting: number } | undefined;
}

/**
 * The process's own metrics, collected once a process however many Metrics it makes (a test worker makes
 * hundreds): prom-client's event-loop monitor, once started, ticks until the process ends.
 */
let processMetrics: Registry | undefined;
function processRegistry(): Registry {
  if (!processMetrics) {
    processMetrics = new Registry();
    collectDefaultMetrics({ register: processMetrics });
  }
  return processMetrics;
}

export class Metrics {
  readonly registry = new Registry();
  private sources: MetricSources | undefined;

  readonly requests = new Counter({
    name: 'waybill_slack_requests_total',
    help: 'Slack requests handled, by kind (command, view_submission, block_actions, event, …) and outcome (ok, error)',
    labelNames: ['kind', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly ackSeconds = new Histogram({
    name: 'waybill_slack_ack_seconds',
    help: 'From a Slack request handed to the bot to its acknowledgement (Slack allows 3 s)',
    labelNames: ['kind'] as const,
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5],
    registers: [this.registry],
  });
  readonly courierCalls = new Counter({
    name: 'waybill_courier_calls_total',
    help: 'Courier calls by operation (quote, book, update) and outcome (ok, refused, unknown)',
    labelNames: ['operation', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly courierSeconds = new Histogram({
    name: 'waybill_courier_call_seconds',
    help: 'Courier calls, retries of a quote included, by operation and outcome',
    labelNames: ['operation', 'outcome'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30],
    registers: [this.registry],
  });
  readonly attemptsInFlight = new Gauge({
    name: 'waybill_attempts_in_flight',
    help: 'Courier calls this replica has sent and not yet heard the end of',
    registers: [this.registry],
  });
  readonly slackApiErrors = new Counter({
    name: 'waybill_slack_api_errors_total',
    help: "Slack Web API calls that failed, by method and Slack's error code (or http_<status>, network)",
    labelNames: ['method', 'error'] as const,
    registers: [this.registry],
  });
  readonly slackRateLimitWaits = new Counter({
    name: 'waybill_slack_rate_limit_waits_total',
    help: 'Slack Web API answers 429: the call waits as Retry-After says, then is sent again',
    labelNames: ['method'] as const,
    registers: [this.registry],
  });
  readonly startupMemory = new Gauge({
    name: 'waybill_startup_memory_bytes',
    help: "The process's memory after each start-up step (rss, heap: V8's heap in use, external: buffers and native objects), so a change that adds memory shows which step grew",
    labelNames: ['step', 'kind'] as const,
    registers: [this.registry],
  });
  readonly startupSeconds = new Gauge({
    name: 'waybill_startup_seconds',
    help: 'When each start-up step ended, in seconds since the process started, so a slower start shows which step took longer',
    labelNames: ['step'] as const,
    registers: [this.registry],
  });
  readonly bulkRows = new Counter({
    name: 'waybill_bulk_rows_total',
    help: 'Rows of bulk bookings taken through the booking path, by outcome (booked, already booked, failed, unknown)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  constructor() {
    const metrics = this;
    new Gauge({
      name: 'waybill_unknown_outcomes_outstanding',
      help: 'Courier calls whose outcome is unknown and not settled since (whole database): check them with the courier',
      registers: [this.registry],
      async collect() {
        const count = await metrics.sources?.unknownOutcomes().catch(() => undefined);
        if (count !== undefined) this.set(count);
      },
    });
    new Gauge({
      name: 'waybill_db_pool_in_use',
      help: "PostgreSQL connections of this replica's pool in use",
      registers: [this.registry],
      collect() {
        this.set(metrics.sources?.pool()?.inUse ?? 0);
      },
    });
    new Gauge({
      name: 'waybill_db_pool_waiting',
      help: "Callers waiting for a connection of this replica's PostgreSQL pool",
      registers: [this.registry],
      collect() {
        this.set(metrics.sources?.pool()?.waiting ?? 0);
      },
    });
  }

  /** The memory and time as they stand after `step` of start-up (in order: each step's cost is its rise over the one before). */
  startupStep(step: string): void {
    const { rss, heapUsed, external } = process.memoryUsage();
    this.startupMemory.set({ step, kind: 'rss' }, rss);
    this.startupMemory.set({ step, kind: 'heap' }, heapUsed);
    this.startupMemory.set({ step, kind: 'external' }, external);
    this.startupSeconds.set({ step }, performance.now() / 1000);
  }

  /** Where the scraped gauges read from, once the store is open. */
  readFrom(sources: MetricSources): void {
    this.sources = sources;
  }

  /** A courier call starts: the returned function is told how it ended. */
  courierCall(operation: string): (result: CourierResult) => void {
    const started = performance.now();
    this.attemptsInFlight.inc();
    return (outcome) => {
      this.attemptsInFlight.dec();
      this.courierCalls.inc({ operation, outcome });
      this.courierSeconds.observe({ operation, outcome }, (performance.now() - started) / 1000);
    };
  }

  /**
   * `fetch` for Slack's WebClient that counts what comes back: rate-limit answers (429, which the
   * client waits out) and failures by method, at the network edge where every call passes.
   */
  slackFetch(fetchImpl: typeof fetch = fetch): typeof fetch {
    return async (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      // A Web API method's name; a file upload goes to an address of its own, with ids in it.
      const method = /\/api\/([\w.]+)/.exec(url)?.[1] ?? 'file-upload';
      let response: Response;
      try {
        response = await fetchImpl(input, init);
      } catch (err) {
        this.slackApiErrors.inc({ method, error: 'network' });
        throw err;
      }
      if (response.status === 429) this.slackRateLimitWaits.inc({ method });
      else if (response.status !== 200) this.slackApiErrors.inc({ method, error: `http_${response.status}` });
      else if (response.headers.get('content-type')?.includes('json')) {
        // Slack says `ok: false` with a code (not_in_channel, invalid_auth…): a fixed vocabulary.
        const body = (await response
          .clone()
          .json()
          .catch(() => undefined)) as { ok?: boolean; error?: unknown } | undefined;
        if (body?.ok === false) {
          const error =
            typeof body.error === 'string' && /^\w{1,64}$/.test(body.error) ? body.error : 'other';
          this.slackApiErrors.inc({ method, error });
        }
      }
      return response;
    };
  }

  /** The text a scrape gets, and its content type. */
  async scrape(): Promise<{ contentType: string; text: string }> {
    const all = Registry.merge([processRegistry(), this.registry]);
    return { contentType: all.contentType, text: await all.metrics() };
  }
}
