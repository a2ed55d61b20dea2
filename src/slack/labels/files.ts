/** Label files in the formats the settings (or the person) ask for: the PDF, the ZPL for thermal printers, or both. */
import type { LabelBooking } from '../../labels/label.js';
import { UNPRINTABLE_MARK } from '../../labels/pdf.js';
import { ZPL_UNPRINTABLE_MARK } from '../../labels/zpl.js';
import type { Core } from '../core.js';

export type LabelFormat = 'pdf' | 'zpl';

/** The formats of LABEL_FORMAT, or the one typed after `/waybill label <tracking number>` (any case); undefined: not one. */
export function labelFormats(deps: Pick<Core, 'bot'>, typed = ''): LabelFormat[] | undefined {
  const asked = typed.toLowerCase();
  if (asked === 'pdf' || asked === 'zpl') return [asked];
  if (asked !== '') return undefined;
  const setting = deps.bot.labelFormat;
  return setting === 'both' ? ['pdf', 'zpl'] : [setting];
}

/** One file of labels: its bytes or text, and the characters it shows as `mark`. */
export interface LabelFile {
  format: LabelFormat;
  content: Uint8Array | string;
  unprintable: string[];
  mark: string;
}

/** The labels of `items` (one per parcel, in order) in each format, drawn off the event loop: the one place the feature renders them. */
export async function labelFiles(
  deps: Pick<Core, 'waybill' | 'bot' | 'render'>,
  items: readonly LabelBooking[],
  formats: readonly LabelFormat[],
): Promise<LabelFile[]> {
  const { catalog, currency, timeZone, env } = deps.waybill;
  const common = { catalog, currency, timeZone, live: env === 'live' };
  const files: LabelFile[] = [];
  for (const format of formats) {
    if (format === 'pdf') {
      const { pdf, unprintable } = await deps.render.run('labels', items, {
        ...common,
        pageSize: deps.bot.labelPageSize,
      });
      files.push({ format, content: pdf, unprintable, mark: UNPRINTABLE_MARK });
    } else {
      const { zpl, unprintable } = await deps.render.run('zpl', items, { ...common, dpi: deps.bot.labelDpi });
      files.push({ format, content: zpl, unprintable, mark: ZPL_UNPRINTABLE_MARK });
    }
  }
  return files;
}
