/** Who just booked or updated something, on any replica: surfaces that show it (the Home tab) listen, operations that do it tell. */
import type { Logger } from 'pino';
import type { Store } from '../store/index.js';

type Listener = (userId: string) => void;

/** Work run after the request was answered (the Slack side's in-flight tracking), so a stop waits for it. */
type Later = { run(name: string, work: () => Promise<void>): void };

/** How often a replica reads the others' changes: a Home tab open elsewhere is redrawn within about this. */
export const DEFAULT_FOLLOW_MS = 2000;

/**
 * A person's own bookings and updates change what their Home tab shows. The booking and update
 * flows call `changed`; the Home tab listens. Features stay apart: neither imports the other.
 * Each change is also recorded in the store, and `follow` reads the changes other replicas made,
 * so a tab kept current by one replica is redrawn after a booking handled by another.
 */
export class Activity {
  private readonly listeners = new Set<Listener>();
  private following: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: Pick<Store, 'activity'>,
    private readonly inFlight: Later,
    private readonly logger: Logger,
  ) {}

  changed(userId: string): void {
    this.tell(userId);
    this.inFlight.run('record activity', () => this.store.activity.record(userId));
  }

  onChange(listener: Listener): void {
    this.listeners.add(listener);
  }

  private tell(userId: string): void {
    for (const listener of this.listeners) listener(userId);
  }

  /**
   * From now until `stop`, every `everyMs`: the changes other replicas recorded since the last read
   * are told to the listeners, each person once per read. A read that fails is tried again at the next.
   */
  async follow(everyMs = DEFAULT_FOLLOW_MS): Promise<void> {
    let seen = await this.store.activity.latest();
    let reading = false;
    let failing = false;
    const read = async () => {
      const changes = await this.store.activity.since(seen);
      const others = new Set(changes.filter((c) => !c.byThisReplica).map((c) => c.userId));
      for (const userId of others) this.tell(userId);
      seen = changes.at(-1)?.seq ?? seen;
    };
    this.following = setInterval(() => {
      if (reading) return;
      reading = true;
      read()
        .then(() => {
          failing = false;
        })
        .catch((err: unknown) => {
          // Said once while the database stays away, not at every read.
          if (!failing) this.logger.warn({ err }, "other replicas' bookings could not be read; trying again");
          failing = true;
        })
        .finally(() => {
          reading = false;
        });
    }, everyMs);
    this.following.unref();
  }

  stop(): void {
    clearInterval(this.following);
  }
}
