/** What a listener is registered with: the permission it requires, as a marked middleware (made by guards/access.ts `requires`), then any other middleware. */
import type { AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import type { GuardedOperation } from '../runtime/access-control.js';

/** What a listener needs: one of the guarded operations, or nothing (help, a closed modal, the Home tab opened). */
export type Permission = GuardedOperation | 'nothing';

/** Marks a middleware made by `requires`, with what it requires, so a listener without one can be found. */
export const REQUIRED = Symbol('requires');

export type Guard = Middleware<AnyMiddlewareArgs> & { [REQUIRED]: Permission | 'per request' };

/** A listener's middleware: its `requires` guard first, then any other (`withDraft`). */
// biome-ignore lint/suspicious/noExplicitAny: whatever context the middleware adds
export type Guarded = readonly [Guard, ...Middleware<AnyMiddlewareArgs, any>[]];
