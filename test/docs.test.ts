/**
 * Keeps the docs true to the code: the scripts, settings, folders and log line they name exist, wire keys are
 * described, links resolve, every test file says what it covers, and the example alerts fit the example
 * scrape.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import * as config from '../src/config.js';
import { ConfigError } from '../src/settings-error.js';
import { readyMessage } from '../src/startup.js';
import { defaultCatalog } from '../src/waybill/catalog.js';
import { sampleBooking, sampleQuotation, sampleUpdate } from './support/wire-samples.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const read = (path: string) => readFileSync(join(root, path), 'utf8');

/** Files under a folder, as repository paths with `/`. */
function filesUnder(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
    .map((path) => `${folder}/${path.split('\\').join('/')}`)
    .filter((path) => statSync(join(root, path)).isFile())
    .sort();
}

const docs = [
  'README.md',
  'CONTRIBUTING.md',
  'bench/README.md',
  ...filesUnder('docs').filter((p) => p.endsWith('.md')),
];
const sources = [...filesUnder('src'), ...filesUnder('bench'), ...filesUnder('.ci')].filter((p) =>
  /\.(ts|mjs)$/.test(p),
);

const settingName = /^[A-Z][A-Z0-9_]*$/;

/**
 * The settings src/config.ts composes: every key its loaders look up in the environment (recorded by
 * handing them an empty environment that notes each lookup), and every key of its modules' schemas,
 * so a loader that stops early hides none.
 */
function configSettings(): string[] {
  const names = new Set<string>();
  const env = new Proxy({} as Record<string, string | undefined>, {
    get(_target, key) {
      if (typeof key === 'string' && settingName.test(key)) names.add(key);
      return undefined;
    },
  });
  const loaders = Object.entries(config).filter(([name]) => /^load\w+Config$/.test(name));
  expect(loaders.length).toBeGreaterThanOrEqual(3);
  for (const [, load] of loaders) {
    try {
      (load as (env: Record<string, string | undefined>) => unknown)(env);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
    }
  }
  for (const { schema } of config.settingsModules)
    for (const name of Object.keys(schema.shape)) names.add(name);
  return [...names].sort();
}

/**
 * Environment variables read anywhere in src/ and bench/ (process.env.X, process.env['X'], env('X')),
 * and by the store tests' backends (TEST_DATABASE_URL), which the docs tell contributors to set.
 */
function variablesReadByCode(): Set<string> {
  const names = new Set(configSettings());
  const patterns = [/process\.env\.([A-Z][A-Z0-9_]*)/g, /\w*[eE]nv\w*\[?\(?\s*'([A-Z][A-Z0-9_]*)'/g];
  for (const path of [...sources, 'test/store/backends.ts']) {
    for (const pattern of patterns) {
      for (const [, name = ''] of read(path).matchAll(pattern)) names.add(name);
    }
  }
  // The image's build arguments and compose's own variables are read there.
  for (const [, name = ''] of read('Dockerfile').matchAll(/^ARG ([A-Z][A-Z0-9_]*)/gm)) names.add(name);
  for (const [, name = ''] of read('compose.yaml').matchAll(/\$\{([A-Z][A-Z0-9_]*)/g)) names.add(name);
  // What the script that runs node reads, and node's own variables it names (node reads those).
  const launcher = read('scripts/node.sh');
  for (const [, name = ''] of launcher.matchAll(/\$\{([A-Z][A-Z0-9_]*)/g)) names.add(name);
  for (const [name] of launcher.matchAll(/\bNODE_[A-Z0-9_]+/g)) names.add(name);
  // The shell's own, passed through to child processes, and the CI system's, are not settings.
  names.delete('PATH');
  names.delete('HOME');
  names.delete('CI');
  return names;
}

/** Setting-like words in a text: upper case with an underscore, minus the courier's value codes. */
function settingWords(text: string): string[] {
  const catalog = Object.values(defaultCatalog).flatMap((list) =>
    Array.isArray(list) ? list.map((choice) => choice.value) : [list],
  );
  const words = text.match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g) ?? [];
  return [...new Set(words)].filter((word) => !catalog.includes(word));
}

describe('the docs', () => {
  it('name only npm scripts that exist', () => {
    const scripts = Object.keys(JSON.parse(read('package.json')).scripts as Record<string, string>);
    for (const path of docs) {
      const text = read(path);
      const named = [
        ...[...text.matchAll(/\bnpm run ([\w:-]+)/g)].map((m) => m[1]),
        ...[...text.matchAll(/\bnpm (start|test)\b/g)].map((m) => m[1]),
      ];
      for (const script of named) expect(scripts, `${path} names "npm run ${script}"`).toContain(script);
    }
  });

  it('document every setting src/config.ts composes, in docs/configuration.md and .env.example, and no other', () => {
    const settings = configSettings();
    expect(settings.length).toBeGreaterThanOrEqual(20);
    expect(settings).toContain('SLACK_BOT_TOKEN');

    const reference = [...read('docs/configuration.md').matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map(
      (m) => m[1],
    );
    expect([...new Set(reference)].sort(), 'the tables of docs/configuration.md').toEqual(settings);

    const example = [...read('.env.example').matchAll(/^#? ?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]);
    expect([...new Set(example)].sort(), 'the settings of .env.example').toEqual(settings);
    expect(example.length, 'each setting once in .env.example').toBe(settings.length);
  });

  it('leave every commented-out line of .env.example at its default, so uncommenting it changes nothing', () => {
    const lines = read('.env.example')
      .split('\n')
      .map((line) => /^# ?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line))
      .filter((m) => m !== null);
    expect(lines.length).toBeGreaterThan(0);
    const env = Object.fromEntries(lines.map(([, name = '', value = '']) => [name, value]));
    const slack = { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 'secret' };
    expect(config.loadWaybillConfig(env)).toEqual(config.loadWaybillConfig({}));
    expect(config.loadSlackConfig({ ...env, ...slack })).toEqual(config.loadSlackConfig(slack));
    expect(config.loadBotConfig(env)).toEqual(config.loadBotConfig({}));
  });

  it('name only environment variables the code reads, and the code reads none they leave out', () => {
    const readByCode = variablesReadByCode();
    const documented = new Set<string>();
    for (const path of [...docs, '.env.example']) {
      for (const word of settingWords(read(path))) {
        expect([...readByCode], `${path} names ${word}`).toContain(word);
        documented.add(word);
      }
    }
    documented.add('PORT'); // no underscore: found by the configuration check above
    for (const name of readByCode)
      expect([...documented], `${name} is read but not documented`).toContain(name);
  });

  // Their length is kept by review (CONTRIBUTING about 12 KB), not by a test that fails a newcomer's entry.
  it("keep CONTRIBUTING.md's map naming every folder under src/ and only folders that exist", () => {
    const contributing = read('CONTRIBUTING.md');
    const section = contributing.split(/^## Layout$/m)[1]?.split(/^## /m)[0] ?? '';
    const tree = /```\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    const named: string[] = [];
    const parents: string[] = [];
    for (const line of tree.split('\n')) {
      const match = /^( *)(\S+\/)(?: |$)/.exec(line);
      if (!match) continue;
      const [, indent = '', name = ''] = match;
      expect(indent.length % 2, `indentation of "${line}"`).toBe(0);
      parents.length = indent.length / 2;
      named.push(parents.join('') + name);
      parents.push(name);
    }
    for (const path of named) expect(existsSync(join(root, path)), `${path} is named`).toBe(true);
    const folders = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
      .map((path) => `src/${path.split('\\').join('/')}`)
      .filter((path) => statSync(join(root, path)).isDirectory())
      .map((path) => `${path}/`);
    expect(named.filter((path) => path.startsWith('src/') && path !== 'src/').sort()).toEqual(folders.sort());
  });

  it('open every test file with a doc comment saying what it covers', () => {
    for (const path of filesUnder('test').filter((p) => p.endsWith('.test.ts'))) {
      const comment = /^\/\*\*([\s\S]*?)\*\//.exec(read(path))?.[1] ?? '';
      expect(
        comment
          .replace(/[\s*]+/g, ' ')
          .trim()
          .split(' ').length,
        `${path} opens with a doc comment`,
      ).toBeGreaterThan(3);
    }
  });

  it('describe every key the bot sends to the courier in docs/courier-interface.md', () => {
    const reference = read('docs/courier-interface.md');
    const booking = sampleBooking();
    const bodies = [booking, sampleUpdate(), sampleQuotation(), ...booking.childWaybills];
    expect(booking.childWaybills.length).toBeGreaterThan(0);
    for (const key of new Set(bodies.flatMap((body) => Object.keys(body)))) {
      // The receiver and return party repeat the sender's fields; numbered fields are given as ranges.
      const described = key.replace(/^(consignee|return)(?=[A-Z])/, 'shipper').replace(/[2-5]$/, '1');
      expect(reference, `${key} (as ${described})`).toContain(`\`${described}\``);
    }
  });

  it('link only to files that exist', () => {
    for (const path of docs) {
      for (const [, target = ''] of read(path).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(https?:|mailto:|#)/.test(target)) continue;
        const file = join(root, dirname(path), target.split('#')[0] ?? '');
        expect(existsSync(file), `${path} links to ${target}`).toBe(true);
      }
    }
  });

  it('give every alert of docs/deployment.md a severity, one when a replica is down and one when it is not ready, on jobs the scrape has', () => {
    const blocks = [...read('docs/deployment.md').matchAll(/```yaml\n(# [^\n]*)\n([\s\S]*?)```/g)];
    const block = (title: string) => parse(blocks.find(([, heading]) => heading === title)?.[2] ?? '');
    const scrape = block('# prometheus.yml') as {
      scrape_configs: { job_name: string; relabel_configs?: { replacement?: string }[] }[];
    };
    const rules = (
      block('# waybill-alerts.yml (rule_files in prometheus.yml)') as {
        groups: { rules: { alert: string; expr: string; labels?: { severity?: string } }[] }[];
      }
    ).groups.flatMap((group) => group.rules);
    for (const rule of rules) expect(['critical', 'warning'], rule.alert).toContain(rule.labels?.severity);
    const jobs = scrape.scrape_configs.map((job) => job.job_name);
    for (const rule of rules)
      for (const [, job] of rule.expr.matchAll(/job="([^"]+)"/g)) expect(jobs, rule.alert).toContain(job);
    expect(rules.map((rule) => rule.expr)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/\bup\{job="waybill-bot"\} == 0/),
        expect.stringMatching(/\bprobe_success\{job="waybill-readyz"\} == 0/),
      ]),
    );
    const readyz = scrape.scrape_configs.find((job) => job.job_name === 'waybill-readyz');
    expect(readyz?.relabel_configs?.map((relabel) => relabel.replacement)).toContain('http://$1/readyz');
  });

  it("show the ready line the bot logs, and the two commands that set it up and run it on the README's first screen", () => {
    const readme = read('README.md');
    const firstScreen = readme.split('\n').slice(0, 25).join('\n');
    for (const command of ['npm ci', 'npm start', 'npm test'])
      expect(firstScreen, command).toContain(command);
    const ready = /"msg":"([^"]+)"/.exec(readme)?.[1];
    expect(ready, 'a ready line in README.md').toBeDefined();
    // Socket Mode, the manifest's default.
    expect(ready, 'the README ready line is the one the bot logs').toBe(readyMessage(undefined));
  });
});
