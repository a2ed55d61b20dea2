/** Tracking numbers recognised in a channel's messages: turned on or off, and each thread's reply sent once. */
import type { Store } from '../store/index.js';
import type { OnceClaim } from './post-once.js';

/** Turns recognition on or off in a channel, for every replica (`userId` asked). */
export function turnRecognition(
  store: Pick<Store, 'recognition'>,
  input: { channelId: string; on: boolean; userId: string },
): Promise<void> {
  return store.recognition.turn(input.channelId, input.on, input.userId);
}

/**
 * The claim of a thread's reply naming these numbers: those not yet answered in the thread, on any
 * replica (none: taken). Given back when the reply is not posted, so the thread's next mention answers.
 */
export function threadReply(
  store: Pick<Store, 'recognition'>,
  channelId: string,
  threadTs: string,
  trackingNumbers: readonly string[],
): OnceClaim<ReadonlySet<string>, unknown> {
  return {
    claim: async () => {
      const fresh = await store.recognition.claim(channelId, threadTs, trackingNumbers);
      return fresh.length > 0 ? new Set(fresh) : undefined;
    },
    release: (fresh) => store.recognition.release(channelId, threadTs, [...fresh]),
  };
}
