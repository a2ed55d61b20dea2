/**
 * The layers hold: src/operations knows no Slack (only src/waybill, src/store, src/sms and src/settings),
 * src/waybill, src/store and src/sms know neither, src/settings nothing, and only app.ts imports
 * src/config.ts; the bookkeeping is the operations' alone (src/slack writes only drafts, calls the
 * courier nowhere); no circle of imports among the layers, the Slack features, or the files of
 * slack/kit, guards and runtime.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const srcDir = fileURLToPath(new URL('../src/', import.meta.url));

/** Every file in a folder under src/, with its text. */
function sourcesOf(folder: string): { file: string; text: string }[] {
  const dir = join(srcDir, folder);
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => ({ file: join(dir, name), text: readFileSync(join(dir, name), 'utf8') }));
}

/** Every import of every file in a folder under src/: relative ones as a path under src/, packages as named. */
function importsOf(folder: string): { file: string; target: string }[] {
  return sourcesOf(folder).flatMap(({ file, text }) =>
    [...text.matchAll(/\b(?:from|import)\s*\(?\s*'([^']+)'/g)].map((match) => {
      const spec = match[1] ?? '';
      return {
        file: relative(srcDir, file),
        target: spec.startsWith('.') ? relative(srcDir, resolve(dirname(file), spec)) : `package:${spec}`,
      };
    }),
  );
}

/**
 * What src/slack may call on the store's tables: drafts (a form's state between steps is the Slack
 * side's), and these reads. Any other method is a write, which belongs in an operation.
 */
const slackReads = new Set([
  'get',
  'find',
  'namedIn',
  'list',
  'listBooked',
  'listByPickup',
  'listUnknown',
  'latest',
  'latestOf',
  'history',
  'between',
  'since',
  'of',
  'ofBookings',
  'ownersOf',
  'checksOf',
  'bookingsIn',
  'isOn',
  'lastDmAt',
  'countBooked',
  'countUnknown',
  'countFlagged',
  'rows',
  'run',
  'runResults',
  'runCounts',
  'anyRunning',
  'threadOf',
]);

/** What the store itself answers without a table: whether it is up, its pool, where it is. */
const storeReads = new Set(['ping', 'pool', 'location', 'replica']);

/**
 * The calls on the store made in `text` that are neither a draft's nor a listed read: `store.<table>`
 * and `tx.<table>` (a transaction's), a table destructured from the store, and the store's own
 * methods (`transaction` among them). Each as `<line>: <table>.<method>` for the failure to name.
 */
function storeWrites(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const lineOf = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
  /** Names bound to the store's tables by destructuring (`const { reminders } = deps.store`). */
  const tables = new Set<string>();
  const isStore = (node: ts.Expression) =>
    (ts.isIdentifier(node) && ['store', 'tx'].includes(node.text)) ||
    (ts.isPropertyAccessExpression(node) && node.name.text === 'store');
  /** `table.method(`, `table.method<T>(` or the table handed on whole. */
  const check = (table: string, at: ts.Node) => {
    if (table === 'drafts') return;
    const { parent } = at;
    const method =
      ts.isPropertyAccessExpression(parent) && parent.expression === at ? parent.name.text : undefined;
    if (method && slackReads.has(method) && ts.isCallExpression(parent.parent)) return;
    found.push(`${lineOf(at)}: ${table}.${method ?? '(the table itself)'}`);
  };
  const visit = (node: ts.Node) => {
    if (ts.isPropertyAccessExpression(node) && isStore(node.expression)) {
      const name = node.name.text;
      if (!storeReads.has(name)) check(name, node);
    } else if (
      ts.isVariableDeclaration(node) &&
      ts.isObjectBindingPattern(node.name) &&
      node.initializer &&
      isStore(node.initializer)
    ) {
      for (const element of node.name.elements)
        if (ts.isIdentifier(element.name)) tables.add(element.name.text);
    } else if (ts.isIdentifier(node) && tables.has(node.text) && !ts.isBindingElement(node.parent)) {
      check(node.text, node);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Calls on the courier's client (`deps.courier`, `courier.quote(…)`) in `text`, by line. */
function courierCalls(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      ts.isPropertyAccessExpression(node) &&
      ((ts.isIdentifier(node.expression) && node.expression.text === 'courier') ||
        node.name.text === 'courier')
    ) {
      found.push(`${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${node.getText()}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('layers under src/', () => {
  it('src/operations imports only src/waybill, src/store, src/sms, src/settings, itself, pino, zod and node built-ins', () => {
    const imports = importsOf('operations');
    expect(imports.length).toBeGreaterThan(0);
    const allowed = (target: string) =>
      /^(waybill|store|sms|settings|operations)\//.test(target) ||
      target === 'package:pino' ||
      target === 'package:zod' ||
      target.startsWith('package:node:');
    expect(imports.filter(({ target }) => !allowed(target))).toEqual([]);
  });

  it('src/operations imports nothing of src/slack', () => {
    expect(importsOf('operations').filter(({ target }) => target.startsWith('slack/'))).toEqual([]);
  });

  /** src/slack's files, each named under src/. */
  const slackFiles = () =>
    sourcesOf('slack').map(({ file, text }) => ({ file: relative(srcDir, file), text }));

  it('src/slack writes only drafts: every other store call is a listed read, the rest are operations', () => {
    const files = slackFiles();
    expect(files.length).toBeGreaterThan(0);
    const writes = files.flatMap(({ file, text }) =>
      storeWrites(file, text).map(
        (call) =>
          `${file}:${call}: move this write into an operation in src/operations (or, a read, list it in slackReads)`,
      ),
    );
    expect(writes).toEqual([]);
  });

  it("src/slack calls the courier nowhere: that is the operations' (call-once.ts, quote.ts)", () => {
    const calls = slackFiles().flatMap(({ file, text }) =>
      courierCalls(file, text).map(
        (call) => `${file}:${call}: call the courier in an operation in src/operations`,
      ),
    );
    expect(calls).toEqual([]);
  });

  it('finds a write, a table destructured or handed on, a transaction and a courier call; lets drafts and reads be', () => {
    const text = [
      'await deps.store.drafts.save(id, data);',
      'const b = await deps.store.bookings.get<Booking>(n);',
      'await deps.store.bookings',
      '  .setOwner(n, owner);',
      'const { reminders } = deps.store;',
      'await reminders.claim(x);',
      'await deps.store.transaction(async (tx) => tx.audit.record(entry));',
      'withTable(this.store.parties);',
      '// deps.store.bookings.insert( in a comment is no call',
      'await deps.courier.quote(request);',
    ].join('\n');
    expect(storeWrites('sample.ts', text)).toEqual([
      '3: bookings.setOwner',
      '6: reminders.claim',
      '7: transaction.(the table itself)',
      '7: audit.record',
      '8: parties.(the table itself)',
    ]);
    expect(courierCalls('sample.ts', text)).toEqual(['10: deps.courier']);
  });

  it('src/settings, the kit every module writes its settings with, imports only zod and the error it throws', () => {
    const imports = importsOf('settings');
    expect(imports.length).toBeGreaterThan(0);
    expect(
      imports.filter(({ target }) => target !== 'package:zod' && target !== 'settings-error.js'),
    ).toEqual([]);
  });

  it('only the entry point imports src/config.ts: each module declares its settings, config.ts composes them', () => {
    const importers = importsOf('.').filter(({ target }) => target === 'config.js');
    expect(importers.map(({ file }) => file)).toEqual(['app.ts']);
  });

  it.each(['waybill', 'store', 'sms'])('src/%s imports neither src/operations nor src/slack', (folder) => {
    const imports = importsOf(folder);
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter(({ target }) => /^(operations|slack)\//.test(target))).toEqual([]);
  });
});

/** The strongly connected groups of more than one node: each a circle of imports. */
function circles(edges: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (stack.includes(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      group.push(member);
      if (member === node) break;
    }
    if (group.length > 1) found.push(group.sort());
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return found;
}

/**
 * The circles among `unitOf`'s units, each told by the imports that close it (`a.ts -> b.ts`), so a
 * failure names the files to change.
 */
function circlesAmong(unitOf: (file: string) => string | undefined): string[][] {
  const ts = (path: string) => path.replace(/\.js$/, '.ts');
  const edges = new Map<string, Set<string>>();
  const through = new Map<string, string[]>();
  for (const { file, target } of importsOf('.')) {
    if (target.startsWith('package:') || target.startsWith('..')) continue;
    const [from, to] = [unitOf(ts(file)), unitOf(ts(target))];
    if (from === undefined || to === undefined || from === to) continue;
    edges.set(from, (edges.get(from) ?? new Set()).add(to));
    through.set(`${from} ${to}`, [...(through.get(`${from} ${to}`) ?? []), `${ts(file)} -> ${ts(target)}`]);
  }
  return circles(edges).map((group) =>
    group.flatMap((from) => group.flatMap((to) => through.get(`${from} ${to}`) ?? [])),
  );
}

describe('no circles of imports', () => {
  it('among the layers (a folder of src/ each, a root file each) and the Slack features (a folder of src/slack each)', () => {
    const unitOf = (file: string) => {
      const parts = file.split('/');
      if (parts[0] === 'slack' && parts.length > 2) return `slack/${parts[1]}`;
      return parts[0] === 'slack' ? file : parts.length > 1 ? parts[0] : file;
    };
    expect(circlesAmong(unitOf)).toEqual([]);
  });

  it.each(['slack/kit', 'slack/guards', 'slack/runtime'])('among the files of src/%s', (folder) => {
    expect(circlesAmong((file) => (file.startsWith(`${folder}/`) ? file : undefined))).toEqual([]);
  });

  it('finds a circle where there is one, naming the imports that close it', () => {
    const edges = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
      ['d', new Set(['a'])],
    ]);
    expect(circles(edges)).toEqual([['a', 'b', 'c']]);
  });
});
