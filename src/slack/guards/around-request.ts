/**
 * What wraps Bolt's processEvent, where both receivers hand each request over: work around the whole
 * of a request (before Bolt reads it, after every listener), which Bolt's middleware cannot see.
 * bot.ts composes them in the order it states.
 */
import type { App } from '@slack/bolt';

export type ProcessEvent = App['processEvent'];

/** Given the next step of the request, the step that does its own work around it. */
export type AroundRequest = (next: ProcessEvent) => ProcessEvent;

/** `around`, outermost first, wrapped around `inner`. */
export const aroundRequests = (inner: ProcessEvent, around: readonly AroundRequest[]): ProcessEvent =>
  around.reduceRight((next, wrap) => wrap(next), inner);
