/** Watching the fake Slack: when each call arrived, and the bot's calls indexed by what they answer. */

import { ids } from '../fakes/ids.js';
import type { FakeCall, FakeSlack } from '../fakes/slack-fake.js';
import { epochMs } from './lib.js';

export type Json = Record<string, unknown>;

/** Arrival time of every call the fake records (its own records have none). */
export function trackArrivals(fake: FakeSlack): Map<FakeCall, number> {
  const arrivals = new Map<FakeCall, number>();
  const calls = fake.calls;
  const push = calls.push.bind(calls);
  calls.push = (...items: FakeCall[]) => {
    const now = epochMs();
    for (const item of items) arrivals.set(item, now);
    return push(...items);
  };
  return arrivals;
}

export const viewOf = (call: FakeCall): Json => (call.body.view ?? {}) as Json;
export const titleOf = (view: Json): string => String((view.title as Json | undefined)?.text ?? '');

/** The calls the bot made, indexed as they arrive (reads fake.calls from where it left off). */
export class CallIndex {
  private cursor = 0;
  readonly opensByTrigger = new Map<string, FakeCall[]>();
  readonly updatesByView = new Map<string, FakeCall[]>();
  readonly quotePostsByDraft = new Map<string, FakeCall[]>();
  readonly cardsByTracking = new Map<string, FakeCall[]>();
  readonly ephemeral: FakeCall[] = [];

  constructor(private readonly fake: FakeSlack) {}

  private static add(map: Map<string, FakeCall[]>, key: string, call: FakeCall): void {
    const list = map.get(key);
    if (list) list.push(call);
    else map.set(key, [call]);
  }

  update(): this {
    const calls = this.fake.calls;
    for (; this.cursor < calls.length; this.cursor += 1) {
      const call = calls[this.cursor];
      if (!call) continue;
      const body = call.body;
      switch (call.method) {
        case 'views.open':
          CallIndex.add(this.opensByTrigger, String(body.trigger_id), call);
          break;
        case 'views.update':
          CallIndex.add(this.updatesByView, String(body.view_id), call);
          break;
        case 'chat.postMessage': {
          const booked = /^Booked (\S+)/.exec(String(body.text ?? ''));
          if (booked?.[1]) CallIndex.add(this.cardsByTracking, booked[1], call);
          for (const block of (Array.isArray(body.blocks) ? body.blocks : []) as Json[]) {
            for (const element of (Array.isArray(block.elements) ? block.elements : []) as Json[]) {
              if (element.action_id === ids.bookFromQuote) {
                CallIndex.add(this.quotePostsByDraft, String(element.value), call);
              }
            }
          }
          break;
        }
        case 'chat.postEphemeral':
          this.ephemeral.push(call);
          break;
      }
    }
    return this;
  }

  /** views.update calls for a view whose new view has this callback_id. */
  updates(viewId: string, callbackId: string): FakeCall[] {
    return (this.updatesByView.get(viewId) ?? []).filter((c) => viewOf(c).callback_id === callbackId);
  }
}
