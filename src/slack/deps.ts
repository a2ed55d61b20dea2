/** What every listener needs (settings, courier, store, forms, access, activity), built once at start-up. */
import type { Logger } from 'pino';
import type { BotConfig, WaybillConfig } from '../config.js';
import type { Store } from '../store/index.js';
import type { WaybillClient } from '../waybill/client.js';
import type { SenderProfile } from '../waybill/profiles.js';
import { createWaybillSchemas, type WaybillSchemas } from '../waybill/schemas.js';
import { partyFormSpec } from './addresses/index.js';
import { bookingFormSpec } from './book/index.js';
import { DEFAULT_REFRESH_TIMING, type RefreshTiming } from './home/index.js';
import { quoteFormSpec } from './quote/index.js';
import { AccessControl } from './shared/access.js';
import { Activity } from './shared/activity.js';
import { InFlight } from './shared/in-flight.js';
import { updateFormSpec } from './update/index.js';

/** What every listener needs, built once at start-up. */
export interface BotDeps {
  waybill: WaybillConfig;
  schemas: WaybillSchemas;
  courier: WaybillClient;
  store: Store;
  logger: Logger;
  inFlight: InFlight;
  bot: Pick<BotConfig, 'trackingPrefix' | 'maxParcels' | 'auditChannelId' | 'access' | 'bulk'>;
  access: AccessControl;
  profiles: SenderProfile[];
  /** Each form's fields and required set, worked out once from its schema. */
  forms: {
    quote: ReturnType<typeof quoteFormSpec>;
    booking: ReturnType<typeof bookingFormSpec>;
    update: ReturnType<typeof updateFormSpec>;
    /** A saved party, in the address book. */
    party: ReturnType<typeof partyFormSpec>;
  };
  now: () => Date;
  /** Who just booked or updated: the Home tab redraws theirs. */
  activity: Activity;
  /** How often Home tabs may be redrawn (tests make it quick). */
  homeRefresh: RefreshTiming;
}

export function createBotDeps(input: {
  waybill: WaybillConfig;
  courier: WaybillClient;
  store: Store;
  logger: Logger;
  bot: BotDeps['bot'];
  profiles?: SenderProfile[];
  now?: () => Date;
  homeRefresh?: RefreshTiming;
}): BotDeps {
  const schemas = createWaybillSchemas(input.waybill.catalog);
  const { catalog, timeZone } = input.waybill;
  return {
    ...input,
    profiles: input.profiles ?? [],
    access: new AccessControl(input.bot.access, input.logger),
    schemas,
    inFlight: new InFlight(input.logger),
    forms: {
      quote: quoteFormSpec(catalog, schemas.quote),
      booking: bookingFormSpec(catalog, schemas.booking, timeZone, input.bot.maxParcels),
      update: updateFormSpec(catalog, timeZone, schemas.update),
      party: partyFormSpec(schemas.party),
    },
    now: input.now ?? (() => new Date()),
    activity: new Activity(),
    homeRefresh: input.homeRefresh ?? DEFAULT_REFRESH_TIMING,
  };
}
