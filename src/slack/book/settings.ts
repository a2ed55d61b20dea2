/** The booking form's setting: how many parcels it takes (MAX_PARCELS). */
import * as z from 'zod';
import { envSettings, optionalSetting, wholeNumber } from '../../settings/env.js';

declare module '../core.js' {
  interface BotSettings {
    /** Most parcels (child waybills) in the form. */
    maxParcels: number;
  }
}

export const bookEnv = envSettings(
  z.object({
    MAX_PARCELS: optionalSetting(
      wholeNumber(1, 10, 'a whole number of parcels (a Slack modal fits 10)'),
    ).default(10),
  }),
  (settings): { maxParcels: number } => ({ maxParcels: settings.MAX_PARCELS }),
);
