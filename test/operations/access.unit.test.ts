/**
 * The access rule on its own (operations/access.ts): another organisation refused whatever the lists
 * say (unless ALLOWED_TEAM_IDS names it), the lists and their groups, a viewer's scope, and how much of
 * a booking each place may show.
 */
import { describe, expect, it } from 'vitest';
import { Access, type AccessPolicy, type Person, sight } from '../../src/operations/access.js';

const policy = (changes: Partial<AccessPolicy> = {}): AccessPolicy => ({
  userIds: [],
  userGroupIds: [],
  channelIds: [],
  teamIds: [],
  ...changes,
});

function access(changes: Partial<AccessPolicy> = {}): Access {
  const made = new Access(policy(changes), () => undefined);
  made.homeTeam = 'T0001';
  return made;
}

/** UBEA is in the user group SDISPATCH, as Slack would say. */
const person = (userId: string, teamId: string | undefined = 'T0001'): Person => ({
  userId,
  teamId,
  groups: async (group) => (group === 'SDISPATCH' ? ['UBEA'] : []),
});

describe('the access rule', () => {
  it('refuses another organisation, and a person whose team is unknown, whatever the lists say', async () => {
    const open = access();
    expect(await open.allows(person('UANA'), 'book', 'CDISPATCH')).toEqual({ ok: true });
    expect(await open.allows(person('UGUEST', 'T0OTHER'), 'show', 'CDISPATCH')).toEqual({
      ok: false,
      reason: 'organisation',
    });
    expect(await open.allows({ ...person('UWHO'), teamId: undefined }, 'show', 'CDISPATCH')).toMatchObject({
      ok: false,
    });
    expect(await open.scope(person('UGUEST', 'T0OTHER'))).toEqual({
      channelIds: 'none',
      reason: 'organisation',
    });
    const shared = access({ teamIds: ['T0OTHER'] });
    expect(await shared.allows(person('UGUEST', 'T0OTHER'), 'show', 'CDISPATCH')).toEqual({ ok: true });
  });

  it('reads the lists: users, groups, channels, and the bulk and finance lists for their operations', async () => {
    const listed = access({
      userIds: ['UANA'],
      userGroupIds: ['SDISPATCH'],
      channelIds: ['CDISPATCH'],
      bulkUserIds: ['UANA'],
      financeUserIds: ['UBEA'],
    });
    expect(await listed.allows(person('UANA'), 'book', 'CDISPATCH')).toEqual({ ok: true });
    expect(await listed.allows(person('UANA'), 'book', 'CELSEWHERE')).toEqual({
      ok: false,
      reason: 'channel',
    });
    expect(await listed.allows(person('UEVE'), 'book', 'CDISPATCH')).toEqual({ ok: false, reason: 'user' });
    expect(await listed.allows(person('UBEA'), 'book', 'CDISPATCH')).toEqual({ ok: true });
    expect(await listed.allows(person('UBEA'), 'bulk', 'CDISPATCH')).toMatchObject({
      ok: false,
    });
    expect(await listed.allows(person('UBEA'), 'remittance', 'CDISPATCH')).toEqual({
      ok: true,
    });
    expect(await listed.allows(person('UANA'), 'remittance', 'CDISPATCH')).toMatchObject({ ok: false });
    expect(await listed.scope(person('UANA'))).toEqual({ channelIds: ['CDISPATCH'] });
    expect(await listed.scope(person('UEVE'))).toEqual({ channelIds: 'none', reason: 'user' });
  });

  it('shows a booking whole privately and in its own conversation, its number and status elsewhere, nothing outside the scope', () => {
    const scope = { channelIds: ['CDISPATCH', 'CPRIVATE'] } as const;
    const booking = { channelId: 'CPRIVATE' };
    expect(sight(scope, { kind: 'private' }, booking)).toBe('whole');
    expect(sight(scope, { kind: 'conversation', channelId: 'CPRIVATE' }, booking)).toBe('whole');
    expect(sight(scope, { kind: 'conversation', channelId: 'CDISPATCH' }, booking)).toBe('number and status');
    expect(sight(scope, { kind: 'step outputs' }, booking)).toBe('number and status');
    expect(sight(scope, { kind: 'conversation', channelId: 'CAUDIT' }, booking, 'CAUDIT')).toBe('whole');
    expect(sight(scope, { kind: 'private' }, { channelId: 'CRESTRICTED' })).toBe('nothing');
    expect(sight({ channelIds: 'none', reason: 'organisation' }, { kind: 'private' }, booking)).toBe(
      'nothing',
    );
    expect(sight({ channelIds: 'every' }, { kind: 'private' }, { channelId: 'CANY' })).toBe('whole');
  });
});
