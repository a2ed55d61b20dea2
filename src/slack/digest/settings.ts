/** The daily digest's settings: where and when (DIGEST_CHANNEL_ID, DIGEST_TIME), both or neither. */
import * as z from 'zod';
import { channelId, envSettings, optionalSetting } from '../../settings/env.js';

export interface DigestSettings {
  channelId: string;
  /** HH:MM in WAYBILL_TIMEZONE. */
  time: string;
}

declare module '../core.js' {
  interface BotSettings {
    /** The daily digest; undefined: off. */
    digest?: DigestSettings;
  }
}

export const digestEnv = envSettings(
  z.object({
    DIGEST_CHANNEL_ID: optionalSetting(channelId()),
    DIGEST_TIME: optionalSetting(
      z
        .string()
        .trim()
        .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a time of day as HH:MM, such as 18:00 (in WAYBILL_TIMEZONE)'),
    ),
  }),
  (settings, problems): { digest?: DigestSettings } => {
    const { DIGEST_CHANNEL_ID: channel, DIGEST_TIME: time } = settings;
    problems.together(settings, {
      DIGEST_CHANNEL_ID: 'the channel the daily digest is posted to',
      DIGEST_TIME: 'the time of day (HH:MM in WAYBILL_TIMEZONE) the daily digest is posted',
    });
    return channel && time ? { digest: { channelId: channel, time } } : {};
  },
);
