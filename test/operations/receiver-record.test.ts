/**
 * The receiver risk rule (each threshold, both off, confirmation only for COD), the record's words, the
 * lookup by E.164, `RECEIVER_RISK_RETURNS` and `RECEIVER_RISK_FAILED` read as `count/window` or `0`, a bad
 * value one line naming it.
 */
// The receiver risk rule, its words and its settings: RECEIVER_RISK_RETURNS and RECEIVER_RISK_FAILED as count/window.
import { describe, expect, it } from 'vitest';
import { loadBotConfig } from '../../src/config.js';
import {
  checkOf,
  judge,
  needsConfirmation,
  type ReceiverRiskSettings,
  receiverRecord,
  recordWords,
} from '../../src/operations/receiver-record.js';
import { ConfigError } from '../../src/settings-error.js';
import type { ReceiverHistory, Receivers } from '../../src/store/index.js';

/** The scope that sees every booking. */
const EVERY = { channelIds: 'every' } as const;
const DEFAULTS: ReceiverRiskSettings = { returns: { count: 1, window: 5 }, failed: { count: 2, window: 5 } };

const history = (over: Partial<ReceiverHistory> = {}): ReceiverHistory => ({
  parcels: 5,
  delivered: 5,
  failed: 0,
  returned: 0,
  refused: 0,
  recent: { returns: 0, failed: 0 },
  ...over,
});

describe('the risk rule', () => {
  it('flags at the count among the latest parcels, each rule on its own, and says why', () => {
    expect(judge(history(), DEFAULTS)).toMatchObject({ flagged: false, reasons: [] });
    expect(judge(history({ recent: { returns: 1, failed: 0 } }), DEFAULTS)).toMatchObject({
      flagged: true,
      reasons: ['1 returned or refused of the last 5 parcels'],
    });
    expect(judge(history({ recent: { returns: 0, failed: 1 } }), DEFAULTS).flagged).toBe(false);
    expect(judge(history({ recent: { returns: 2, failed: 3 } }), DEFAULTS).reasons).toEqual([
      '2 returned or refused of the last 5 parcels',
      '3 failed attempts in the last 5 parcels',
    ]);
    // A rule left out is off; both off flags nobody.
    expect(judge(history({ recent: { returns: 4, failed: 4 } }), {}).flagged).toBe(false);
    expect(
      judge(history({ recent: { returns: 0, failed: 1 } }), { failed: { count: 1, window: 1 } }).reasons,
    ).toEqual(['1 failed attempt in the last 1 parcel']);
  });

  it('asks for a confirmation only for cash on delivery to a flagged receiver', () => {
    const flagged = judge(history({ recent: { returns: 1, failed: 0 } }), DEFAULTS);
    expect(needsConfirmation(flagged, true)).toBe(true);
    expect(needsConfirmation(flagged, false)).toBe(false);
    expect(needsConfirmation(judge(history(), DEFAULTS), true)).toBe(false);
    expect(needsConfirmation(undefined, true)).toBe(false);
    expect(checkOf(flagged, 'UANA')).toEqual({
      parcels: 5,
      delivered: 5,
      failed: 0,
      returned: 0,
      refused: 0,
      flagged: true,
      confirmedBy: 'UANA',
    });
  });

  it('is looked up by the phone as E.164, whatever its format; nothing for a phone that cannot be dialled or no earlier parcel', async () => {
    const asked: { phone: string; windows: object }[] = [];
    const parcels = new Map([['+639171234567', 2]]);
    const receivers = {
      history: async (phone: string, windows: { returns: number; failed: number }) => {
        asked.push({ phone, windows });
        return history({ parcels: parcels.get(phone) ?? 0 });
      },
    } as unknown as Receivers;
    const store = { receivers };
    expect(
      await receiverRecord(store, DEFAULTS, { phone: '(0917) 123-4567', country: 'PH' }, EVERY),
    ).toMatchObject({
      parcels: 2,
      flagged: false,
    });
    expect(
      await receiverRecord(store, { failed: { count: 1, window: 9 } }, { phone: '+63 917 123 4567' }, EVERY),
    ).toMatchObject({
      parcels: 2,
    });
    expect(
      await receiverRecord(store, DEFAULTS, { phone: '0918 765 4321', country: 'PH' }, EVERY),
    ).toBeUndefined();
    expect(await receiverRecord(store, DEFAULTS, { phone: '12', country: 'PH' }, EVERY)).toBeUndefined();
    expect(asked).toEqual([
      { phone: '+639171234567', windows: { returns: 5, failed: 5 } },
      { phone: '+639171234567', windows: { returns: 0, failed: 9 } },
      { phone: '+639187654321', windows: { returns: 5, failed: 5 } },
    ]);
  });
});

describe('the record in words', () => {
  it('counts only, none that are 0, singular where one', () => {
    const counts = { parcels: 5, delivered: 3, failed: 0, returned: 2, refused: 0 };
    expect(recordWords(counts)).toBe('5 earlier parcels: 3 delivered, 2 returned');
    expect(recordWords({ parcels: 1, delivered: 0, failed: 1, returned: 0, refused: 1 })).toBe(
      '1 earlier parcel: 1 failed attempt, 1 COD refused',
    );
    expect(recordWords({ parcels: 2, delivered: 0, failed: 3, returned: 0, refused: 0 })).toBe(
      '2 earlier parcels: 3 failed attempts',
    );
    expect(recordWords({ parcels: 2, delivered: 0, failed: 0, returned: 0, refused: 0 })).toBe(
      '2 earlier parcels',
    );
  });
});

describe('RECEIVER_RISK_RETURNS and RECEIVER_RISK_FAILED', () => {
  const problemsOf = (env: Record<string, string>) => {
    try {
      loadBotConfig(env);
    } catch (error) {
      if (error instanceof ConfigError) return error.problems;
      throw error;
    }
    return [];
  };

  it('default to 1/5 and 2/5; count/window, with spaces around; 0 turns a rule off', () => {
    expect(loadBotConfig({}).receiverRisk).toEqual(DEFAULTS);
    expect(
      loadBotConfig({ RECEIVER_RISK_RETURNS: ' 2/10 ', RECEIVER_RISK_FAILED: '0' }).receiverRisk,
    ).toEqual({
      returns: { count: 2, window: 10 },
    });
    expect(
      loadBotConfig({ RECEIVER_RISK_RETURNS: '0', RECEIVER_RISK_FAILED: '100/100' }).receiverRisk,
    ).toEqual({
      failed: { count: 100, window: 100 },
    });
  });

  it('a bad value is one line naming the setting', () => {
    for (const wrong of ['1', '1/', '/5', 'one/5', '1 / 5', '-1/5'])
      expect(problemsOf({ RECEIVER_RISK_RETURNS: wrong }), wrong).toEqual([
        'RECEIVER_RISK_RETURNS must be count/window such as 1/5 (that many among the latest parcels), or 0 for off',
      ]);
    for (const wrong of ['0/5', '6/5', '1/101', '0/0'])
      expect(problemsOf({ RECEIVER_RISK_FAILED: wrong }), wrong).toEqual([
        'RECEIVER_RISK_FAILED must be count/window with a count from 1 to the window and a window of at most 100 parcels, such as 1/5, or 0 for off',
      ]);
  });
});
