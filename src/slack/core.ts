/**
 * The core every feature is built on (settings, courier, store, logger, clock, work in flight,
 * access, activity, metrics, background jobs), built once at start-up. It knows no feature: each
 * feature works out its own form from the schemas here; bot.ts adds the jobs each feature's register returns to `jobs`.
 */

import type { Logger } from 'pino';
import type { BotConfig, WaybillConfig } from '../config.js';
import { Metrics } from '../metrics.js';
import { Access } from '../operations/access.js';
import { Activity } from '../operations/activity.js';
import { RenderPool } from '../render/pool.js';
import type { Store } from '../store/index.js';
import type { WaybillClient } from '../waybill/client.js';
import type { SenderProfile } from '../waybill/profiles.js';
import { type WaybillSchemas, waybillSchemas } from '../waybill/schemas.js';
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

export interface Core {
  waybill: WaybillConfig;
  schemas: WaybillSchemas;
  courier: WaybillClient;
  store: Store;
  logger: Logger;
  inFlight: InFlight;
  bot: Pick<
    BotConfig,
    | 'trackingPrefix'
    | 'trackingUrlTemplate'
    | 'maxParcels'
    | 'auditChannelId'
    | 'access'
    | 'bulk'
    | 'labelPageSize'
    | 'labelFormat'
    | 'labelDpi'
    | 'labelPrinters'
    | 'labelPrinterTimeoutMs'
    | 'remittance'
    | 'digest'
    | 'attention'
    | 'reminders'
    | 'report'
    | 'receiverRisk'
    | 'sms'
  > & {
    /** How often a replica renews its lease, and so looks for work another replica left. */
    database: Pick<BotConfig['database'], 'leaseRenewMs'>;
  };
  /** Who may do what, and who sees a booking where: the one rule (operations/access.ts). */
  access: Access;
  profiles: SenderProfile[];
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
  profiles?: SenderProfile[];
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
    profiles: input.profiles ?? [],
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
