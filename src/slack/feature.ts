/**
 * What a feature declares in its index.ts, so nothing about it is wired by hand elsewhere: bot.ts
 * registers every feature of features.ts, adds the jobs its register returns, and /waybill routes
 * to its verbs and lists them in its help.
 */
import type { App } from '@slack/bolt';
import type { Core } from './core.js';
import type { WaybillVerb } from './kit/command-request.js';
import type { Job } from './runtime/jobs.js';

/** A feature's background work by name, each made with its schedule (clockJob's every, say). */
export type FeatureJobs = Record<string, Job>;

export interface Feature {
  /** Its folder under src/slack/. */
  name: string;
  /** Registers its listeners; a feature with background work returns its jobs (none while a setting leaves them off). */
  register?: ((app: App, core: Core) => void) | ((app: App, core: Core) => FeatureJobs);
  /** Its `/waybill` subcommands, in the order /waybill help lists them. */
  verbs?: readonly WaybillVerb<unknown, Core>[];
}
