/** Unfurling's setting: the courier's tracking page, whose links unfurl as the booking (TRACKING_URL_TEMPLATE). */
import * as z from 'zod';
import { envSettings, optionalSetting } from '../../settings/env.js';

declare module '../core.js' {
  interface BotSettings {
    /** `{tn}` for the number; undefined: no unfurls. */
    trackingUrlTemplate?: string;
  }
}

export const recogniseEnv = envSettings(
  z.object({
    TRACKING_URL_TEMPLATE: optionalSetting(
      z
        .string()
        .trim()
        .refine(
          (value) =>
            value.split('{tn}').length === 2 &&
            URL.canParse(value.replace('{tn}', 'WB000001')) &&
            new URL(value.replace('{tn}', 'WB000001')).protocol === 'https:',
          'an https URL with {tn} once where the tracking number goes, e.g. https://courier.example/track/{tn}',
        ),
    ),
  }),
  (settings): { trackingUrlTemplate?: string } => ({ trackingUrlTemplate: settings.TRACKING_URL_TEMPLATE }),
);
