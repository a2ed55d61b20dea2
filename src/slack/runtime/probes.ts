/**
 * The probes and /metrics: GET /livez (the process answers), GET /readyz and its older name /healthz
 * (the database answers and Slack's requests can arrive), GET /metrics (Prometheus). The probes are
 * served by the HTTP receiver in HTTP mode, and all of them on HEALTH_PORT by a listener of their own
 * in either mode: /metrics only there, never on the port Slack's requests come in on.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { CustomRoute } from '@slack/bolt';
import type { Logger } from 'pino';
import type { Metrics } from '../../metrics.js';
import type { Store } from '../../store/index.js';

export interface ProbeDeps {
  store: Pick<Store, 'ping'>;
  logger: Pick<Logger, 'warn'>;
  metrics?: Metrics;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

const plain = (res: ServerResponse, status: number, text: string) => {
  res.writeHead(status, { 'Content-Type': 'text/plain' });
  res.end(text);
};

/**
 * Ready means able to do the work: a replica whose database does not answer, or whose Slack
 * connection is down, is taken out of rotation (503) until both are back, and its peers take the
 * requests. While it stops, both probes say 503, so a balancer drains it first.
 */
export class Probes {
  private stopping = false;
  /** Socket Mode: the WebSocket is open. HTTP mode: the receiver listens. Until told, not yet. */
  private receiving: () => boolean = () => false;

  constructor(private readonly deps: ProbeDeps) {}

  /** How to tell whether Slack's requests can arrive. */
  receivingWhen(check: () => boolean): void {
    this.receiving = check;
  }

  /** From now on both probes answer 503. */
  stop(): void {
    this.stopping = true;
  }

  private readonly live: Handler = async (_req, res) => {
    if (this.stopping) plain(res, 503, 'stopping');
    else plain(res, 200, 'ok');
  };

  private readonly ready: Handler = async (_req, res) => {
    if (this.stopping) return plain(res, 503, 'stopping');
    if (!this.receiving()) return plain(res, 503, 'slack not connected');
    const answers = await this.deps.store.ping().then(
      () => true,
      (err: unknown) => {
        this.deps.logger.warn({ err }, 'not ready: the database did not answer');
        return false;
      },
    );
    if (answers) plain(res, 200, 'ok');
    else plain(res, 503, 'database unavailable');
  };

  private readonly metrics: Handler = async (_req, res) => {
    const { contentType, text } = await (this.deps.metrics as Metrics).scrape();
    res.writeHead(200, { 'Content-Type': contentType });
    res.end(text);
  };

  private probes(): Record<string, Handler> {
    return { '/livez': this.live, '/readyz': this.ready, '/healthz': this.ready };
  }

  /** The probes as routes of Bolt's HTTP receiver: the port a proxy opens to Slack gets no /metrics. */
  routes(): CustomRoute[] {
    return Object.entries(this.probes()).map(([path, handler]) => ({ path, method: ['GET'], handler }));
  }

  /** The probes and /metrics on a listener of their own on `port` (0: any free one); rejects when it cannot listen there. */
  async listen(port: number): Promise<Server> {
    const handlers: Record<string, Handler> = {
      ...this.probes(),
      ...(this.deps.metrics ? { '/metrics': this.metrics } : {}),
    };
    const server = createServer((req, res) => {
      const handler =
        req.method === 'GET' ? handlers[new URL(req.url ?? '/', 'http://x').pathname] : undefined;
      if (!handler) return plain(res, 404, 'not found');
      handler(req, res).catch(() => plain(res, 500, 'probe failed'));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, resolve);
    });
    server.removeAllListeners('error');
    return server;
  }
}
