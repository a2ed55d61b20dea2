/** The layers hold: src/operations knows no Slack (only src/waybill and src/store), and src/waybill and src/store know neither. */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const srcDir = fileURLToPath(new URL('../src/', import.meta.url));

/** Every import of every file in a folder under src/: relative ones as a path under src/, packages as named. */
function importsOf(folder: string): { file: string; target: string }[] {
  const dir = join(srcDir, folder);
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .flatMap((name) => {
      const file = join(dir, name);
      const text = readFileSync(file, 'utf8');
      return [...text.matchAll(/\b(?:from|import)\s*\(?\s*'([^']+)'/g)].map((match) => {
        const spec = match[1] ?? '';
        return {
          file: relative(srcDir, file),
          target: spec.startsWith('.') ? relative(srcDir, resolve(dirname(file), spec)) : `package:${spec}`,
        };
      });
    });
}

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

  it.each(['waybill', 'store'])('src/%s imports neither src/operations nor src/slack', (folder) => {
    const imports = importsOf(folder);
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter(({ target }) => /^(operations|slack)\//.test(target))).toEqual([]);
  });
});
