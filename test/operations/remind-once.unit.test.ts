/**
 * A reminder DM and an escalation sent once through operations/reminders.ts, on a table that records
 * what it is told: a DM an earlier claim posted is recorded with that post and not sent again; a person
 * who can never be sent a DM is recorded as reminded (no DM); another failure gives the claim back; an
 * escalation with nothing claimed posts nothing.
 */
import { describe, expect, it } from 'vitest';
import type { AttentionItem } from '../../src/operations/attention.js';
import { escalateOnce, type ReminderPort, remindOnce } from '../../src/operations/reminders.js';
import type { ReminderRow, Store } from '../../src/store/index.js';

const at = new Date('2026-11-23T02:00:00Z');
const item = (key: string): AttentionItem => ({ rule: 'failed', key, ownerId: 'UANA', since: at, dueAt: at });
const row = (key: string, batch: string, sent = false): ReminderRow => ({
  rule: 'failed',
  key,
  ownerId: 'UANA',
  since: at,
  version: 1,
  claimGone: true,
  claimedAt: at,
  batch,
  escalationGone: false,
  escalationBatch: batch,
  ...(sent ? { sentAt: at } : {}),
});

/** The reminders table, saying yes to every claim unless told `taken`, and writing down the rest. */
function table(taken = false) {
  const told: string[] = [];
  const reminders = {
    claim: async () => (taken ? undefined : 'B2'),
    sent: async (batch: string, items: { key: string }[], dm: { channel: string; ts: string }) =>
      void told.push(
        `sent ${batch} ${items.map((i) => i.key).join(',')} in ${dm.channel || '-'} ${dm.ts || '-'}`,
      ),
    release: async (batch: string) => void told.push(`release ${batch}`),
    claimEscalation: async () => !taken,
    escalated: async () => void told.push('escalated'),
    releaseEscalation: async (i: { key: string }) => void told.push(`release escalation ${i.key}`),
  };
  return { store: { reminders } as unknown as Pick<Store, 'reminders'>, told };
}

/** Slack as a port: the DM is D1, the earlier batch B1's post is found at ts 1.0, each post is written down. */
function port(fail?: Error): ReminderPort & { posts: string[] } {
  const posts: string[] = [];
  return {
    posts,
    open: async () => 'D1',
    postedEarlier: async (_channel, batches) =>
      new Map([...batches].filter((b) => b === 'B1').map((b) => [b, '1.0'])),
    post: async (channel, batch, items) => {
      if (fail) throw fail;
      posts.push(`${channel} ${batch} ${items.map((i) => i.key).join(',')}`);
      return '2.0';
    },
    unreachable: (err) => err instanceof Error && err.message === 'cannot_dm_bot',
  };
}

describe('remindOnce', () => {
  it("records an earlier claim's DM found posted with it, and posts only the rest", async () => {
    const { store, told } = table();
    const slack = port();
    const entries = [
      { item: item('WB1'), row: row('WB1', 'B1') },
      { item: item('WB2'), row: undefined },
    ];
    const done = await remindOnce(store, { ownerId: 'UANA', entries, lastDmAt: undefined }, slack);
    expect(done.state).toBe('posted');
    expect(slack.posts).toEqual(['D1 B2 WB2']);
    expect(told).toEqual(['sent B2 WB1 in D1 1.0', 'sent B2 WB2 in D1 2.0']);
  });

  it('records a person who can never be sent a DM as reminded, with no DM, and gives up', async () => {
    const { store, told } = table();
    const done = await remindOnce(
      store,
      { ownerId: 'UBOT', entries: [{ item: item('WB1'), row: undefined }], lastDmAt: undefined },
      port(new Error('cannot_dm_bot')),
    );
    expect(done.state).toBe('given up');
    expect(told).toEqual(['sent B2 WB1 in - -']);
  });

  it('gives the claim back on any other failure, for the next turn', async () => {
    const { store, told } = table();
    const dm = { ownerId: 'UANA', entries: [{ item: item('WB1'), row: undefined }], lastDmAt: undefined };
    await expect(remindOnce(store, dm, port(new Error('ratelimited')))).rejects.toThrow('ratelimited');
    expect(told).toEqual(['release B2']);
  });
});

describe('escalateOnce', () => {
  it('posts nothing when every item was claimed elsewhere', async () => {
    const { store, told } = table(true);
    const slack = port();
    const done = await escalateOnce(
      store,
      'CESC',
      [{ item: item('WB1'), row: row('WB1', 'B0', true) }],
      slack,
    );
    expect(done.state).toBe('taken');
    expect([slack.posts, told]).toEqual([[], []]);
  });

  it('gives back each item claimed when the post fails', async () => {
    const { store, told } = table();
    const entries = ['WB1', 'WB2'].map((key) => ({ item: item(key), row: row(key, 'B0', true) }));
    await expect(
      escalateOnce(store, 'CESC', entries, port(new Error('channel_not_found'))),
    ).rejects.toThrow();
    expect(told).toEqual(['release escalation WB1', 'release escalation WB2']);
  });
});
