import type { Logger } from 'pino';
import type { BotConfig, WaybillConfig } from '../config.js';
import type { Store } from '../store/store.js';
import type { WaybillClient } from '../waybill/client.js';
import type { SenderProfile } from '../waybill/profiles.js';
import { createWaybillSchemas, type WaybillSchemas } from '../waybill/schemas.js';
import { allBookingFields, type FieldGroup, toBookingInput, updateGroups } from './book/form.js';
import { type FormSection, quoteFormSections, sectionFields } from './quote/blocks.js';
import { AccessControl } from './shared/access.js';
import { requiredPaths } from './shared/forms.js';
import { InFlight } from './shared/in-flight.js';

/** What every listener needs, built once at start-up. */
export interface BotDeps {
  waybill: WaybillConfig;
  schemas: WaybillSchemas;
  courier: WaybillClient;
  store: Store;
  logger: Logger;
  inFlight: InFlight;
  bot: Pick<BotConfig, 'trackingPrefix' | 'maxParcels' | 'auditChannelId' | 'access'>;
  access: AccessControl;
  profiles: SenderProfile[];
  forms: {
    quote: { sections: FormSection[]; required: Set<string> };
    booking: { required: Set<string> };
    update: { groups: FieldGroup[]; required: Set<string> };
  };
  now: () => Date;
}

export function createBotDeps(input: {
  waybill: WaybillConfig;
  courier: WaybillClient;
  store: Store;
  logger: Logger;
  bot: BotDeps['bot'];
  profiles?: SenderProfile[];
  now?: () => Date;
}): BotDeps {
  const schemas = createWaybillSchemas(input.waybill.catalog);
  const { catalog, timeZone } = input.waybill;
  const quoteSections = quoteFormSections(catalog);
  const parcels = input.bot.maxParcels;
  const bookingRequired = requiredPaths(schemas.booking, allBookingFields(catalog, parcels), (raw) =>
    toBookingInput(raw, { trackingNumber: 'GENERATED', timeZone, parcels }),
  );
  const updates = updateGroups(catalog, timeZone);
  const updateRequired = requiredPaths(
    schemas.update,
    updates.flatMap((g) => g.fields),
    (raw) => toBookingInput(raw, { trackingNumber: 'KNOWN', timeZone, parcels: 0, pickerZone: 'configured' }),
  );
  return {
    ...input,
    profiles: input.profiles ?? [],
    access: new AccessControl(input.bot.access, input.logger),
    schemas,
    inFlight: new InFlight(input.logger),
    forms: {
      quote: {
        sections: quoteSections,
        required: requiredPaths(schemas.quote, sectionFields(quoteSections)),
      },
      booking: { required: bookingRequired },
      update: { groups: updates, required: updateRequired },
    },
    now: input.now ?? (() => new Date()),
  };
}
