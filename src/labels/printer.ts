/** Sending a ZPL file to a thermal printer's raw port (9100) over TCP, with a time limit, and why it failed in plain words. */
import { connect } from 'node:net';

/** A printer on the office network, named as the settings name it. */
export interface LabelPrinter {
  name: string;
  host: string;
  port: number;
}

/** Why a file did not reach the printer, in words for the person who sent it. */
export class PrinterError extends Error {}

/**
 * Sends `data` and half-closes; done when the printer closes its end, which it does once it has read
 * the whole file. A reset, or the printer closing before we finished sending, is a failure; so is
 * anything not done within `timeoutMs`.
 */
export function sendToPrinter(printer: LabelPrinter, data: string, timeoutMs: number): Promise<void> {
  const where = `${printer.host}:${printer.port}`;
  const cutShort = `${where} closed the connection before it had the whole file: nothing may have printed.`;
  return new Promise((resolve, reject) => {
    const socket = connect({ host: printer.host, port: printer.port });
    let sent = false;
    const fail = (message: string) => {
      clearTimeout(timer);
      socket.destroy();
      reject(new PrinterError(message));
    };
    const timer = setTimeout(
      () =>
        fail(
          `${where} did not take the labels within ${timeoutMs / 1000} s: is it on, and is the address right?`,
        ),
      timeoutMs,
    );
    socket.on('connect', () => socket.end(data, () => (sent = true)));
    // What a printer says back (status) is not needed, but must be read for its close to be seen.
    socket.resume();
    socket.on('end', () => {
      if (!sent) return fail(cutShort);
      clearTimeout(timer);
      socket.destroy();
      resolve();
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNREFUSED')
        fail(`${where} refused the connection: is it a printer's raw port (usually 9100)?`);
      else if (err.code === 'ECONNRESET' || err.code === 'EPIPE') fail(cutShort);
      else fail(`${where} could not be reached (${err.code ?? err.message}).`);
    });
  });
}
