/** What the load process and the fake Slack saw, as figures: acknowledgements and results per phase. */
import type { FakeCall } from '../fakes/slack-fake.js';
import { type LoadReport, type Summary, summarize } from './lib.js';
import { type Json, viewOf } from './slack-calls.js';

/** Slack shows the dispatcher an error when a request is not answered within 3 s. */
export const ACK_LIMIT_MS = 3000;

export interface AckStats {
  requests: number;
  /** HTTP 200 with the expected kind of answer. */
  ok: number;
  failed: number;
  over3s: number;
  ackMs: Summary;
  /** Requests answered per second, first send to last answer. */
  perSecond: number;
  wallMs: number;
  /** e.g. { '200 update': 199, '200 errors': 1 } */
  answers: Record<string, number>;
  firstErrors: string[];
}

export function ackStats(report: LoadReport, expectedAction: string | undefined): AckStats {
  const latencies: number[] = [];
  const answers: Record<string, number> = {};
  const firstErrors: string[] = [];
  let ok = 0;
  let lastEnd = report.startedAt;
  for (const r of report.results) {
    const label = r.error ? 'error' : `${r.status}${r.responseAction ? ` ${r.responseAction}` : ''}`;
    answers[label] = (answers[label] ?? 0) + 1;
    if (r.latencyMs !== null) {
      latencies.push(r.latencyMs);
      lastEnd = Math.max(lastEnd, r.sentAt + r.latencyMs);
    }
    const good =
      r.status === 200 && !r.error && (expectedAction === undefined || r.responseAction === expectedAction);
    if (good) ok += 1;
    else if (firstErrors.length < 3) firstErrors.push(`${r.key}: ${r.error ?? label}`);
  }
  const firstSend = Math.min(...report.results.map((r) => r.sentAt));
  const wallMs = lastEnd - firstSend;
  return {
    requests: report.results.length,
    ok,
    failed: report.results.length - ok,
    over3s: report.results.filter((r) => r.latencyMs === null || r.latencyMs > ACK_LIMIT_MS).length,
    ackMs: summarize(latencies),
    perSecond: wallMs > 0 ? Math.round((latencies.length / wallMs) * 1000 * 10) / 10 : 0,
    wallMs: Math.round(wallMs),
    answers,
    firstErrors,
  };
}

export interface ResultStats {
  expected: number;
  /** At least one result reached the user. */
  delivered: number;
  lost: number;
  /** No modal update / no channel post (the other may have arrived). */
  missingView: number;
  missingPost: number;
  /** More than one channel post for one submission. */
  duplicated: number;
  /** Outcomes that are failures (an error view, an ephemeral failure, a failed ack). */
  errors: number;
  /** Submission to the first result (the channel post or the modal update, whichever came first). */
  toResultMs: Summary;
  toPostMs: Summary;
  toViewMs: Summary;
  /** Bookings only: rows in the bookings table for these tracking numbers, after the bot stopped. */
  dbRows?: number;
  notes: string[];
}

export interface Expectation {
  key: string;
  sentAt: number | undefined;
  views: FakeCall[];
  posts: FakeCall[];
  failedView: (view: Json) => boolean;
}

export function resultStats(
  items: Expectation[],
  arrivals: Map<FakeCall, number>,
  ackFailures: number,
  extraErrors: number,
): ResultStats {
  const toResult: number[] = [];
  const toPost: number[] = [];
  const toView: number[] = [];
  let delivered = 0;
  let duplicated = 0;
  let missingView = 0;
  let reshown = 0;
  let missingPost = 0;
  let errors = ackFailures + extraErrors;
  const notes: string[] = [];
  const first = (calls: FakeCall[]) =>
    Math.min(...calls.map((c) => arrivals.get(c) ?? Number.POSITIVE_INFINITY));
  for (const item of items) {
    if (item.views.length + item.posts.length > 0) delivered += 1;
    if (item.views.length === 0) missingView += 1;
    if (item.posts.length === 0) missingPost += 1;
    // Two channel posts are a result given twice; two modal updates need not be (a booking shows
    // "Booked, not recorded yet" while the database is slow, then "Booked").
    if (item.posts.length > 1) {
      duplicated += 1;
      if (notes.length < 3) notes.push(`${item.key}: ${item.views.length} views, ${item.posts.length} posts`);
    }
    if (item.views.length > 1) reshown += 1;
    if (item.views.some((c) => item.failedView(viewOf(c)))) errors += 1;
    if (item.sentAt === undefined) continue;
    const sentAt = item.sentAt;
    if (item.posts.length) toPost.push(first(item.posts) - sentAt);
    if (item.views.length) toView.push(first(item.views) - sentAt);
    if (item.views.length + item.posts.length) toResult.push(first([...item.views, ...item.posts]) - sentAt);
  }
  if (missingView) notes.push(`${missingView} without the modal update`);
  if (reshown) notes.push(`${reshown} with more than one modal update`);
  if (missingPost) notes.push(`${missingPost} without the channel post`);
  return {
    expected: items.length,
    delivered,
    missingView,
    missingPost,
    lost: items.length - delivered,
    duplicated,
    errors,
    toResultMs: summarize(toResult),
    toPostMs: summarize(toPost),
    toViewMs: summarize(toView),
    notes,
  };
}
