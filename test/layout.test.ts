/**
 * The layers hold: src/operations knows no Slack (only src/waybill, src/store and src/sms), src/waybill,
 * src/store and src/sms know neither, and the bookkeeping is the operations' alone; no circle of imports among
 * the layers, the Slack features, or the files of slack/kit, guards and runtime.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
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
 * The bookkeeping operations do: a booking stored, an attempt settled, a record replaced, a status
 * or a remittance recorded, a file's row kept, a transaction of its own.
 */
const bookkeeping =
  /\b(?:settleUnknown|storeOutcome|transaction)\(|\.(?:bookings\s*\.\s*(?:insert|updateRecord)|parties\s*\.\s*save|statuses\s*\.\s*record|remittances\s*\.\s*record|imports\s*\.\s*(?:setRow|finishRow))\(/;

describe('layers under src/', () => {
  it('src/operations imports only src/waybill, src/store, src/sms, itself, pino and node built-ins', () => {
    const imports = importsOf('operations');
    expect(imports.length).toBeGreaterThan(0);
    const allowed = (target: string) =>
      /^(waybill|store|sms|operations)\//.test(target) ||
      target === 'package:pino' ||
      target.startsWith('package:node:');
    expect(imports.filter(({ target }) => !allowed(target))).toEqual([]);
  });

  it('src/operations imports nothing of src/slack', () => {
    expect(importsOf('operations').filter(({ target }) => target.startsWith('slack/'))).toEqual([]);
  });

  it("src/slack does no bookkeeping of its own: that is the operations' (none left copied there)", () => {
    const files = sourcesOf('slack');
    expect(files.length).toBeGreaterThan(0);
    expect(
      files.filter(({ text }) => bookkeeping.test(text)).map(({ file }) => relative(srcDir, file)),
    ).toEqual([]);
    // The pattern finds what it is for: the operations do all of it.
    expect(sourcesOf('operations').filter(({ text }) => bookkeeping.test(text)).length).toBeGreaterThan(3);
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
