/**
 * The unit lane (`*.unit.test.ts`, `npm run test:unit`) stays pure: no unit file, nor a test helper it
 * imports, reaches what opens a socket, a child process, a thread or a database, or needs the run's bundles.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Node's and packages' modules that open something; src/'s modules that start or open something. */
const opening =
  /^(node:)?(child_process|net|http|https|http2|dgram|tls|worker_threads|cluster)$|^(pg|better-sqlite3|ws|undici)$/;
const startingInSrc = [
  'src/app.ts',
  'src/store/index.ts',
  'src/store/backend.ts',
  'src/slack/bot.ts',
  'src/render/pool.ts',
  'src/waybill/client.ts',
  'src/waybill/sandbox/server.ts',
];

/** What a file imports for use at run time (`import type` left out), as written. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8').replace(/^\s*(?:import|export) type [^;]*;/gms, '');
  return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)'([^']+)'/g)].map((match) => match[1] ?? '');
}

/** A relative import's file: `.js` as written for a `.ts` source. */
function fileOf(from: string, spec: string): string | undefined {
  const path = resolve(dirname(from), spec);
  return [path.replace(/\.js$/, '.ts'), path].find((candidate) => existsSync(candidate));
}

/**
 * Why `file` is not pure: the modules above it reaches, through itself and the test helpers it imports
 * (test/, fakes/, scripts/); src/ is followed no further than the module imported, which the rule names.
 */
function reasons(file: string): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  const walk = (current: string) => {
    if (seen.has(current)) return;
    seen.add(current);
    const name = relative(root, current);
    if (/\binject\(/.test(readFileSync(current, 'utf8'))) found.push(`${name} needs the run's bundles`);
    for (const spec of importsOf(current)) {
      if (!spec.startsWith('.')) {
        if (opening.test(spec)) found.push(`${name} imports ${spec}`);
        continue;
      }
      const target = fileOf(current, spec);
      if (!target) continue;
      const targetName = relative(root, target);
      if (startingInSrc.includes(targetName)) found.push(`${name} imports ${targetName}`);
      else if (!targetName.startsWith('src/')) walk(target);
    }
  };
  walk(file);
  return found;
}

const unitFiles = readdirSync(join(root, 'test'), { recursive: true, encoding: 'utf8' })
  .filter((path) => path.endsWith('.unit.test.ts'))
  .map((path) => join(root, 'test', path));

describe('the unit lane', () => {
  it('has the pure tests: readers, renderers, rules', () => {
    expect(unitFiles.length).toBeGreaterThanOrEqual(20);
  });

  it.each(unitFiles.map((file) => [relative(root, file), file]))(
    '%s opens no socket, process, thread or database',
    (_name, file) => {
      expect(reasons(file)).toEqual([]);
    },
  );

  it('would see a helper that starts the bot, or a store, or a child process', () => {
    expect(reasons(join(root, 'test/slack/quote.e2e.test.ts'))).toContain(
      'test/support/bot-harness.ts imports src/store/index.ts',
    );
    expect(reasons(join(root, 'test/store/contract.test.ts'))).toEqual(
      expect.arrayContaining(['test/store/child.ts imports node:child_process']),
    );
  });
});
