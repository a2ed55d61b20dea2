/**
 * On SQLite and PostgreSQL: work after an ack that fails, told in its modal (privately once it is closed; a
 * command's labels refused by Slack told privately where it was typed, naming what failed), and logged; a
 * remittance file's NUL, control characters and 4,000-character tracking number read as problem lines and
 * stored.
 */
// Work after an ack that fails is told where the person looks; a remittance file's cells the database cannot store are problem lines; on both backends.
import { parse } from 'csv-parse/sync';
import { afterEach, expect, it } from 'vitest';
import { describeEachBackend, type TestBackend } from '../store/backends.js';
import { bookThroughModal } from '../support/booking-flow.js';
import { renderPoolPerFile, startTestBot, type TestBot, type View } from '../support/bot-harness.js';

// biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON
const textOf = (value: any): string => JSON.stringify(value);

let bot: TestBot;
// Labels are made by one worker for the whole file: no test here is about the pool.
const render = renderPoolPerFile();

/** `/waybill remittance`, the file chosen, Reconcile: the modal as "Reconciling…" left it. */
async function submitRemittance(content: string): Promise<View> {
  const file = bot.fake.addFile({ name: 'remit.csv', content });
  await bot.command('/waybill', 'remittance');
  const modal = await bot.openedView();
  const ack = await bot.submit(modal, { file: file.id });
  expect(textOf(ack.body.view)).toContain('Reconciling');
  return modal;
}

/** Makes the database refuse every remittance line written, as a fault the bot does not expect. */
async function refuseRemittanceLines(backend: TestBackend): Promise<() => Promise<void>> {
  if (backend.name === 'sqlite') {
    await backend.query(
      "CREATE TRIGGER refuse_lines BEFORE INSERT ON remittance_lines BEGIN SELECT RAISE(ABORT, 'refused'); END",
    );
    return async () => void (await backend.query('DROP TRIGGER refuse_lines'));
  }
  await backend.query(
    "CREATE FUNCTION refuse_lines() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$",
  );
  await backend.query(
    'CREATE TRIGGER refuse_lines BEFORE INSERT ON remittance_lines FOR EACH ROW EXECUTE FUNCTION refuse_lines()',
  );
  return async () => {
    await backend.query('DROP TRIGGER refuse_lines ON remittance_lines');
    await backend.query('DROP FUNCTION refuse_lines()');
  };
}

const notFinished = "Something went wrong on the bot's side, so this was not finished";

describeEachBackend(import.meta.filename, 'work after an ack', (backend) => {
  afterEach(async () => {
    await bot?.stop();
  });

  it('reads a NUL, other control characters and a 4,000-character tracking number as problem lines, and reconciles the file', async () => {
    bot = await startTestBot({ backend, render: render() });
    const longNumber = 'A'.repeat(4000);
    const modal = await submitRemittance(
      [
        'Tracking Number,Amount,Remitted At,Status',
        'NUL\u0000X,100,2026-11-20,delivered',
        `${longNumber},100,,`,
        'WB-STATUS,100,,deli\u0007vered',
        'WB-FINE,100,2026-11-20,',
      ].join('\r\n'),
    );
    await bot.idle();
    const done = await bot.updatedView(modal.id, (view) => textOf(view).includes('reconciled'));
    expect(textOf(done.blocks)).toContain('3 unreadable, 1 not ours');
    const [results] = bot.fake.uploadsCompleted();
    const rows = parse(results?.text ?? '', { bom: true, columns: true }) as Record<string, string>[];
    expect(rows.map((r) => [r.line, r.tracking_number, r.outcome, r.message])).toEqual([
      ['2', 'NUL\ufffdX', 'problem', 'tracking_number has a control character (shown as \ufffd)'],
      ['3', `${'A'.repeat(100)}\u2026`, 'problem', 'tracking_number is 4000 characters long; at most 50'],
      ['4', 'WB-STATUS', 'problem', 'status has a control character (shown as \ufffd)'],
      ['5', 'WB-FINE', 'not ours', expect.any(String)],
    ]);
    // Stored as read: the cleaned, bounded number, once.
    const stored = await bot.deps.store.remittances.ofBookings([`${'A'.repeat(100)}\u2026`, 'NUL\ufffdX']);
    expect(stored.map((l) => l.outcome)).toEqual(['problem', 'problem']);
    expect(bot.logs.filter((line) => line.includes('background task failed'))).toEqual([]);
  });

  it('tells the person in the modal when the work fails for a reason nobody foresaw, and logs it', async () => {
    bot = await startTestBot({ backend, render: render() });
    const restore = await refuseRemittanceLines(backend);
    try {
      const modal = await submitRemittance('Tracking Number,Amount\r\nWB-1,100');
      await bot.idle();
      const told = await bot.updatedView(modal.id, (view) => textOf(view).includes(notFinished));
      expect(told.title).toMatchObject({ text: 'Not finished' });
      // Nothing of the fault's internals reaches the person.
      expect(textOf(told)).not.toMatch(/refused|trigger|remittance_lines/);
      expect(bot.logs.some((line) => line.includes('background task failed'))).toBe(true);
    } finally {
      await restore();
    }
  });

  it('tells the person privately in the channel when the modal was closed meanwhile', async () => {
    bot = await startTestBot({ backend, render: render() });
    const restore = await refuseRemittanceLines(backend);
    try {
      bot.fake.respond('views.update', { ok: false, error: 'not_found' });
      await submitRemittance('Tracking Number,Amount\r\nWB-1,100');
      await bot.idle();
      const told = await bot.fake.waitFor('chat.postEphemeral', (c) => textOf(c.body).includes(notFinished));
      expect(told.body).toMatchObject({ channel: 'CDISPATCH', user: 'UDISPATCH' });
      expect(String(told.body.text)).toContain(notFinished);
    } finally {
      await restore();
    }
  });

  it('tells the person privately, where they typed the command, what could not be made when its work fails', async () => {
    bot = await startTestBot({ backend, render: render() });
    await bookThroughModal(bot);
    // Slack refusing every upload: the labels reach neither the card's thread nor the person.
    bot.fake.respond('files.getUploadURLExternal', { ok: false, error: 'internal_error' });
    await bot.command('/waybill', 'label WB000001');
    await bot.idle();
    const told = await bot.fake.waitFor('chat.postEphemeral', (c) =>
      textOf(c.body).includes("Slack did not accept the bot's request while making the labels of `WB000001`"),
    );
    expect(told.body).toMatchObject({ user: 'UDISPATCH', channel: 'CDISPATCH' });
    expect(textOf(told.body)).not.toContain('internal_error');
    expect(bot.logs.some((line) => line.includes('background task failed'))).toBe(true);
  });
});
