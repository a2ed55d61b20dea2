/**
 * The load generator, a process of its own so its work does not run on the bot's event loop.
 *
 * Reads one LoadJob as JSON on stdin, sends every request at once (signed as Slack signs them,
 * each just before it is written) to a loopback address, or to several in turn (round-robin, as a
 * load balancer in front of replicas would), and prints a LoadReport as JSON on stdout.
 * Bounded: each request gives up after `requestTimeoutMs`, the whole job after `deadlineMs`.
 */
import { Agent, request } from 'node:http';
import { JSON_CONTENT_TYPE, signRequest } from '../fakes/slack-requests.js';
import { epochMs, type LoadJob, type LoadReport, type LoadResult } from './lib.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function assertLoopback(url: URL): void {
  const host = url.hostname;
  if (!(host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host))) {
    throw new Error(`load: refusing to send to ${host}: loopback only`);
  }
}

function send(
  agent: Agent,
  url: URL,
  job: LoadJob,
  item: LoadJob['requests'][number],
  register: (cancel: () => void) => void,
): Promise<LoadResult> {
  return new Promise((resolve) => {
    const headers = {
      ...signRequest(job.signingSecret, item.body),
      // Events come as JSON; commands and interactions as a form.
      ...(item.body.startsWith('{') ? { 'Content-Type': JSON_CONTENT_TYPE } : {}),
      'Content-Length': Buffer.byteLength(item.body),
    };
    const sentAt = epochMs();
    let settled = false;
    const finish = (result: Omit<LoadResult, 'key' | 'sentAt'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ key: item.key, sentAt, ...result });
    };
    const req = request(url, { method: 'POST', agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const latencyMs = epochMs() - sentAt;
        const text = Buffer.concat(chunks).toString('utf8');
        let responseAction: string | undefined;
        if ((res.headers['content-type'] ?? '').includes('json') && text) {
          try {
            const parsed = JSON.parse(text) as { response_action?: unknown };
            if (typeof parsed.response_action === 'string') responseAction = parsed.response_action;
          } catch {
            // not JSON after all: the status says enough
          }
        }
        finish({ latencyMs, status: res.statusCode ?? null, responseAction });
      });
      res.on('error', (err) =>
        finish({ latencyMs: null, status: res.statusCode ?? null, error: err.message }),
      );
    });
    const timer = setTimeout(() => {
      req.destroy();
      finish({ latencyMs: null, status: null, error: `no answer within ${job.requestTimeoutMs} ms` });
    }, job.requestTimeoutMs);
    register(() => {
      req.destroy();
      finish({ latencyMs: null, status: null, error: 'cut off at the job deadline' });
    });
    req.on('error', (err) => finish({ latencyMs: null, status: null, error: err.message }));
    req.end(item.body);
  });
}

async function main(): Promise<void> {
  const job = JSON.parse(await readStdin()) as LoadJob;
  const urls = job.urls.map((url) => new URL(url));
  for (const url of urls) assertLoopback(url);
  const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  const cancels: (() => void)[] = [];
  const deadline = setTimeout(() => {
    for (const cancel of cancels) cancel();
  }, job.deadlineMs);
  const startedAt = epochMs();
  const results = await Promise.all(
    job.requests.map((item, i) =>
      send(agent, urls[i % urls.length] as URL, job, item, (cancel) => cancels.push(cancel)),
    ),
  );
  const report: LoadReport = { startedAt, finishedAt: epochMs(), results };
  clearTimeout(deadline);
  agent.destroy();
  process.stdout.write(JSON.stringify(report));
}

main().catch((err: unknown) => {
  process.stderr.write(`load: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exitCode = 1;
});
