/**
 * The layers hold: src/operations knows no Slack (only src/waybill and src/store), src/waybill and
 * src/store know neither, and the bookkeeping is the operations' alone.
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
  it('src/operations imports only src/waybill, src/store, itself, pino and node built-ins', () => {
    const imports = importsOf('operations');
    expect(imports.length).toBeGreaterThan(0);
    const allowed = (target: string) =>
      /^(waybill|store|operations)\//.test(target) ||
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

  it.each(['waybill', 'store'])('src/%s imports neither src/operations nor src/slack', (folder) => {
    const imports = importsOf(folder);
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter(({ target }) => /^(operations|slack)\//.test(target))).toEqual([]);
  });
});
