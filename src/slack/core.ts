/**
 * The core every feature is built on (settings, courier, store, logger, clock, work in flight,
 * access, activity, metrics, background jobs), built once at start-up. It knows no feature: each
 * feature works out its own form from the schemas here; bot.ts adds the jobs each feature's register returns to `jobs`.
 */

import type { Logger } from 'pino';
import { Metrics } from '../metrics.js';
import { Access, type AccessPolicy } from '../operations/access.js';
import { Activity } from '../operations/activity.js';
import type { AttentionSettings } from '../operations/attention.js';
import type { ReceiverRiskSettings } from '../operations/receiver-record.js';
import type { ReminderSettings } from '../operations/reminders.js';
import type { RemittanceSettings } from '../operations/remittance.js';
import type { SmsSettings } from '../operations/sms.js';
import { RenderPool } from '../render/pool.js';
import type { Store } from '../store/index.js';
import type { DatabaseConfig } from '../store/settings.js';
import type { WaybillClient } from '../waybill/client.js';
import { givenProfiles, type SenderProfiles } from '../waybill/profiles.js';
import { type WaybillSchemas, waybillSchemas } from '../waybill/schemas.js';
import type { WaybillConfig } from '../waybill/settings.js';
import { InFlight } from './runtime/in-flight.js';
import { Jobs } from './runtime/jobs.js';
import { Probes } from './runtime/probes.js';

/** How often Home tabs may be redrawn (views.publish allows about 100 a minute). */
export interface RefreshTiming {
  /** One person's tab is published at most this often; changes in between are shown together. */
  perPersonMs: number;
  /** Any two publishes are at least this far apart. */
  spacingMs: number;
}

/**
 * The settings features read, each group read from the environment by the module it configures (src/config.ts
 * composes them): those of modules below src/slack named here, and each feature's own added to this interface
 * by its settings.ts (`declare module '../core.js'`), so the core names no feature.
 */
export interface BotSettings {
  /** Generated tracking numbers are this prefix and a six-digit counter. */
  trackingPrefix: string;
  /** Every booking card is also posted here when set. */
  auditChannelId?: string;
  /** Who may quote, book and update; every list empty means everyone in the workspace. */
  access: AccessPolicy;
  remittance: RemittanceSettings;
  /** After how long each rule of attention raises an item, in milliseconds; 0: the rule is off. */
  attention: AttentionSettings;
  /** The receiver's record before booking: when it flags a receiver (a COD booking to one needs a confirmation). */
  receiverRisk: ReceiverRiskSettings;
  /** When and how owners are reminded of what needs attention, and where what stays open is escalated. */
  reminders: ReminderSettings;
  /** Receivers' SMS: the gateway, templates, quiet hours, events and languages. */
  sms: SmsSettings;
  /** How often a replica renews its lease, and so looks for work another replica left. */
  database: Pick<DatabaseConfig, 'leaseRenewMs'>;
}

export interface Core {
  waybill: WaybillConfig;
  schemas: WaybillSchemas;
  courier: WaybillClient;
  store: Store;
  logger: Logger;
  inFlight: InFlight;
  bot: BotSettings;
  /** Who may do what, and who sees a booking where: the one rule (operations/access.ts). */
  access: Access;
  /** The sender profiles, read when first needed: the sandbox's example is not read at start. */
  profiles: SenderProfiles;
  now: () => Date;
  /** Who just booked or updated: the Home tab redraws theirs. */
  activity: Activity;
  /** How often Home tabs may be redrawn (tests make it quick); the Home tab's own default when absent. */
  homeRefresh?: RefreshTiming;
  metrics: Metrics;
  /** Liveness and readiness, /metrics. */
  probes: Probes;
  /** Work a feature runs in the background (the bulk rows queue, the daily digest): started once serving, stopped first on shutdown. */
  jobs: Jobs;
  /** PDFs and large CSV files, made in worker threads: stopped on shutdown. */
  render: RenderPool;
}

export function createCore(input: {
  waybill: WaybillConfig;
  courier: WaybillClient;
  store: Store;
  logger: Logger;
  bot: Core['bot'];
  /** The sender profiles, read when first needed (senderProfiles). */
  profiles?: SenderProfiles;
  now?: () => Date;
  homeRefresh?: RefreshTiming;
  metrics?: Metrics;
  render?: RenderPool;
  /** The installing team, when known at start-up (auth.test); otherwise learned on the first request. */
  teamId?: string;
}): Core {
  const metrics = input.metrics ?? new Metrics();
  metrics.readFrom({
    unknownOutcomes: () => input.store.attempts.countUnknown(),
    pool: () => input.store.pool(),
  });
  const inFlight = new InFlight(input.logger);
  const access = new Access(input.bot.access, (detail, message) => input.logger.warn(detail, message), {
    auditChannelId: input.bot.auditChannelId,
  });
  access.homeTeam = input.teamId;
  return {
    ...input,
    profiles: input.profiles ?? givenProfiles([]),
    access,
    schemas: waybillSchemas(input.waybill.catalog, input.waybill.placeCheck),
    inFlight,
    now: input.now ?? (() => new Date()),
    activity: new Activity(input.store, inFlight, input.logger),
    metrics,
    probes: new Probes({ store: input.store, logger: input.logger, metrics }),
    jobs: new Jobs(input.logger),
    render: input.render ?? new RenderPool(),
  };
}
