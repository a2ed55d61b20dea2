/** The courier's status export: its columns guessed, its rows read by the columns chosen, dates in the team's zone; and which rows win or conflict. */
import { describe, expect, it } from 'vitest';
import { conflictOf, latestRows } from '../../src/operations/status-file.js';
import type { StatusEntry } from '../../src/store/index.js';
import {
  guessStatusColumns,
  readStatusDate,
  readStatusFile,
  readStatusRows,
} from '../../src/waybill/csv/read-statuses.js';

const zone = 'Asia/Manila';
const bytes = (text: string) => new TextEncoder().encode(text);

describe("the courier's status export", () => {
  it('guesses the usual headers, as the file writes them', () => {
    expect(guessStatusColumns(['AWB', 'Last Status', 'Status Date', 'Remarks', 'COD'])).toEqual({
      trackingNumber: 'AWB',
      status: 'Last Status',
      at: 'Status Date',
      remarks: 'Remarks',
    });
    expect(guessStatusColumns(['Waybill No.', 'Stage'])).toEqual({});
  });

  it('reads rows by the columns chosen, each problem on its own row', () => {
    const file = readStatusFile(
      bytes(
        [
          'Ref;Stage;When;Why',
          'wb000001;Delivered;2026-11-20 14:30;',
          ';Delivered;;',
          'WB2;;;',
          'WB3;RTS;20/11/2026;',
          'WB4;Failed;11/20/2026 2:05 PM;not home',
          ';;;',
          'WB5;Picked up;2026-11-20;x\u0007',
        ].join('\r\n'),
      ),
      1_000_000,
    );
    if ('problem' in file) throw new Error(file.problem);
    const rows = readStatusRows(
      file,
      { trackingNumber: 'Ref', status: 'Stage', at: 'When', remarks: 'Why' },
      zone,
    );
    expect(rows.map((row) => [row.line, row.trackingNumber, row.problem])).toEqual([
      [2, 'WB000001', undefined],
      [3, '', 'no Ref'],
      [4, 'WB2', 'no Stage'],
      [5, 'WB3', 'When "20/11/2026" is not a date such as 2026-11-20 14:30'],
      [6, 'WB4', undefined],
      [8, 'WB5', 'Why has a control character'],
    ]);
    expect(rows[0]?.at?.toISOString()).toBe('2026-11-20T06:30:00.000Z');
    expect(rows[4]).toMatchObject({ statusText: 'Failed', remarks: 'not home' });
    expect(rows[4]?.at?.toISOString()).toBe('2026-11-20T06:05:00.000Z');
  });

  it('reads dates as portals write them, in the team zone; refuses what is no date', () => {
    expect(readStatusDate('2026-11-20T08:00:00', zone)?.toISOString()).toBe('2026-11-20T00:00:00.000Z');
    expect(readStatusDate('2026-11-20', zone)?.toISOString()).toBe('2026-11-19T16:00:00.000Z');
    expect(readStatusDate('11/20/2026 12:10 AM', zone)?.toISOString()).toBe('2026-11-19T16:10:00.000Z');
    for (const text of ['2026-02-30', '2026-11-20 25:00', '13/13/2026', 'yesterday', '11/20/2026 13:00 PM'])
      expect(readStatusDate(text, zone), text).toBeUndefined();
  });

  it('says when a file cannot be read at all', () => {
    expect(readStatusFile(bytes('only'), 1000)).toEqual({ problem: 'The first row must name the columns' });
    expect(readStatusFile(bytes('a,b\n1,2'), 3)).toHaveProperty('problem');
  });
});

describe('which rows are recorded', () => {
  const at = (iso: string) => new Date(iso);
  const row = (line: number, trackingNumber: string, status: 'delivered' | 'in_transit', when?: string) => ({
    line,
    trackingNumber,
    choice: { status },
    ...(when ? { at: at(when) } : {}),
  });

  it('keeps the latest row of each parcel by date, the lower on a tie, and lists the others', () => {
    const { latest, superseded } = latestRows([
      row(2, 'A', 'delivered', '2026-11-20T10:00:00Z'),
      row(3, 'A', 'in_transit', '2026-11-19T10:00:00Z'),
      row(4, 'B', 'in_transit'),
      row(5, 'B', 'delivered'),
    ]);
    expect(latest.map((r) => r.line)).toEqual([2, 5]);
    expect(superseded.map(({ row, by }) => [row.line, by])).toEqual([
      [3, 2],
      [4, 5],
    ]);
  });

  it('a delivery over a later return, or anything older than our latest, conflicts; the same status does not', () => {
    const ours = (status: string, iso: string): StatusEntry => ({
      trackingNumber: 'A',
      seq: 1,
      status,
      userId: 'U',
      at: at(iso),
    });
    const delivered = row(2, 'A', 'delivered', '2026-11-20T10:00:00Z');
    expect(conflictOf(delivered, ours('returned', '2026-11-21T00:00:00Z'))).toMatch(
      /recorded Returned to sender later/,
    );
    expect(conflictOf(row(2, 'A', 'delivered'), ours('cancelled', '2026-11-21T00:00:00Z'))).toMatch(/later/);
    expect(
      conflictOf(
        row(2, 'A', 'in_transit', '2026-11-20T10:00:00Z'),
        ours('picked_up', '2026-11-21T00:00:00Z'),
      ),
    ).toMatch(/older than our latest status \(Picked up\)/);
    expect(conflictOf(delivered, ours('delivered', '2026-11-21T00:00:00Z'))).toBeUndefined();
    expect(conflictOf(delivered, ours('in_transit', '2026-11-19T00:00:00Z'))).toBeUndefined();
    expect(conflictOf(delivered, undefined)).toBeUndefined();
  });
});
