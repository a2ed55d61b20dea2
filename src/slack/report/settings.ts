/** The weekly report's settings: where, on which day and when (REPORT_CHANNEL_ID, REPORT_TIME), both or neither. */
import * as z from 'zod';
import { channelId, envSettings, optionalSetting } from '../../settings/env.js';

export interface ReportSettings {
  channelId: string;
  /** 0 Sunday … 6 Saturday. */
  weekday: number;
  /** HH:MM in WAYBILL_TIMEZONE. */
  time: string;
}

declare module '../core.js' {
  interface BotSettings {
    /** The weekly report; undefined: off. */
    report?: ReportSettings;
  }
}

/** Day names as REPORT_TIME takes them, Sunday first as Date.getDay() counts. */
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

export const reportEnv = envSettings(
  z.object({
    REPORT_CHANNEL_ID: optionalSetting(channelId()),
    REPORT_TIME: optionalSetting(
      z
        .string()
        .trim()
        .regex(
          /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) ([01]\d|2[0-3]):[0-5]\d$/i,
          'a day of the week and a time as ddd HH:MM, such as Mon 08:00 (in WAYBILL_TIMEZONE)',
        )
        .transform((value) => ({
          weekday: WEEKDAYS.indexOf(value.slice(0, 3).toLowerCase()),
          time: value.slice(4),
        })),
    ),
  }),
  (settings, problems): { report?: ReportSettings } => {
    const { REPORT_CHANNEL_ID: channel, REPORT_TIME: time } = settings;
    problems.together(settings, {
      REPORT_CHANNEL_ID: 'the channel the weekly report is posted to',
      REPORT_TIME: 'the day and time (ddd HH:MM in WAYBILL_TIMEZONE) the weekly report is posted',
    });
    return channel && time ? { report: { channelId: channel, ...time } } : {};
  },
);
