/** Send to printer, beside a ZPL file: the labels made again as ZPL and sent over TCP to the chosen printer after the ack; the outcome told plainly. */

import type { App, BlockAction } from '@slack/bolt';
import { parcelsOf } from '../../labels/label.js';
import { PrinterError, sendToPrinter } from '../../labels/printer.js';
import type { Store } from '../../store/index.js';
import type { Core } from '../core.js';
import { requires } from '../guards/access.js';
import { type Asker, askerOf } from '../guards/booking-access.js';
import { ackNow, type Told, tellClicker } from '../kit/listener.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import { jobOf, type PrintJob } from './blocks.js';
import { labelFiles } from './files.js';
import { ids } from './ids.js';
import { importItems, labelBooking } from './print.js';

/** The labels a job names, as one ZPL file; or why there are none (a booking `asker` may not look up among them). */
async function zplOf(
  deps: Pick<Core, 'access' | 'bot' | 'logger' | 'render' | 'schemas' | 'waybill'> & {
    store: Pick<Store, 'audit' | 'bookings' | 'imports'>;
  },
  job: PrintJob,
  asker: Asker,
): Promise<{ zpl: string; labels: number } | string> {
  const found =
    job.kind === 't'
      ? await labelBooking(deps, job.ref, asker).then((item) =>
          typeof item === 'string' ? item : { items: [item] },
        )
      : await importItems(deps, job.ref, asker);
  if (typeof found === 'string') return found;
  const [file] = await labelFiles(deps, found.items, ['zpl']);
  const labels = found.items.reduce((sum, item) => sum + parcelsOf(item.booking).length, 0);
  return { zpl: String(file?.content ?? ''), labels };
}

export function register(app: App, deps: Core): void {
  // A button with one printer, a menu with several: either way the job is in the value.
  app.action<BlockAction, Told>(
    ids.labelsSendToPrinter,
    requires(deps, 'show'),
    ackNow,
    tellClicker,
    async ({ body, action, client, context: { tell } }) => {
      const say = (text: string) => tell({ response_type: 'ephemeral', replace_original: false, text });
      const value =
        action.type === 'button'
          ? action.value
          : action.type === 'static_select'
            ? action.selected_option.value
            : '';
      const job = jobOf(value ?? '');
      const printer = job && deps.bot.labelPrinters.find((p) => p.name === job.printer);
      if (!job || !printer) {
        await say(
          'That printer is no longer set up for this bot: print the labels again to see the printers it has.',
        );
        return;
      }
      const name = `*${escapeMrkdwn(printer.name)}*`;
      // Sending waits on the network for up to LABEL_PRINTER_TIMEOUT_MS: never before the ack.
      deps.inFlight.run('labels', async () => {
        try {
          const made = await zplOf(deps, job, askerOf(client, body));
          if (typeof made === 'string') return void (await say(made));
          await sendToPrinter(printer, made.zpl, deps.bot.labelPrinterTimeoutMs);
          deps.logger.info({ printer: printer.name, labels: made.labels }, 'labels sent to a printer');
          await say(`:printer: Sent ${made.labels} label${made.labels === 1 ? '' : 's'} to ${name}.`);
        } catch (err) {
          deps.logger.warn({ err, printer: printer.name }, 'labels not sent to the printer');
          const why =
            err instanceof PrinterError
              ? escapeMrkdwn(err.message)
              : 'the labels could not be made; try again in a moment.';
          await say(`:warning: The labels did not reach ${name}: ${why}`).catch(() => undefined);
        }
      });
    },
  );
}
