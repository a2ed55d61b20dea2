/** Work started after Slack was acknowledged, tracked so a stop and the tests can wait for it. */
import type { Logger } from 'pino';
import { postToUser, type SlackClient } from './delivery.js';
import { slackErrorCode } from './slack-errors.js';

/**
 * How long work after an ack may be held back while other requests wait for theirs. Under it, a
 * burst is acknowledged first; past it the work starts anyway, well inside the 3 s a trigger_id
 * lives, so a form is still opened in time.
 */
const MAX_HOLD_MS = 750;

/**
 * How long after the last request arrived work still waits: in a burst the next request is often
 * not read yet when the one before is answered, and work started in that gap delays its ack.
 */
const QUIET_MS = 10;

/**
 * Where the person whose request started a piece of work is looking, so that its failure is told
 * there: in the modal showing its progress, else privately in the conversation, else in a DM.
 */
export interface Surface {
  client: SlackClient;
  userId: string;
  viewId?: string;
  channelId?: string;
  /** What the work makes, in mrkdwn (anything typed escaped), for a message that comes out of the blue: "the labels of `WB1`". */
  what?: string;
}

/** Whether Slack's Web API refused the work (a rate limit past the client's retries, an error it answered), not the bot. */
const refusedBySlack = (err: unknown): boolean =>
  slackErrorCode(err) !== undefined ||
  /^slack_webapi_/.test(String((err as { code?: unknown } | null)?.code));

/** An error whose message is written for the person (`tellable`: plain words, nothing internal), such as "the bot is stopping". */
const tellableReason = (err: unknown): string | undefined =>
  err instanceof Error && (err as { tellable?: unknown }).tellable === true ? err.message : undefined;

/** What anyone is told of a failure nothing else caught: no internals, so no secret either. */
function notFinished(what: string | undefined, err: unknown): string {
  const making = what ? ` while making ${what}` : '';
  const reason = tellableReason(err);
  const failed = reason
    ? `${what ? `${what[0]?.toUpperCase()}${what.slice(1)}` : 'This'} could not be made now (${reason}); try again in a moment.`
    : refusedBySlack(err)
      ? `Slack did not accept the bot's request${making}, so it was not finished; try again in a moment.`
      : `Something went wrong on the bot's side${making}, so ${what ? 'it' : 'this'} was not finished.`;
  return `:warning: ${failed} What was done before it stays done: check before you try again, and if it happens again, tell whoever runs the bot.`;
}

/** Tells the person a piece of work failed (`err`), where they are looking. */
async function tellNotFinished(
  { client, userId, viewId, channelId, what }: Surface,
  err: unknown,
): Promise<void> {
  const text = notFinished(what, err);
  const blocks = [{ type: 'section' as const, text: { type: 'mrkdwn' as const, text } }];
  if (viewId) {
    const view = {
      type: 'modal' as const,
      title: { type: 'plain_text' as const, text: 'Not finished' },
      close: { type: 'plain_text' as const, text: 'Close' },
      blocks,
    };
    try {
      await client.views.update({ view_id: viewId, view });
      return;
    } catch (err) {
      // A modal closed meanwhile: the person is told in a message instead.
      if (slackErrorCode(err) !== 'not_found') throw err;
    }
  }
  const message = { text, blocks };
  if (channelId) {
    await postToUser(client, { channelId, userId }, message);
    return;
  }
  const dm = await client.conversations.open({ users: userId });
  await client.chat.postMessage({ channel: dm.channel?.id ?? userId, ...message });
}

/**
 * Work started after Slack was acknowledged (an upstream call, a views.update). Tracked so a
 * shutdown can wait for it, and so tests can wait until the bot is idle instead of sleeping.
 *
 * Acks come first: Slack gives each request 3 s, and a burst of them (200 dispatchers' commands)
 * is answered fastest when nothing else runs in between. So work is started one piece per turn of
 * the event loop, and only while no request is waiting for its ack (or once it has waited
 * `MAX_HOLD_MS`); the receivers report each request from arrival to answer (`awaitingAck`).
 */
export class InFlight {
  private readonly tasks = new Set<Promise<void>>();
  private readonly queue: { start: () => void; since: number }[] = [];
  private unanswered = 0;
  private lastArrival = Number.NEGATIVE_INFINITY;
  private turnScheduled = false;
  private holdTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly logger: Logger,
    private readonly maxHoldMs = MAX_HOLD_MS,
    private readonly quietMs = QUIET_MS,
  ) {}

  /**
   * Runs `work` after the acks waiting. Whatever it throws is logged here, and told to the person
   * on `surface` (every piece a person's request starts names theirs), so no failure leaves them
   * looking at "Working…".
   */
  run(name: string, work: () => Promise<void>, surface?: Surface): void {
    const task = new Promise<void>((start) => {
      this.queue.push({ start, since: performance.now() });
      this.scheduleTurn();
    })
      .then(work)
      .catch(async (err: unknown) => {
        this.logger.error({ err, task: name }, 'background task failed');
        if (!surface) return;
        await tellNotFinished(surface, err).catch((told: unknown) =>
          this.logger.error({ err: told, task: name }, 'a failed task could not be told to its person'),
        );
      })
      .finally(() => this.tasks.delete(task));
    this.tasks.add(task);
  }

  /** A request arrived and waits for its ack: call the function returned once it is answered (twice is harmless). */
  awaitingAck(): () => void {
    this.unanswered += 1;
    this.lastArrival = performance.now();
    let answered = false;
    return () => {
      if (answered) return;
      answered = true;
      this.unanswered -= 1;
      if (this.unanswered === 0) this.scheduleTurn();
    };
  }

  get size(): number {
    return this.tasks.size;
  }

  /** Resolves once nothing is running, including work started by work that was running. */
  async idle(): Promise<void> {
    while (this.tasks.size > 0) await Promise.allSettled([...this.tasks]);
  }

  private scheduleTurn(): void {
    if (this.turnScheduled || this.queue.length === 0) return;
    this.turnScheduled = true;
    // setImmediate runs after the event loop has read what arrived: new requests go first.
    setImmediate(() => {
      this.turnScheduled = false;
      this.takeTurn();
    });
  }

  private takeTurn(): void {
    const next = this.queue[0];
    if (!next) return;
    const now = performance.now();
    const held = now - next.since;
    const quietIn = this.lastArrival + this.quietMs - now;
    if ((this.unanswered > 0 || quietIn > 0) && held < this.maxHoldMs) {
      // Woken by the last ack, once arrivals have paused, or when the oldest piece has waited long enough.
      clearTimeout(this.holdTimer);
      const wait = this.unanswered > 0 ? this.maxHoldMs - held : Math.min(quietIn, this.maxHoldMs - held);
      this.holdTimer = setTimeout(() => this.scheduleTurn(), wait);
      return;
    }
    this.queue.shift();
    next.start();
    this.scheduleTurn();
  }
}
