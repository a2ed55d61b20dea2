/** The post-once rule: claimed before posting, given back when the post fails, kept when retrying cannot help. */
import { describe, expect, it } from 'vitest';
import { type OnceClaim, postOnce } from '../../src/operations/post-once.js';

/** Claims kept in memory as the database keeps them: one holder per key. */
function claims() {
  const held = new Set<string>();
  const sent = new Map<string, string>();
  const once = (key: string, final?: OnceClaim<string, string>['final']): OnceClaim<string, string> => ({
    claim: async () => {
      if (held.has(key)) return undefined;
      held.add(key);
      return key;
    },
    release: async () => void held.delete(key),
    sent: async (claim, posted) => void sent.set(claim, posted),
    ...(final ? { final } : {}),
  });
  return { held, sent, once };
}

describe('postOnce', () => {
  it('posts once: a second caller finds the claim taken and posts nothing', async () => {
    const { once, sent } = claims();
    const posts: string[] = [];
    const post = async (claim: string) => {
      posts.push(claim);
      return `ts-${claim}`;
    };
    const [first, second] = await Promise.all([postOnce(once('day'), post), postOnce(once('day'), post)]);
    expect([first.state, second.state].sort()).toEqual(['posted', 'taken']);
    expect(posts).toEqual(['day']);
    expect(sent.get('day')).toBe('ts-day');
  });

  it('gives the claim back when the post fails, so the next look posts it', async () => {
    const { once, held, sent } = claims();
    await expect(
      postOnce(once('day'), async () => {
        throw new Error('slack away');
      }),
    ).rejects.toThrow('slack away');
    expect(held.has('day')).toBe(false);
    expect(await postOnce(once('day'), async () => 'ts')).toEqual({ state: 'posted', posted: 'ts' });
    expect(sent.get('day')).toBe('ts');
  });

  it('keeps the claim of a failure that trying again cannot mend, and says it gave up', async () => {
    const { once, held } = claims();
    const gone = new Error('cannot_dm_bot');
    const result = await postOnce(
      once('dm', async (_claim, err) => err === gone),
      async () => {
        throw gone;
      },
    );
    expect(result).toEqual({ state: 'given up', error: gone });
    expect(held.has('dm')).toBe(true);
    expect((await postOnce(once('dm'), async () => 'ts')).state).toBe('taken');
  });
});
