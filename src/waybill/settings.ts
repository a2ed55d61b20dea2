/** The courier's settings (WAYBILL_*): which environment, its address and token, the time zone, the value lists. */
import * as z from 'zod';
import { baseUrl, envSettings, optionalSetting, secretsNamed, wholeNumber, wordOf } from '../settings/env.js';
import type { Catalog, Choice } from './catalog.js';
import { defaultCatalog } from './catalog.js';
import type { PlaceCheck } from './schemas.js';

export type WaybillEnv = 'sandbox' | 'test' | 'live';

export interface WaybillConfig {
  env: WaybillEnv;
  /** Base address of the real upstream; absent in sandbox mode (the embedded sandbox supplies it). */
  baseUrl?: string;
  token?: string;
  timeZone: string;
  timeoutMs: number;
  currency: string;
  catalog: Catalog;
  sandboxLatencyMs: number;
  /** Philippine places that do not fit together: refused, or warned of on the review (docs/places.md). */
  placeCheck: PlaceCheck;
}

/**
 * UTC and ICU's canonical zone names are known without a date format, whose first use loads ~8 MB of
 * ICU's data that a bot doing no date work at start need not hold; other names (aliases such as
 * Etc/UTC or US/Eastern) are tried with one.
 */
function isTimeZone(zone: string): boolean {
  if (zone === 'UTC' || Intl.supportedValuesOf('timeZone').includes(zone)) return true;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const timeZone = z.string().trim().refine(isTimeZone, 'an IANA time zone such as UTC or Asia/Manila');

/** A list written as `VALUE=Label,VALUE2=Label two` (the label is optional). */
const choiceList = z
  .string()
  .transform((text) =>
    text
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean)
      .map((item): Choice => {
        const [value = '', ...label] = item.split('=');
        return { value: value.trim(), label: label.join('=').trim() || value.trim() };
      }),
  )
  .refine(
    (list) => list.length >= 1 && list.length <= 100,
    'a comma-separated list of 1 to 100 VALUE=Label items',
  )
  .refine(
    (list) => list.every((c) => c.value.length > 0 && c.value.length <= 150 && c.label.length <= 75),
    'items with a value of at most 150 and a label of at most 75 characters',
  )
  .refine((list) => new Set(list.map((c) => c.value)).size === list.length, 'a list without repeated values');

const waybillEnvSchema = z.object({
  WAYBILL_ENV: optionalSetting(wordOf(['sandbox', 'test', 'live'])).default('sandbox'),
  WAYBILL_TEST_BASE_URL: optionalSetting(baseUrl),
  WAYBILL_LIVE_BASE_URL: optionalSetting(baseUrl),
  WAYBILL_API_TOKEN: optionalSetting(z.string().trim()),
  WAYBILL_TIMEZONE: optionalSetting(timeZone).default('UTC'),
  WAYBILL_TIMEOUT_MS: optionalSetting(wholeNumber(500, 120_000, 'a whole number of milliseconds')).default(
    15_000,
  ),
  WAYBILL_CURRENCY: optionalSetting(
    z
      .string()
      .trim()
      .regex(/^[A-Za-z]{3}$/, 'a three-letter currency code such as PHP')
      .transform((code) => code.toUpperCase()),
  ).default('PHP'),
  WAYBILL_SERVICE_TYPES: optionalSetting(choiceList),
  WAYBILL_PAYMENT_METHODS: optionalSetting(choiceList),
  WAYBILL_COD_PAYMENT_METHOD: optionalSetting(z.string().trim()),
  WAYBILL_PACKAGE_TYPES: optionalSetting(choiceList),
  WAYBILL_UNITS: optionalSetting(choiceList),
  WAYBILL_SANDBOX_LATENCY_MS: optionalSetting(
    wholeNumber(0, 120_000, 'a whole number of milliseconds'),
  ).default(0),
  WAYBILL_PLACE_CHECK: optionalSetting(wordOf(['refuse', 'warn'])).default('refuse'),
});

export const waybillEnv = envSettings(
  waybillEnvSchema,
  (settings, problems): WaybillConfig => {
    const paymentMethods = settings.WAYBILL_PAYMENT_METHODS ?? defaultCatalog.paymentMethods;
    const codPaymentMethod = settings.WAYBILL_COD_PAYMENT_METHOD ?? defaultCatalog.codPaymentMethod;
    if (!paymentMethods.some((method) => method.value === codPaymentMethod)) {
      problems.add(
        ['WAYBILL_COD_PAYMENT_METHOD', 'WAYBILL_PAYMENT_METHODS'],
        `WAYBILL_COD_PAYMENT_METHOD must be one of the values in WAYBILL_PAYMENT_METHODS (${paymentMethods.map((m) => m.value).join(', ')})`,
      );
    }
    const config: WaybillConfig = {
      env: settings.WAYBILL_ENV,
      timeZone: settings.WAYBILL_TIMEZONE,
      timeoutMs: settings.WAYBILL_TIMEOUT_MS,
      currency: settings.WAYBILL_CURRENCY,
      sandboxLatencyMs: settings.WAYBILL_SANDBOX_LATENCY_MS,
      placeCheck: settings.WAYBILL_PLACE_CHECK,
      catalog: {
        serviceTypes: settings.WAYBILL_SERVICE_TYPES ?? defaultCatalog.serviceTypes,
        paymentMethods,
        codPaymentMethod,
        packageTypes: settings.WAYBILL_PACKAGE_TYPES ?? defaultCatalog.packageTypes,
        units: settings.WAYBILL_UNITS ?? defaultCatalog.units,
      },
    };
    if (config.env === 'sandbox') return config;
    const urlName = config.env === 'test' ? 'WAYBILL_TEST_BASE_URL' : 'WAYBILL_LIVE_BASE_URL';
    const url = config.env === 'test' ? settings.WAYBILL_TEST_BASE_URL : settings.WAYBILL_LIVE_BASE_URL;
    const token = settings.WAYBILL_API_TOKEN;
    if (!url) problems.add([urlName], `${urlName} must be set when WAYBILL_ENV=${config.env}`);
    if (!token)
      problems.add(['WAYBILL_API_TOKEN'], `WAYBILL_API_TOKEN must be set when WAYBILL_ENV=${config.env}`);
    return { ...config, baseUrl: url, token };
  },
  secretsNamed('WAYBILL_API_TOKEN'),
);
