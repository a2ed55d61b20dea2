/** The feature layout holds: a feature reaches another only through its index.ts, and shared code reaches none. */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const slackDir = fileURLToPath(new URL('../../src/slack/', import.meta.url));
const folders = readdirSync(slackDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const features = folders.filter((name) => name !== 'shared');

/** Every relative import of every file in a folder, as a path under src/slack/. */
function importsOf(folder: string): { file: string; target: string }[] {
  const dir = join(slackDir, folder);
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .flatMap((name) => {
      const file = join(dir, name);
      const text = readFileSync(file, 'utf8');
      return [...text.matchAll(/\bfrom\s+'(\.{1,2}\/[^']+)'/g)].map((match) => ({
        file: relative(slackDir, file),
        target: relative(slackDir, resolve(dirname(file), match[1] ?? '')),
      }));
    });
}

const featureOf = (target: string) => features.find((feature) => target.startsWith(`${feature}/`));

describe('src/slack layout', () => {
  it('has the feature folders and the shared one', () => {
    expect(folders).toEqual(expect.arrayContaining(['quote', 'book', 'update', 'shared']));
  });

  it.each(features)("%s imports another feature only through that feature's index.ts", (feature) => {
    const reaching = importsOf(feature).filter(({ target }) => {
      const other = featureOf(target);
      return other !== undefined && other !== feature && target !== `${other}/index.js`;
    });
    expect(reaching).toEqual([]);
  });

  it('shared code imports no feature', () => {
    expect(importsOf('shared').filter(({ target }) => featureOf(target) !== undefined)).toEqual([]);
  });
});
