/** Labels' settings (LABEL_*): the page, the files made, the thermal printers and how long sending to one may take. */
import * as z from 'zod';
import { commaList, envSettings, milliseconds, oneOf, optionalSetting } from '../../settings/env.js';

export interface LabelSettings {
  /** Parcel labels: 4x6 in (thermal printers) or A6. */
  labelPageSize: '4x6' | 'A6';
  /** Which label files are made: a PDF, ZPL for thermal printers, or both. */
  labelFormat: 'pdf' | 'zpl' | 'both';
  /** The thermal printer's resolution the ZPL is made for. */
  labelDpi: 203 | 300;
  /** Printers on the office network that take ZPL on a raw port: Send to printer, each by name. */
  labelPrinters: { name: string; host: string; port: number }[];
  labelPrinterTimeoutMs: number;
}

declare module '../core.js' {
  interface BotSettings extends LabelSettings {}
}

/** A printer's raw port: host:port, such as 10.0.0.5:9100. */
const printerAddress = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9.-]+:\d{1,5}$/, 'host:port, such as 10.0.0.5:9100')
  .transform((address) => {
    const [host = '', port = ''] = address.split(':');
    return { host, port: Number(port) };
  })
  .refine(({ port }) => port > 0 && port < 65536, 'host:port with a port from 1 to 65535');

export const labelsEnv = envSettings(
  z.object({
    LABEL_PAGE_SIZE: optionalSetting(oneOf(['4x6', 'A6'])).default('4x6'),
    LABEL_FORMAT: optionalSetting(oneOf(['pdf', 'zpl', 'both'])).default('pdf'),
    LABEL_DPI: optionalSetting(oneOf(['203', '300']).transform((dpi) => Number(dpi) as 203 | 300)).default(
      203,
    ),
    LABEL_PRINTER: optionalSetting(printerAddress),
    LABEL_PRINTERS: optionalSetting(
      commaList()
        .refine(
          (items) =>
            items.length > 0 &&
            items.length <= 20 &&
            new Set(items.map((item) => item.split('=')[0])).size === items.length &&
            items.every(
              (item) =>
                /^[\w-]{1,30}=\S+:\d+$/.test(item) &&
                printerAddress.safeParse(item.slice(item.indexOf('=') + 1)).success,
            ),
          'a comma-separated list of up to 20 name=host:port items, each name once, such as desk=10.0.0.5:9100',
        )
        .transform((items) =>
          items.map((item) => ({
            name: item.slice(0, item.indexOf('=')),
            ...printerAddress.parse(item.slice(item.indexOf('=') + 1)),
          })),
        ),
    ),
    LABEL_PRINTER_TIMEOUT_MS: optionalSetting(milliseconds(100, 120_000)).default(10_000),
  }),
  (settings): LabelSettings => ({
    labelPageSize: settings.LABEL_PAGE_SIZE,
    labelFormat: settings.LABEL_FORMAT,
    labelDpi: settings.LABEL_DPI,
    labelPrinters: [
      ...(settings.LABEL_PRINTER ? [{ name: 'printer', ...settings.LABEL_PRINTER }] : []),
      ...(settings.LABEL_PRINTERS ?? []),
    ],
    labelPrinterTimeoutMs: settings.LABEL_PRINTER_TIMEOUT_MS,
  }),
);
