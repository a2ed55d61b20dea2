import type { Logger } from 'pino';
import type { WaybillConfig } from '../config.js';
import type { Store } from '../store/store.js';
import type { WaybillClient } from '../waybill/client.js';
import { createWaybillSchemas, type WaybillSchemas } from '../waybill/schemas.js';
import { type FormSection, quoteFormSections, sectionFields } from './blocks/quote.js';
import { requiredPaths } from './forms.js';
import { InFlight } from './in-flight.js';

/** What every listener needs, built once at start-up. */
export interface BotDeps {
  waybill: WaybillConfig;
  schemas: WaybillSchemas;
  courier: WaybillClient;
  store: Store;
  logger: Logger;
  inFlight: InFlight;
  forms: { quote: { sections: FormSection[]; required: Set<string> } };
  now: () => Date;
}

export function createBotDeps(input: {
  waybill: WaybillConfig;
  courier: WaybillClient;
  store: Store;
  logger: Logger;
  now?: () => Date;
}): BotDeps {
  const schemas = createWaybillSchemas(input.waybill.catalog);
  const quoteSections = quoteFormSections(input.waybill.catalog);
  return {
    ...input,
    schemas,
    inFlight: new InFlight(input.logger),
    forms: {
      quote: {
        sections: quoteSections,
        required: requiredPaths(schemas.quote, sectionFields(quoteSections)),
      },
    },
    now: input.now ?? (() => new Date()),
  };
}
