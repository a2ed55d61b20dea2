/** Every listener states its permission where it is registered, the permission is the one stated whatever the id, and withDraft answers an expired draft. */
import { App } from '@slack/bolt';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Access } from '../../src/operations/access.js';
import { declaredPermission, requires } from '../../src/slack/guards/access.js';
import { withDraft } from '../../src/slack/guards/with-draft.js';
import { startTestBot, type TestBot } from '../support/bot-harness.js';

const methods = ['action', 'view', 'command', 'shortcut', 'options', 'event', 'function'] as const;

/** A listener's constraints object by what it listens for: its callback id or action id, else its type. */
function idOf(constraints: object): string {
  const { callback_id, action_id, type } = constraints as Record<string, unknown>;
  const id = [action_id, callback_id].find((value) => typeof value === 'string');
  return typeof id === 'string' ? id : String(type);
}

describe('listener registration', () => {
  const registered: { method: string; on: string; permission: string | undefined }[] = [];
  let bot: TestBot;

  beforeAll(async () => {
    // Every registration on Bolt's App is recorded, then made as usual.
    for (const method of methods) {
      const original = App.prototype[method] as (...args: unknown[]) => void;
      vi.spyOn(App.prototype, method).mockImplementation(function (this: App, ...args: unknown[]) {
        const [on, first] = args;
        registered.push({
          method,
          on: typeof on === 'object' && on !== null && !(on instanceof RegExp) ? idOf(on) : String(on),
          permission: declaredPermission(first),
        });
        return original.apply(this, args);
      } as never);
    }
    bot = await startTestBot();
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await bot?.stop();
  });

  it('starts every listener of every feature with a requires() guard', () => {
    expect(registered.length).toBeGreaterThan(40);
    expect(registered.filter((listener) => listener.permission === undefined)).toEqual([]);
  });

  it("gives each listener the permission its id's prefix gave it before listeners declared their own", () => {
    const byPermission: Record<string, string[]> = {};
    for (const { method, on, permission = 'none' } of registered) {
      byPermission[permission] = [...(byPermission[permission] ?? []), `${method} ${on}`];
    }
    for (const listeners of Object.values(byPermission)) listeners.sort();
    expect(byPermission).toEqual(expectedPermissions);
  });
});

/**
 * What each listener requires (as the ids' prefixes gave it before each listener declared its own).
 * The commands read theirs from their words: help needs nothing, `/book import` bulk, and each
 * `/waybill` subcommand what src/slack/waybill-command.ts says.
 */
const expectedPermissions: Record<string, string[]> = {
  quote: [
    'action quote_back',
    'action quote_from_home',
    'action quote_party',
    'action quote_reopen',
    'action quote_retry',
    'function quote_delivery',
    'options quote_party',
    'shortcut quote_new',
    'view quote_destination',
    'view quote_form',
  ],
  book: [
    'action book_from_home',
    'action book_from_quote',
    'action book_rebook',
    'action book_resume',
    'action booking_add_parcel',
    'action booking_back',
    'action booking_edit',
    'action booking_party',
    'action booking_profile',
    'action booking_remove_parcel',
    'action booking_retry',
    'function book_waybill',
    'options booking_party',
    'shortcut book_from_message',
    'shortcut book_new',
    'view booking_destination',
    'view booking_review',
    'view booking_step',
  ],
  update: [
    'action owner_assign',
    'action owner_take',
    'action reattempt_open',
    'action reminder_return',
    'action reminder_snooze',
    'action resolve_open',
    'action resolve_update_open',
    'action status_open',
    'action update_back',
    'action update_retry',
    'action update_send_checked',
    'action waybill_update',
    'function record_status',
    'view resolve_form',
    'view resolve_update_form',
    'view status_form',
    'view statuses_file',
    'view statuses_file_columns',
    'view statuses_form',
    'view update_form',
  ],
  addresses: [
    'action addresses_delete',
    'action addresses_edit',
    'view addresses_edit_form',
    'view addresses_list',
  ],
  bulk: [
    'action bulk_open',
    'action bulk_page',
    'action bulk_template',
    'view bulk_confirm',
    'view bulk_import',
  ],
  remittance: ['action remittance_open', 'view remittance_import'],
  show: [
    'action export_open',
    'action find_home',
    'action find_more',
    'action find_show',
    'action labels_bulk',
    'action labels_manifest',
    'action labels_print',
    'action labels_send_to_printer',
    'action recognise_show_all',
    'function find_waybill',
    'view export_range',
  ],
  // The place type-ahead: what the form it is in needs (src/slack/places/options.ts).
  'per request': ['command /book', 'command /quote', 'command /waybill', 'options value'],
  nothing: ['event app_home_opened', 'event function_executed', 'event message', 'view view_closed'],
};

describe('requires()', () => {
  const logger = pino({ level: 'silent' });

  /**
   * Runs a guard on a click by UBOOKER, as Bolt would, under a policy listing `userIds` (nobody may
   * book from a file): whether the listener was reached, the audit rows, what the clicker was told.
   */
  async function run(permission: Parameters<typeof requires>[1], actionId: string, userIds = ['UBOOKER']) {
    const policy = { userIds, userGroupIds: [], channelIds: [], bulkUserIds: [], teamIds: [] };
    const audit: { operation: string }[] = [];
    const told: string[] = [];
    const core = {
      access: Object.assign(new Access(policy, () => undefined), { homeTeam: 'T0001' }),
      store: {
        audit: { record: async (row: { operation: string }) => void audit.push(row) },
        drafts: { get: async () => undefined },
      },
      logger,
    };
    let reached = false;
    await requires(
      core as never,
      permission,
    )({
      body: {
        type: 'block_actions',
        user: { id: 'UBOOKER', team_id: 'T0001' },
        channel: { id: 'CDISPATCH' },
        trigger_id: 'T1',
        actions: [{ action_id: actionId }],
      },
      ack: async () => undefined,
      client: { chat: { postEphemeral: async ({ text }: { text: string }) => void told.push(text) } },
      next: async () => {
        reached = true;
      },
    } as never);
    return { reached, audit: audit.map((row) => row.operation), told };
  }

  it('an id starting with `book` registered with requires(update) needs update', async () => {
    const refused = await run('update', 'book_something', ['USOMEONE']);
    expect(refused.reached).toBe(false);
    expect(refused.audit).toEqual(['update']);
    expect(refused.told[0]).toContain('may update waybills');
  });

  it('checks what was declared, not what the id starts with', async () => {
    // UBOOKER may book but not book from a file: the same `book` id passes as 'book' and not as 'bulk'.
    expect((await run('book', 'book_something')).reached).toBe(true);
    const asBulk = await run('bulk', 'book_something');
    expect(asBulk).toMatchObject({ reached: false, audit: ['bulk'] });
    expect(asBulk.told[0]).toContain('book waybills from a CSV file');
    // An id that names no operation at all is guarded as declared.
    expect(await run('bulk', 'zz_anything')).toMatchObject({ reached: false, audit: ['bulk'] });
  });

  it("requires('nothing') lets everyone through, listed or not", async () => {
    expect(await run('nothing', 'book_something', ['USOMEONE'])).toEqual({
      reached: true,
      audit: [],
      told: [],
    });
  });

  it('marks its middleware with what it requires, so an unguarded listener is found', () => {
    const core = {
      access: new Access({ userIds: [], userGroupIds: [], channelIds: [], teamIds: [] }, () => undefined),
    };
    expect(declaredPermission(requires(core as never, 'update'))).toBe('update');
    expect(declaredPermission(requires(core as never, () => 'book'))).toBe('per request');
    expect(declaredPermission(async () => undefined)).toBeUndefined();
  });
});

describe('withDraft()', () => {
  const drafts = {
    get: async (id: string) =>
      ({ booking1: { id, kind: 'booking', data: { step: 'shipment' } }, quote1: { id, kind: 'quote' } })[
        id
      ] as never,
  };
  const form = {
    id: 'V1',
    private_metadata: JSON.stringify({ draftId: 'gone' }),
    blocks: [
      { type: 'section', block_id: 'intro' },
      { type: 'input', block_id: 'first' },
      { type: 'input', block_id: 'second' },
    ],
  };

  /** Runs the middleware on a request from a modal naming `draftId`: what it acknowledged, and the context the listener got. */
  async function run(
    middleware: ReturnType<typeof withDraft>,
    type: 'view_submission' | 'block_actions',
    draftId: string,
  ) {
    const acks: unknown[] = [];
    let reached: Record<string, unknown> | undefined;
    const context: Record<string, unknown> = {};
    await middleware({
      body: { type, view: { ...form, private_metadata: JSON.stringify({ draftId }) } },
      ack: async (response?: unknown) => void acks.push(response),
      context,
      next: async () => {
        reached = context;
      },
    } as never);
    return { acks, reached };
  }

  it('puts the draft of its kind in the context, and answers nothing itself', async () => {
    const { acks, reached } = await run(withDraft(drafts, 'booking'), 'view_submission', 'booking1');
    expect(acks).toEqual([]);
    expect(reached?.draft).toMatchObject({ id: 'booking1', data: { step: 'shipment' } });
  });

  it("answers a form whose draft is gone, or of another kind, in the form's own words", async () => {
    const expired = { error: 'This form has expired.' };
    for (const draftId of ['gone', 'quote1']) {
      const { acks, reached } = await run(withDraft(drafts, 'booking', expired), 'view_submission', draftId);
      expect(reached).toBeUndefined();
      // Under the form's first input, unless the form names another block.
      expect(acks).toEqual([{ response_action: 'errors', errors: { first: 'This form has expired.' } }]);
    }
    const under = await run(
      withDraft(drafts, 'booking', { ...expired, block: 'second' }),
      'view_submission',
      'gone',
    );
    expect(under.acks).toEqual([{ response_action: 'errors', errors: { second: 'This form has expired.' } }]);
    const view = {
      type: 'modal' as const,
      title: { type: 'plain_text' as const, text: 'Expired' },
      blocks: [],
    };
    const replaced = await run(withDraft(drafts, 'booking', { view: () => view }), 'view_submission', 'gone');
    expect(replaced.acks).toEqual([{ response_action: 'update', view }]);
  });

  it('acknowledges a button in a modal whose draft is gone, and does nothing', async () => {
    const { acks, reached } = await run(withDraft(drafts, 'booking'), 'block_actions', 'gone');
    expect(acks).toEqual([undefined]);
    expect(reached).toBeUndefined();
  });
});
