/** The bench's report: the machine, the figures as tables, and the targets met or missed. */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import type { BulkReport } from './bulk.js';
import type { ExportReport } from './export.js';
import { FIND_ROUNDS, type FindRow } from './find.js';
import type { FloodRow } from './find-flood.js';
import type { LabelsReport } from './labels.js';
import { type MemoryByPart, median, type TargetCheck } from './lib.js';
import type { InstanceReport, PhaseReport, StartupMemory } from './phases.js';
import { type PlacesReport, renderPlaces } from './places.js';
import type { PrintsReport } from './prints.js';
import type { RemittanceReport } from './remittance.js';
import { TYPE_AHEAD_ROUNDS, type TypeAheadRow } from './type-ahead.js';

export function machine() {
  const run = (cmd: string, args: string[]) => {
    try {
      return execFileSync(cmd, args, { encoding: 'utf8' }).trim();
    } catch {
      return 'unknown';
    }
  };
  const memTotal = /^Mem:\s+(\S+)/m.exec(run('free', ['-h']))?.[1] ?? 'unknown';
  return {
    cpus: os.cpus().length,
    nproc: run('nproc', []),
    memTotal,
    node: process.version,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
  };
}

function phase(instance: InstanceReport | undefined, name: string): PhaseReport | undefined {
  return instance?.phases.find((p) => p.name === name);
}

/** Issue 21's bulk targets, with a 200 ms courier: 5,000 rows in 60 s on one bot; about twice that with two replicas. */
export function bulkTargets(bulk: BulkReport[]): TargetCheck[] {
  const checks: TargetCheck[] = [];
  for (const run of bulk.filter((r) => r.latencyMs === 200)) {
    const projected = run.rowsPerSecond ? Math.round(5000 / run.rowsPerSecond) : null;
    if (run.replicas === 1) {
      checks.push({
        target: `bulk, ${run.backend}, one bot: 5,000 rows in ≤ 60 s (courier 200 ms)`,
        figure:
          projected === null
            ? 'n/a'
            : `${run.rowsPerSecond} rows/s: ${run.rows === 5000 ? '' : 'projected '}${projected} s for 5,000`,
        met: projected === null ? null : projected <= 60,
      });
      continue;
    }
    const one = bulk.find((r) => r.backend === run.backend && r.replicas === 1 && r.latencyMs === 200);
    const ratio = run.rowsPerSecond && one?.rowsPerSecond ? run.rowsPerSecond / one.rowsPerSecond : null;
    checks.push({
      target: `bulk, ${run.backend}, ${run.replicas} replicas: about ${run.replicas}× one bot's rows/s`,
      figure:
        ratio === null
          ? 'n/a (no one-bot run)'
          : `${run.rowsPerSecond} vs ${one?.rowsPerSecond} rows/s = ${ratio.toFixed(2)}×`,
      met: ratio === null ? null : ratio >= run.replicas * 0.8,
    });
  }
  return checks;
}

/** A bot (one, SQLite, courier at once) and the bare Bolt run after it, round by round. */
interface Round {
  bot: InstanceReport;
  bare: InstanceReport;
}

function roundsOf(instances: InstanceReport[]): Round[] {
  const bots = instances.filter(
    (i) => i.kind === 'bot' && i.backend === 'SQLite' && i.replicas === 1 && i.upstreamLatencyMs === 0,
  );
  return bots.flatMap((bot) => {
    const bare = instances.find((i) => i.kind === 'bare-bolt' && i.round === bot.round);
    return bare ? [{ bot, bare }] : [];
  });
}

/** An instance's p99 ack in the phase named. */
const p99 = (name: string) => (instance: InstanceReport) => phase(instance, name)?.ack.ackMs.p99;

/**
 * The bot's figure against bare Bolt's, as the median of the rounds' ratios (each round's pair ran one
 * after the other); the figure names every round's. Not measured (n/a) when any round lacks either figure.
 */
function ratioOverRounds(
  name: string,
  rounds: Round[],
  figure: (instance: InstanceReport, round: Round) => number | null | undefined,
  most: number,
  unit: string,
): TargetCheck {
  const target = `${name} ≤ ${most}× bare Bolt's`;
  const pairs = rounds.map((round) => [figure(round.bot, round), figure(round.bare, round)] as const);
  const ratios = pairs.flatMap(([ours, theirs]) =>
    ours !== null && ours !== undefined && theirs ? [ours / theirs] : [],
  );
  if (ratios.length === 0 || ratios.length < pairs.length) return { target, figure: 'n/a', met: null };
  const x = (ratio: number) => `${ratio.toFixed(2)}×`;
  const [ours, theirs] = pairs[0] ?? [];
  const middle = median(ratios);
  return {
    target,
    figure:
      ratios.length === 1
        ? `${ours} ${unit} vs ${theirs} ${unit} = ${x(ratios[0] ?? 0)}`
        : `median ${x(middle)} of ${ratios.length} rounds (${ratios.map(x).join(', ')})`,
    met: middle <= most,
  };
}

export function targets(instances: InstanceReport[], n: number): TargetCheck[] {
  const bots = instances.filter((i) => i.kind === 'bot');
  // The targets are the embedded default's: one bot on SQLite.
  const embedded = bots.filter((i) => i.backend === 'SQLite' && i.replicas === 1);
  const bot0 = embedded.find((i) => i.upstreamLatencyMs === 0);
  const slow = embedded.find((i) => i.upstreamLatencyMs === 10_000);
  const rounds = roundsOf(instances);
  const checks: TargetCheck[] = [];
  for (const name of ['/quote command', 'quote submission']) {
    checks.push(ratioOverRounds(`${name}: p99 ack`, rounds, p99(name), 1.5, 'ms'));
    const ours = phase(bot0, name)?.ack.ackMs.p99 ?? null;
    checks.push({
      target: `${name}: p99 ack < 250 ms (N=${n}${n === 200 ? '' : '; target is for N=200'})`,
      figure: `${ours ?? 'n/a'} ms`,
      met: ours === null ? null : ours < 250,
    });
  }
  const slowAcks = slow?.phases.filter((p) => p.name !== '/quote command') ?? [];
  const slowOver = slowAcks.reduce((sum, p) => sum + p.ack.over3s, 0);
  const slowMax = Math.max(...slowAcks.map((p) => p.ack.ackMs.max ?? 0));
  checks.push({
    target: 'every ack < 3 s with the upstream at 10 s (SQLite)',
    figure: slow ? `${slowOver} over 3 s; max ${slowMax} ms` : 'not run (--smoke/--skip-slow)',
    met: slow ? slowOver === 0 : null,
  });
  const results = bots.flatMap((b) => b.phases.flatMap((p) => (p.results ? [p.results] : [])));
  const lost = results.reduce((sum, r) => sum + r.lost, 0);
  const duplicated = results.reduce((sum, r) => sum + r.duplicated, 0);
  const dbMismatch = bots.some((b) => {
    const r = phase(b, 'booking confirmation')?.results;
    return r ? r.dbRows !== r.expected : false;
  });
  checks.push({
    target: 'no lost or duplicated result (and one booking row each)',
    figure: `${lost} lost, ${duplicated} duplicated${dbMismatch ? ', booking rows ≠ confirmations' : ''}`,
    met: lost === 0 && duplicated === 0 && !dbMismatch,
  });
  const peak = Math.max(...bots.map((b) => b.peakRssMB));
  checks.push({ target: 'peak RSS < 200 MB (each process)', figure: `${peak} MB`, met: peak < 200 });
  const startup = Math.max(...bots.map((b) => b.startupMs));
  checks.push({
    target: 'start-up (spawn → first /healthz 200) < 1.5 s',
    figure: `worst ${startup} ms (${bots.map((b) => b.startupMs).join(', ')} ms)`,
    met: startup < 1500,
  });
  return [...checks, ...budget(embedded, rounds)];
}

/**
 * Issue 46's budget, each figure of the bot (one, SQLite) against bare Bolt's, round by round: memory,
 * acks and start-up from the runs with the courier at once; the peak from the one at 2 s (run once) against
 * each round's bare Bolt, as the issue measured it.
 */
function budget(embedded: InstanceReport[], rounds: Round[]): TargetCheck[] {
  const slowCourier = embedded.find((i) => i.upstreamLatencyMs === 2000);
  const issue = (check: TargetCheck): TargetCheck => ({
    ...check,
    target: `${check.target} (issue 46)`,
    budget: true,
  });
  return [
    ratioOverRounds('idle RSS', rounds, (i) => i.idleRssMB, 1.1, 'MB'),
    ratioOverRounds(
      'peak RSS (courier at 2 s)',
      rounds,
      (i, round) => (i === round.bot ? (slowCourier ?? i) : i).peakRssMB,
      1.1,
      'MB',
    ),
    ratioOverRounds('/quote command: p99 ack', rounds, p99('/quote command'), 1, 'ms'),
    ratioOverRounds('quote submission: p99 ack', rounds, p99('quote submission'), 1, 'ms'),
    ratioOverRounds('start-up', rounds, (i) => i.startupMs, 1.5, 'ms'),
  ].map(issue);
}

/**
 * The backends side by side at each courier delay: ack p50/p99 of every phase, time to the result
 * (p50/p99) and requests answered per second of the two submissions.
 */
function sideBySide(instances: InstanceReport[]): string {
  const pair = (a: number | null | undefined, b: number | null | undefined) =>
    `${a === null || a === undefined ? '-' : Math.round(a)} / ${b === null || b === undefined ? '-' : Math.round(b)}`;
  const rows = instances.map((i) => {
    const [command, quote, booking] = ['/quote command', 'quote submission', 'booking confirmation'].map(
      (name) => phase(i, name),
    );
    return [
      i.name,
      pair(command?.ack.ackMs.p50, command?.ack.ackMs.p99),
      pair(quote?.ack.ackMs.p50, quote?.ack.ackMs.p99),
      pair(booking?.ack.ackMs.p50, booking?.ack.ackMs.p99),
      pair(quote?.results?.toResultMs.p50, quote?.results?.toResultMs.p99),
      pair(booking?.results?.toResultMs.p50, booking?.results?.toResultMs.p99),
      quote?.ack.perSecond ?? null,
      booking?.ack.perSecond ?? null,
    ];
  });
  return [
    'Side by side (ms, p50 / p99; req/s: requests answered per second)',
    table([
      [
        'process',
        '/quote ack',
        'quote ack',
        'booking ack',
        'quote result',
        'booking result',
        'quote req/s',
        'booking req/s',
      ],
      ...rows,
    ]),
  ].join('\n');
}

function table(rows: (string | number | null)[][]): string {
  const text = rows.map((row) => row.map((cell) => (cell === null ? '-' : String(cell))));
  const widths = text[0]?.map((_, col) => Math.max(...text.map((row) => row[col]?.length ?? 0))) ?? [];
  return text
    .map((row) =>
      row
        .map((cell, col) => (col === 0 ? cell.padEnd(widths[col] ?? 0) : cell.padStart(widths[col] ?? 0)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** A search's figures, a row a query, after a blank line and its title; `extra`: one more column. */
function queryTable<
  R extends { backend: string; query: string; what: string; found: number; p50Ms: number; p99Ms: number },
>(title: string, rows: readonly R[], extra?: [string, (row: R) => string | number]): string[] {
  const ms = (value: number) => Math.round(value * 100) / 100;
  return [
    '',
    title,
    table([
      ['backend', 'query', 'what it matches', 'found', 'p50', 'p99', ...(extra ? [extra[0]] : [])],
      ...rows.map((r) => [
        r.backend,
        JSON.stringify(r.query),
        r.what,
        r.found,
        ms(r.p50Ms),
        ms(r.p99Ms),
        ...(extra ? [extra[1](r)] : []),
      ]),
    ]),
  ];
}

export function render(report: {
  machine: ReturnType<typeof machine>;
  n: number;
  mode: string;
  totalSeconds: number;
  instances: InstanceReport[];
  /** Node alone and Bolt alone, put before the bot's start-up steps (`memoryBeforeTheBundle`). */
  beforeTheBundle?: StartupMemory[];
  bulk?: BulkReport[];
  labels?: LabelsReport[];
  exported?: ExportReport[];
  remittance?: RemittanceReport;
  prints?: PrintsReport;
  typeAhead?: TypeAheadRow[];
  places?: PlacesReport;
  find?: FindRow[];
  flood?: FloodRow[];
  targets: TargetCheck[];
}): string {
  const m = report.machine;
  const out: string[] = [];
  out.push(
    `Benchmark (${report.mode}, N=${report.n}) on ${m.nproc} cores (nproc), ${m.memTotal} RAM, node ${m.node}; ${report.totalSeconds} s in all`,
  );
  out.push('');
  out.push(
    table([
      [
        'process (per replica)',
        'start-up ms',
        'idle RSS MB',
        'peak RSS MB',
        'warn/error log lines',
        'told DB not answering',
        'exit',
      ],
      ...report.instances.map((i) => [
        i.name,
        i.startupMs,
        i.idleRssMB,
        i.peakRssMB,
        i.warnOrErrorLogLines,
        i.toldDatabaseDown,
        i.exit,
      ]),
    ]),
  );
  const byPart = report.instances.filter((i) => i.idleMemory);
  if (byPart.length > 0) {
    out.push('');
    out.push(
      'Idle RSS by where it lives (MB): the node binary read so far (its code and the date, number and text data of ICU), the V8 heap, native allocations, native addons',
    );
    out.push(
      table([
        ['process', 'RSS', 'node binary', 'V8 heap', 'native', 'addons', 'other'],
        ...byPart.map((i) => {
          const m = i.idleMemory as MemoryByPart;
          return [i.name, i.idleRssMB, m.node, m.v8, m.native, m.addons, m.other];
        }),
      ]),
    );
  }
  const steps = report.instances.find((i) => i.startupMemory?.length)?.startupMemory ?? [];
  if (steps.length > 0) {
    const memory = [...(report.beforeTheBundle ?? []), ...steps];
    out.push('');
    out.push(
      "Memory by start-up step (MB), and when each ended (ms since its process started): Node alone and Bolt alone, each in a process of its own started as `npm start` starts node; then the bot's steps, the first one's + being its bundle and settings over Bolt's",
    );
    out.push(
      table([
        ['step', 'at ms', 'RSS', '+RSS', 'V8 heap', '+heap', 'external'],
        ...memory.map((m, i) => [
          m.step,
          m.atMs ?? '',
          m.rssMB,
          i === 0 ? '' : Math.round((m.rssMB - (memory[i - 1]?.rssMB ?? 0)) * 10) / 10,
          m.heapMB,
          i === 0 ? '' : Math.round((m.heapMB - (memory[i - 1]?.heapMB ?? 0)) * 10) / 10,
          m.externalMB,
        ]),
      ]),
    );
  }
  out.push('');
  out.push(sideBySide(report.instances));
  out.push('');
  out.push(
    'Acknowledgements (ms, sent → answer read by the load process; in bot: p99 from Bolt’s hand-over to the ack, the bot’s own histogram, as its bucket bound; CPU: the process’s user and system time from the first request sent to the last answer read, per request)',
  );
  out.push(
    table([
      [
        'process / phase',
        'n',
        'ok',
        'p50',
        'p95',
        'p99',
        'max',
        '>3 s',
        'req/s',
        'in bot p99 ≤',
        'CPU ms/req',
      ],
      ...report.instances.flatMap((i) =>
        i.phases.map((p) => [
          `${i.name}: ${p.name}`,
          p.ack.requests,
          p.ack.ok,
          p.ack.ackMs.p50,
          p.ack.ackMs.p95,
          p.ack.ackMs.p99,
          p.ack.ackMs.max,
          p.ack.over3s,
          p.ack.perSecond,
          p.ackInBotP99Ms ?? '-',
          p.cpuMsPerRequest ?? '-',
        ]),
      ),
    ]),
  );
  out.push('');
  out.push('Results reaching the user (ms from submission; result = first of channel post / modal update)');
  const resultRows = report.instances.flatMap((i) =>
    i.phases.flatMap((p) =>
      p.results
        ? [
            [
              `${i.name}: ${p.name}`,
              p.results.expected,
              p.results.delivered,
              p.results.lost,
              p.results.duplicated,
              p.results.errors,
              p.results.toResultMs.p50,
              p.results.toResultMs.p95,
              p.results.toResultMs.p99,
              p.results.toResultMs.max,
              p.results.toViewMs.p99,
              p.results.dbRows ?? null,
            ],
          ]
        : [],
    ),
  );
  out.push(
    table([
      [
        'process / phase',
        'n',
        'delivered',
        'lost',
        'dup',
        'errors',
        'p50',
        'p95',
        'p99',
        'max',
        'modal p99',
        'DB rows',
      ],
      ...resultRows,
    ]),
  );
  out.push('');
  out.push('Forms opened after /quote (views.open; Slack expires the trigger_id 3 s after the command)');
  out.push(
    table([
      ['process', 'opened', 'p50', 'p95', 'p99', 'max', '>3 s'],
      ...report.instances.flatMap((i) => {
        const p = phase(i, '/quote command');
        return p?.formOpenMs
          ? [
              [
                i.name,
                `${p.formsOpened}/${p.ack.requests}`,
                p.formOpenMs.p50,
                p.formOpenMs.p95,
                p.formOpenMs.p99,
                p.formOpenMs.max,
                p.formsOpenedOver3s ?? null,
              ],
            ]
          : [];
      }),
    ]),
  );
  const bulk = report.bulk ?? [];
  if (bulk.length > 0) {
    out.push('');
    out.push(
      'Bulk booking: one CSV file (ms from the request; rows/s against the serial ideal, 1 / courier latency, and against one bot on the same backend)',
    );
    const oneBot = (run: BulkReport) =>
      bulk.find(
        (other) => other.backend === run.backend && other.replicas === 1 && other.latencyMs === run.latencyMs,
      );
    const ratio = (a: number | null | undefined, b: number | null | undefined) =>
      a && b ? Math.round((a / b) * 100) / 100 : null;
    out.push(
      table([
        [
          'run',
          'check (download, read, summary)',
          'booking to results file',
          'rows/s',
          'x serial ideal',
          'x one bot',
          'CPU ms/row',
          'outcomes',
          'peak RSS MB',
        ],
        ...bulk.map((run) => [
          run.name,
          run.checkMs,
          run.bookMs,
          run.rowsPerSecond,
          run.latencyMs > 0 ? ratio(run.rowsPerSecond, 1000 / run.latencyMs) : null,
          run.replicas > 1 ? ratio(run.rowsPerSecond, oneBot(run)?.rowsPerSecond) : null,
          run.cpuMsPerRow,
          Object.entries(run.outcomes)
            .map(([outcome, count]) => `${count} ${outcome}`)
            .join(', '),
          run.peakRssMB,
        ]),
      ]),
    );
    for (const run of bulk) for (const note of run.notes) out.push(`  ${run.name}: ${note}`);
  }
  if (report.labels && report.labels.length > 0) {
    out.push('');
    out.push(
      'Labels and pickup manifests (PDF; each in a process of its own; ms; x CSV: against the same bookings as the manifest CSV)',
    );
    out.push(
      table([
        [
          'PDF',
          'bookings',
          'pages',
          'kB',
          'first (libraries loaded)',
          'again',
          'per booking',
          'x CSV',
          'start RSS MB',
          'peak RSS MB',
        ],
        ...report.labels.map((l) => [
          l.kind,
          l.bookings,
          l.pages,
          l.kilobytes,
          l.firstMs,
          l.ms,
          Math.round((l.ms / l.bookings) * 10) / 10,
          l.csvMs > 0 ? Math.round(l.ms / l.csvMs) : null,
          l.startRssMB,
          l.peakRssMB,
        ]),
      ]),
    );
  }
  if (report.exported?.length) {
    out.push('');
    out.push(
      'Export: /waybill export of 2026, streamed to Slack (ms from the command); the store written straight into its tables first',
    );
    out.push(
      table([
        [
          'backend',
          'store: audit lines, bookings, parties',
          'seed ms',
          'lines in file',
          'export ms',
          'idle RSS MB',
          'peak RSS MB',
          '/quote ack p99 before',
          'during (n)',
          'during/before',
        ],
        ...report.exported.map((e) => [
          e.backend,
          `${e.auditRows}, ${e.bookings}, ${e.parties}`,
          e.seedMs,
          `${e.lines} of ${e.expectedLines}`,
          e.exportMs,
          e.idleRssMB,
          e.peakRssMB,
          e.ackBefore.p99,
          `${e.ackDuring.p99} (${e.ackDuring.count})`,
          e.ackDuring.p99 !== null && e.ackBefore.p99
            ? Math.round((e.ackDuring.p99 / e.ackBefore.p99) * 100) / 100
            : null,
        ]),
      ]),
    );
    for (const e of report.exported) for (const note of e.notes) out.push(`  ${e.backend}: ${note}`);
  }
  const { remittance } = report;
  if (remittance) {
    // Against the first bulk run's bot (SQLite, one bot): the same kind of work, a file read and booked.
    const bulkPeak = report.bulk?.[0]?.peakRssMB;
    out.push('');
    out.push('COD remittance: one file against as many COD bookings (ms from the request)');
    out.push(
      table([
        [
          'lines',
          'to results file (read, match, record, card)',
          'to outstanding list',
          'lines/s',
          'outcomes',
          'peak RSS MB',
          'vs bulk bot peak',
        ],
        [
          remittance.lines,
          remittance.resultsMs,
          remittance.outstandingMs,
          remittance.linesPerSecond,
          Object.entries(remittance.outcomes)
            .map(([outcome, count]) => `${count} ${outcome}`)
            .join(', '),
          remittance.peakRssMB,
          bulkPeak ? `${Math.round((remittance.peakRssMB / bulkPeak) * 100) / 100}x` : 'n/a',
        ],
      ]),
    );
    for (const note of remittance.notes) out.push(`  ${note}`);
  }
  const { prints } = report;
  if (prints) {
    out.push('');
    out.push(
      'Prints under load: two /waybill label of one booking and a /waybill manifest at once, /quote bursts of 50 meanwhile (ms from the commands)',
    );
    out.push(
      table([
        [
          'label pages',
          'manifest bookings',
          'to each labels PDF',
          'to the manifest CSV',
          'peak RSS MB',
          '/quote ack p99 before',
          'during: p50 / p99 / max (n)',
        ],
        [
          prints.labelPages.join(', '),
          prints.manifestLines,
          prints.labelsMs.join(', '),
          prints.manifestMs,
          prints.peakRssMB,
          prints.ackBefore.p99,
          `${prints.ackDuring.p50} / ${prints.ackDuring.p99} / ${prints.ackDuring.max} (${prints.ackDuring.count})`,
        ],
      ]),
    );
    for (const note of prints.notes) out.push(`  ${note}`);
  }
  if (report.typeAhead?.length) {
    out.push(
      ...queryTable(
        `Type-ahead: the address book's search with ${report.typeAhead[0]?.parties} saved parties, ${TYPE_AHEAD_ROUNDS} times each in a row (ms)`,
        report.typeAhead,
        ['p50 x lookup by id', (r) => Math.round(r.xLookup * 10) / 10],
      ),
    );
  }
  if (report.places) out.push(...renderPlaces(report.places));
  if (report.find?.length) {
    out.push(
      ...queryTable(
        `/waybill find: the first page with ${report.find[0]?.bookings} bookings, ${FIND_ROUNDS} times each in a row (ms)`,
        report.find,
      ),
    );
  }
  if (report.flood?.length) {
    out.push(
      '',
      '/waybill find flood: 100 finds at once from a channel seeing none of the matches, another dispatcher looking up meanwhile (ms)',
    );
    out.push(
      table([
        ['backend', 'bookings', 'ack p99', 'ack max', 'all pages', "others' ack p99", "others' ack max"],
        ...report.flood.map((r) => [
          r.backend,
          String(r.bookings),
          String(Math.round(r.ackP99Ms)),
          String(Math.round(r.ackMaxMs)),
          `${r.answered}/${r.finds} in ${Math.round(r.allAnsweredMs)}`,
          String(Math.round(r.othersP99Ms)),
          String(Math.round(r.othersMaxMs)),
        ]),
      ]),
    );
  }
  out.push('');
  out.push("Targets (a missed budget, issue 46's, fails --check outside --smoke; the others are reported)");
  out.push(
    table([
      ['', 'target', 'figure'],
      ...report.targets.map((t) => [t.met === null ? 'n/a' : t.met ? 'met' : 'MISSED', t.target, t.figure]),
    ]),
  );
  const notes = report.instances.flatMap((i) =>
    i.phases.flatMap((p) => [
      ...p.ack.firstErrors.map((e) => `${i.name}: ${p.name}: ack ${e}`),
      ...(p.results?.notes ?? []).map((n) => `${i.name}: ${p.name}: ${n}`),
    ]),
  );
  if (notes.length) out.push('', 'Notes', ...notes.map((n) => `  ${n}`));
  return out.join('\n');
}
