/** The daily digest's settings: where and when (DIGEST_CHANNEL_ID, DIGEST_TIME), both or neither. */
import { z } from 'zod';
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
    // Both are needed: one without the other is a mistake, not "off".
    const { DIGEST_CHANNEL_ID: channel, DIGEST_TIME: time } = settings;
    if (Boolean(channel) !== Boolean(time)) {
      problems.add(
        ['DIGEST_CHANNEL_ID', 'DIGEST_TIME'],
        channel
          ? 'DIGEST_TIME must be set with DIGEST_CHANNEL_ID: the time of day (HH:MM in WAYBILL_TIMEZONE) the daily digest is posted'
          : 'DIGEST_CHANNEL_ID must be set with DIGEST_TIME: the channel the daily digest is posted to',
      );
    }
    return channel && time ? { digest: { channelId: channel, time } } : {};
  },
);
