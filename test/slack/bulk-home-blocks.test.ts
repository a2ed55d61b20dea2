/**
 * Block Kit of the Home tab, bulk booking and COD remittance at their largest: 1500 problems paged, 500 rows
 * in the thread, a 5,000-line remittance and 5,000 outstanding bookings summarised, every view within Slack's
 * limits, everything typed escaped.
 */
// Block Kit of the Home tab, bulk booking and COD remittance at their largest: within Slack's limits, everything typed escaped.

import { describe, expect, it } from 'vitest';
import { countOutcomes } from '../../src/operations/bulk-queue.js';
import {
  importModal,
  PROBLEMS_PER_PAGE,
  pageCount,
  progressView,
  rowMessages,
  summaryCard,
  summaryView,
} from '../../src/slack/bulk/blocks.js';
import { exportModal, homeView } from '../../src/slack/home/blocks.js';
import {
  codAgeingMessage,
  LISTED_LINES,
  overdueMessage,
  remittanceCard,
  remittanceModal,
} from '../../src/slack/remittance/blocks.js';
import { ageCod } from '../../src/waybill/cod-ageing.js';
import type { RowResult } from '../../src/waybill/csv/results.js';
import { reconcile } from '../../src/waybill/remittance.js';
import { expectWithinSlackLimits } from '../support/block-kit-limits.js';

const hostile = '<!channel> & <@U1> <http://x|click>';
const escaped = '&lt;!channel&gt; &amp; &lt;@U1&gt; &lt;http://x|click&gt;';

/** The raw text of everything in the blocks, to look for unescaped input. */
const textOf = (value: unknown) => JSON.stringify(value);

describe('bulk booking blocks', () => {
  it('the file modal: a CSV file input and a conversation, at the command’s channel', () => {
    const view = importModal({
      env: 'sandbox',
      channelId: 'C1',
      limits: { maxRows: 500, maxBytes: 2_000_000 },
    });
    expectWithinSlackLimits(view);
    expect(textOf(view)).toContain('"type":"file_input"');
    expect(textOf(view)).toContain('"filetypes":["csv"]');
    expect(textOf(view)).toContain('"initial_conversation":"C1"');
    expect(textOf(view)).toContain('At most 500 bookings and 2 MB per file');
  });

  it('the summary of 500 rows with 3 problems each: paged, every page within a modal’s limits, escaped', () => {
    const problems = Array.from({ length: 1500 }, (_, i) => ({
      row: Math.floor(i / 3) + 2,
      column: `receiver_name${hostile}`,
      message: `${'Receiver name is required '.repeat(3)}${hostile}`,
    }));
    const pages = pageCount(problems.length);
    expect(pages).toBe(Math.ceil(1500 / PROBLEMS_PER_PAGE));
    const seen: string[] = [];
    for (let page = 0; page < pages; page++) {
      const view = summaryView({
        fileName: `orders ${hostile}.csv`,
        rowCount: 500,
        toBook: 0,
        earlier: { booked: 0, unknown: 0 },
        problems,
        problemCount: 1500,
        rowsWithProblems: 500,
        page,
        env: 'sandbox',
        metadata: '{}',
      });
      expectWithinSlackLimits(view);
      expect(view.submit).toBeUndefined();
      const text = textOf(view.blocks);
      expect(text).not.toContain('<!channel>');
      expect(text).toContain(escaped.replaceAll('"', '\\"'));
      seen.push(...[...text.matchAll(/row (\d+),/g)].map((m) => m[1] ?? ''));
    }
    // Every problem is on exactly one page.
    expect(seen).toHaveLength(1500);
  });

  it('the summary counts what will be booked and what an earlier run settled', () => {
    const view = summaryView({
      fileName: 'orders.csv',
      rowCount: 12,
      toBook: 9,
      earlier: { booked: 2, unknown: 1 },
      problems: [],
      problemCount: 0,
      rowsWithProblems: 0,
      page: 0,
      env: 'live',
      metadata: '{}',
    });
    expect(view.submit?.text).toBe('Book 9 rows');
    const text = textOf(view.blocks);
    expect(text).toContain('9 rows ready to book');
    expect(text).toContain('2 rows booked by an earlier run of this file: not booked again');
    expect(text).toContain('1 row of unknown outcome from an earlier run: never sent again');
  });

  it("the card's thread: 500 rows in messages of at most 50 blocks, each row once, Update on booked ones", () => {
    const outcomes = ['booked', 'failed', 'unknown', 'not valid', 'already booked'] as const;
    const results: RowResult[] = Array.from({ length: 500 }, (_, i) => ({
      row: i + 2,
      receiver: hostile,
      trackingNumber: `WB${String(i + 1).padStart(6, '0')}`,
      courierReference: `REF-${i}`,
      outcome: outcomes[i % 5] ?? 'booked',
      message: `refused: ${hostile}`,
    }));
    const messages = rowMessages(results);
    for (const message of messages) {
      expectWithinSlackLimits(message);
      expect(textOf(message)).not.toContain('<!channel>');
    }
    const rows = messages.flatMap((m) => m.blocks);
    expect(rows).toHaveLength(500);
    const withUpdate = rows.filter((block) => block.type === 'section' && block.accessory);
    expect(withUpdate).toHaveLength(200);
    const card = summaryCard({
      fileName: hostile,
      userId: 'U1',
      counts: countOutcomes(results),
      env: 'test',
    });
    expect(card.text).toContain(escaped);
    expect(card.text).toContain('100 booked, 100 refused, 100 unknown, 100 not valid');
    expectWithinSlackLimits(card);
  });

  it('progress shows how far it got', () => {
    const counts = countOutcomes([]);
    const view = progressView({
      fileName: 'a.csv',
      done: 250,
      total: 500,
      counts,
      env: 'sandbox',
      metadata: '',
    });
    expect(textOf(view.blocks)).toContain('250 of 500');
    expect(textOf(view.blocks)).toContain('▓▓▓▓▓░░░░░');
  });
});

describe('Home tab blocks', () => {
  const many = {
    env: 'sandbox' as const,
    timeZone: 'Asia/Manila',
    allowed: true,
    bulkAllowed: true,
    remittanceAllowed: true,
    cod: {
      summary: {
        owed: ageCod(
          Array.from({ length: 5000 }, (_, i) => ({ sender: hostile, outstanding: '1500.00', days: i })),
        ),
        overdue: { count: 4992, total: '7488000.00', days: 7 },
        pipeline: { count: 12, total: '18000.00' },
      },
      currency: 'PHP',
    },
    bookings: Array.from({ length: 40 }, (_, i) => ({
      trackingNumber: `WB${i}`,
      receiver: hostile,
      city: 'Cebu City',
      cod: 'PHP 1,500.00',
      bookedBy: 'U1',
      owner: 'U1',
      bookedAt: new Date('2026-11-23T01:00:00Z'),
      timeZone: 'Asia/Manila',
    })),
    bookingsToday: 412,
    drafts: Array.from({ length: 30 }, (_, i) => ({
      id: `d${i}`,
      receiver: hostile,
      step: 'Receiver',
      savedAt: new Date(),
    })),
    quotes: Array.from({ length: 30 }, () => ({
      route: `Makati → ${hostile}`,
      weight: '4.5 kg',
      total: 'PHP 120.00',
      at: new Date(),
    })),
  };

  it('offers COD remittance only to whoever may reconcile', () => {
    expect(textOf(homeView({ ...many, remittanceAllowed: false }).blocks)).not.toContain('remittance_open');
  });

  it('at its fullest, stays within 100 blocks, says how many more there are, and escapes what was typed', () => {
    const view = homeView(many);
    expectWithinSlackLimits(view);
    const text = textOf(view.blocks);
    expect(text).toContain('Bookings today (412)');
    expect(text).toContain('…and 397 more today');
    expect(text).toContain(
      '*COD owed* (delivered or paid in part, not yet remitted): 5000 bookings, PHP 7,500,000.00 \u00b7 by days since delivery: 0\u20137 days PHP 12,000.00 (8)',
    );
    expect(text).not.toContain('<!channel>');
    for (const action of [
      'quote_from_home',
      'book_from_home',
      'bulk_open',
      'remittance_open',
      'export_open',
      'book_resume',
      'book_rebook',
    ]) {
      expect(text).toContain(`"action_id":"${action}"`);
    }
  });

  it('leaves out Import for those who may not book from a file, and everything for those who may not book', () => {
    expect(textOf(homeView({ ...many, bulkAllowed: false }))).not.toContain('bulk_open');
    const refused = homeView({ ...many, allowed: false });
    expect(textOf(refused)).not.toContain('WB1');
    expect(textOf(refused)).toContain('You are not on the list');
  });

  it('the export modal: two days, a short title', () => {
    const view = exportModal({ from: '2026-11-01', to: '2026-11-23', env: 'live', timeZone: 'Asia/Manila' });
    expectWithinSlackLimits(view);
    expect(textOf(view)).toContain('/waybill export 2026-11-01..2026-11-23');
  });
});

describe('COD remittance blocks', () => {
  it('a 5,000-line result is summarised on one card within the limits, everything typed escaped', () => {
    const lines = Array.from({ length: 5000 }, (_, i) => ({
      line: i + 2,
      trackingNumber: `${hostile}${i}`,
      amountText: i % 7 === 0 ? hostile : '1,500.00',
      remittedAt: '',
      status: '',
      ...(i % 7 === 0 ? { problem: `amount "${hostile}" is not an amount` } : { amount: '1500.00' }),
    }));
    const result = reconcile(
      lines,
      (tn) =>
        tn.endsWith('1')
          ? { cod: true, codAmount: '1499.99', fee: '46.20', returned: false, returnFee: '0.00' }
          : undefined,
      () => 0n,
    );
    const card = remittanceCard({
      fileName: `${hostile}.csv`,
      userId: 'U1',
      ...result,
      currency: 'PHP',
      env: 'sandbox',
    });
    expectWithinSlackLimits(card);
    const shown = textOf(card);
    expect(shown).not.toContain('<!channel>');
    expect(shown).toContain(escaped);
    // Problems first, then the rest, the card saying how many more are only in the file.
    expect(shown.match(/: unreadable/g)).toHaveLength(LISTED_LINES);
    const toLookAt = result.lines.filter((l) => l.outcome !== 'matched').length;
    expect(toLookAt).toBeGreaterThan(4000);
    expect(shown).toContain(`${toLookAt - LISTED_LINES} more lines to look at`);

    const overdue = Array.from({ length: 5000 }, (_, i) => ({
      trackingNumber: `WB${i}`,
      codAmount: '1500.00',
      outstanding: '1500.00',
      sender: hostile,
      receiver: hostile,
      channelId: 'CDISPATCH',
      bookedDate: '2026-11-01',
      since: '2026-11-02',
      days: 21,
    }));
    const summary = (owed: ReturnType<typeof ageCod>) => ({
      owed,
      overdue: { count: 5000, total: '7500000.00', days: 7 },
      pipeline: { count: 3, total: '4500.00' },
    });
    const outstanding = overdueMessage({ cod: summary(ageCod(overdue)), overdue, currency: 'PHP' });
    expectWithinSlackLimits(outstanding);
    expect(textOf(outstanding)).not.toContain('<!channel>');
    expect(textOf(outstanding)).toContain(
      '*Overdue* (owed, delivered more than 7 days ago): 5000 bookings, PHP 7,500,000.00',
    );

    // `/waybill cod` over 5,000 bookings of 500 senders: every bucket, 20 senders, within limits.
    const ageing = codAgeingMessage(
      summary(
        ageCod(
          Array.from({ length: 5000 }, (_, i) => ({
            sender: `${hostile} ${i % 500}`,
            outstanding: '1500.00',
            days: i % 40,
          })),
        ),
      ),
      'PHP',
    );
    expectWithinSlackLimits(ageing);
    expect(textOf(ageing)).not.toContain('<!channel>');
    expect(textOf(ageing)).toContain('480 more senders in the file');

    const modal = remittanceModal({ env: 'live', maxLines: 5000, channelId: 'C1' });
    expectWithinSlackLimits(modal);
  });
});
