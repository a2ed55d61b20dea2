/**
 * The one rule for something the bot posts that must go out once, whatever the replicas: a day's
 * digest, a week's report, a reminder, an escalation, a reply to a recognised number, a file's summary.
 *
 * Rules:
 * - Claimed in the database before it is posted: a claim held elsewhere (another replica, or this
 *   one earlier) means it is not this caller's to post, and nothing is posted (`taken`).
 * - Posted through the caller's port (Slack, an SMS gateway): operations never know which.
 * - Posted: marked sent with what the post returned (`sent`), when the claim alone does not say so.
 * - Not posted (the port threw): the claim is given back, so the next look here or on another
 *   replica tries again, and the error stands for the caller to log. A release that fails too is
 *   left to the claim's lease. Only a failure that trying again can never mend (`final`) keeps the
 *   claim, recorded as the caller says, so it is not tried for ever.
 */
import type { Store } from '../store/index.js';

/** Claiming and settling one thing to post; `C` is what a claim hands back (a batch id, a day). */
export interface OnceClaim<C, P> {
  /** The claim, or undefined when it is held already. */
  claim: () => Promise<C | undefined>;
  /** Gives the claim back after a failed post. */
  release: (claim: C) => Promise<unknown>;
  /** Records the post once it is out. */
  sent?: (claim: C, posted: P) => Promise<unknown>;
  /** A failure that posting again cannot mend, recorded instead; false: released as any other. */
  final?: (claim: C, err: unknown) => Promise<boolean>;
}

/** What came of it, tagged. */
export type PostOnceResult<P> =
  /** This caller posted it: what the port returned. */
  | { state: 'posted'; posted: P }
  /** Claimed elsewhere: not posted here. */
  | { state: 'taken' }
  /** Never to be posted (the `final` failure), recorded so. */
  | { state: 'given up'; error: unknown };

/** Claims, posts through `post`, and settles the claim (see the rules above). */
export async function postOnce<C, P>(
  once: OnceClaim<C, P>,
  post: (claim: C) => Promise<P>,
): Promise<PostOnceResult<P>> {
  const claim = await once.claim();
  if (claim === undefined) return { state: 'taken' };
  let posted: P;
  try {
    posted = await post(claim);
  } catch (err) {
    if (once.final && (await once.final(claim, err))) return { state: 'given up', error: err };
    await Promise.resolve(once.release(claim)).catch(() => undefined);
    throw err;
  }
  await once.sent?.(claim, posted);
  return { state: 'posted', posted };
}

/** What is posted once a day at most, each with its table of days claimed. */
const scheduledTables = { digest: 'digests', 'weekly report': 'weeklyReports' } as const;

/** The claim of a scheduled post's day (YYYY-MM-DD in the team's zone). */
export function scheduledDay(
  store: Pick<Store, (typeof scheduledTables)[keyof typeof scheduledTables]>,
  what: keyof typeof scheduledTables,
  day: string,
): OnceClaim<string, unknown> {
  const days = store[scheduledTables[what]];
  return {
    claim: async () => ((await days.claim(day)) ? day : undefined),
    release: () => days.release(day),
  };
}
