/**
 * The Slack side's layout holds: a feature reaches another only through its index.ts; the guards,
 * the kit and the runtime reach no feature; neither the kit nor the runtime reaches a guard; the
 * core knows only the runtime; in every feature only register takes the whole core, and a working
 * function only the tables of the store it uses (but for a listed few); listeners are
 * registered by `register` functions only, with no wrapper; each feature declares its own ids, none
 * twice, and its own /waybill verbs.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const slackDir = fileURLToPath(new URL('../../src/slack/', import.meta.url));
const folders = readdirSync(slackDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
/** What every feature builds on, each in its own folder. */
const common = ['guards', 'kit', 'runtime'];
const features = folders.filter((name) => !common.includes(name));

interface Import {
  file: string;
  /** The imported file, as a path under src/slack/ (`..` for what lies outside it). */
  target: string;
}

/** Every relative import of a file, or of every file in a folder, under src/slack/. */
function importsOf(place: string): Import[] {
  const path = join(slackDir, place);
  const files = place.endsWith('.ts')
    ? [path]
    : readdirSync(path, { recursive: true, encoding: 'utf8' })
        .filter((name) => name.endsWith('.ts'))
        .map((name) => join(path, name));
  return files.flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    return [...text.matchAll(/\bimport\s[^;]*?\bfrom\s+'(\.{1,2}\/[^']+)'/g)].map((match) => ({
      file: relative(slackDir, file),
      target: relative(slackDir, resolve(dirname(file), match[1] ?? '')),
    }));
  });
}

/** Lines of a folder's files under src/slack/ that `test` holds for. */
function linesOf(folder: string, test: (line: string) => boolean): string[] {
  const path = join(slackDir, folder);
  return readdirSync(path, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .flatMap((name) =>
      readFileSync(join(path, name), 'utf8')
        .split('\n')
        .filter(test)
        .map((line) => `${folder}/${name}: ${line.trim()}`),
    );
}

const featureOf = (target: string) => features.find((feature) => target.startsWith(`${feature}/`));
const into = (folder: string) => (imported: Import) => imported.target.startsWith(`${folder}/`);

describe('src/slack layout', () => {
  it('has the feature folders, the guards, the kit and the runtime', () => {
    expect(folders).toEqual(expect.arrayContaining(['quote', 'book', 'update', ...common]));
  });

  it.each(features)("%s imports another feature only through that feature's index.ts", (feature) => {
    const reaching = importsOf(feature).filter(({ target }) => {
      const other = featureOf(target);
      return other !== undefined && other !== feature && target !== `${other}/index.js`;
    });
    expect(reaching).toEqual([]);
  });

  it.each(common)('%s imports no feature, nor the app that registers them', (folder) => {
    const imports = importsOf(folder);
    expect(imports.length).toBeGreaterThan(0);
    expect(
      imports.filter(
        ({ target }) =>
          featureOf(target) !== undefined || target === 'bot.js' || target === 'waybill-command.js',
      ),
    ).toEqual([]);
  });

  it('the runtime imports no guard and nothing of the kit (the kit builds on it)', () => {
    const imports = importsOf('runtime');
    expect(imports.filter(into('guards'))).toEqual([]);
    expect(imports.filter(into('kit'))).toEqual([]);
  });

  it('the kit imports no guard (the guard a listener is registered with is typed in kit/listener.ts)', () => {
    expect(importsOf('kit').filter(into('guards'))).toEqual([]);
  });

  it.each(features)('%s declares itself in its index.ts, and src/slack/features.ts lists it', (feature) => {
    const index = join(slackDir, feature, 'index.ts');
    const declares = existsSync(index) ? readFileSync(index, 'utf8') : '';
    expect(
      declares,
      `declare \`export const feature: Feature = { name: '${feature}', … }\` in src/slack/${feature}/index.ts (CONTRIBUTING: A new feature)`,
    ).toMatch(new RegExp(`export const feature: Feature = \\{\\s*name: '${feature}',`));
    expect(
      readFileSync(join(slackDir, 'features.ts'), 'utf8'),
      `add \`import { feature as ${feature} } from './${feature}/index.js'\` to src/slack/features.ts and ${feature} to its list`,
    ).toMatch(
      new RegExp(
        `import \\{ feature as ${feature} \\} from './${feature}/index\\.js';[\\s\\S]*\\n  ${feature},\\n`,
      ),
    );
  });

  it.each(features)('in %s only register takes the whole core, and it returns its jobs', (feature) => {
    const whole = (line: string) => /:\s*Core\b(?!\[)/.test(line);
    const registers = (line: string) => /\bfunction register\(/.test(line);
    // As CONTRIBUTING says: a feature with listeners or jobs has a register, which takes the whole core;
    // one with neither (the booking card, attention's lists) has none.
    const listens = (line: string) =>
      /\bapp\.(?:action|view|command|shortcut|options|event|function|message)\b|\bFeatureJobs\b/.test(line);
    const hasRegister = linesOf(feature, (line) => whole(line) && registers(line)).length > 0;
    expect(
      hasRegister,
      hasRegister
        ? `${feature} has a register but no listener or job: remove it from its feature declaration`
        : `${feature} has listeners or jobs: give its index.ts a register(app, core) and name it in its feature declaration`,
    ).toBe(linesOf(feature, listens).length > 0);
    expect(linesOf(feature, (line) => whole(line) && !registers(line))).toEqual([]);
    expect(
      linesOf(feature, (line) => /\bjobs\.add\(/.test(line)),
      'return the job from register (`{ name: clockJob(…) }`): bot.ts adds it',
    ).toEqual([]);
  });

  it('a working function takes the tables it uses (`{ store: Pick<Store, …> }`), not the whole store, or is listed here with why', () => {
    const wholeStore = /Pick<\s*Core,[^>]*'store'|\bstore: Store\b/;
    // Each hands its core on to an operation that takes the whole store (a transaction, callOnce), or to one of these.
    const left = {
      'book/draft.ts': 'the booking pipeline (operations/book.ts, callOnce)',
      'book/modal-action.ts': "draws the next step with the booking's deps (book/draft.ts)",
      'bulk/check.ts': "a file's rows, booked through the pipeline",
      'home/send.ts': "lists open booking drafts with the booking's deps (book/draft.ts)",
      'steps/book.ts': "the workflow step's booking, through the pipeline",
      'steps/status.ts': "the workflow step's status, recorded in a transaction",
      'status/send.ts': 'a status recorded in a transaction (operations/status.ts)',
      'update/draft.ts': 'an update, sent through callOnce',
    };
    const files = readdirSync(slackDir, { recursive: true, encoding: 'utf8' }).filter(
      (name) => name.endsWith('.ts') && name !== 'core.ts',
    );
    const whole = files.filter((name) => wholeStore.test(readFileSync(join(slackDir, name), 'utf8')));
    expect(
      whole.filter((name) => !(name in left)),
      "take `{ store: Pick<Store, …the tables it uses> }` rather than `Pick<Core, 'store'>` (CONTRIBUTING: Narrow dependencies)",
    ).toEqual([]);
    // Each listed file still takes the whole store: none listed for nothing.
    expect(Object.keys(left).filter((name) => !whole.includes(name))).toEqual([]);
  });

  it('every file that reads stored bookings asks the access rule, or is listed here with why it need not', () => {
    const reads =
      /store\.(?:bookings\.(?:get|find|listBooked|listByPickup)|recognition\.bookingsIn)\(|storedBooking\(/;
    const asks =
      /refusalOnBooking|scopeOf|\.sight\(|personOf|access\.scope|teamScope|unseenText|labelBooking\(/;
    const need = {
      'booking/stored-booking.ts': 'the reader itself: its callers ask',
      'book/next-step.ts': 'a typed tracking number already taken: says so, shows nothing of that booking',
      'bulk/check.ts': "a file's tracking number already taken: the same",
      'update/draft.ts': 'an update form, made once its command or button asked',
      'update/steps.ts': 'the same form, step by step',
      'update/submit.ts': 'the same form, submitted',
      'update/send.ts': 'the same, sent',
      'update/retry.ts': 'the same, sent again',
      'digest/data.ts': "the digest's counts; its file asks (digest/send.ts)",
      'report/data.ts': "the weekly report's counts by place and sender: no booking's receiver",
      'sms/send.ts': "an SMS line in the booking card's own thread: shown only where the card is",
    };
    const files = readdirSync(slackDir, { recursive: true, encoding: 'utf8' }).filter((name) =>
      name.endsWith('.ts'),
    );
    const unasked = files.filter((name) => {
      const text = readFileSync(join(slackDir, name), 'utf8');
      return reads.test(text) && !asks.test(text);
    });
    expect(
      unasked.filter((name) => !(name in need)),
      'a new surface reading bookings asks operations/access.ts (docs/security-and-failures.md#who-sees-a-booking) and adds its row to test/slack/visibility.e2e.test.ts',
    ).toEqual([]);
    // Each listed file still reads bookings without asking: none listed for nothing.
    expect(Object.keys(need).filter((name) => !unasked.includes(name))).toEqual([]);
  });

  it("takes Bolt's values from runtime/bolt.ts alone, whose modules leave out the Express receiver (types may come from '@slack/bolt')", () => {
    const valueImports = readdirSync(slackDir, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.ts') && name !== join('runtime', 'bolt.ts'))
      .filter((name) =>
        /^import\s+(?!type\b)[^;]*?from '@slack\/bolt'/ms.test(readFileSync(join(slackDir, name), 'utf8')),
      );
    expect(
      valueImports,
      'import the value from runtime/bolt.ts (add it there), or write `import type`',
    ).toEqual([]);
  });

  it("the kit's command reading names no feature's /waybill verb: each feature declares its own", () => {
    const declared = linesOf('.', (line) => /^\s*verb: '\w+',$/.test(line)).map(
      (line) => /verb: '(\w+)'/.exec(line)?.[1] as string,
    );
    expect(declared.length).toBeGreaterThan(15);
    const kit = readFileSync(join(slackDir, 'kit', 'command-request.ts'), 'utf8');
    // `help` is every command's word (`/quote help`, `/book help`), not one feature's.
    expect(declared.filter((verb) => verb !== 'help' && kit.includes(`'${verb}'`))).toEqual([]);
  });

  it("registers listeners in Bolt's own shape: no function but a register (and the request-wide guards bot.ts installs) takes the App", () => {
    // Bolt's Receiver interface (`init`) takes the App too.
    const installers = ['init'];
    const takingApp = readdirSync(slackDir, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.ts') && name !== 'bot.ts')
      .flatMap((name) =>
        [
          ...readFileSync(join(slackDir, name), 'utf8').matchAll(
            /(\w+)\s*(?:<[^>()]*>)?\s*(?:=\s*(?:async\s*)?)?\(\s*app: App\b/g,
          ),
        ].map((match) => `${name} ${match[1]}`),
      );
    expect(takingApp.length).toBeGreaterThan(20);
    expect(
      takingApp.filter(
        (found) => !found.endsWith(' register') && !installers.includes(found.split(' ')[1] ?? ''),
      ),
    ).toEqual([]);
  });

  it('each feature declares its own ids in its ids.ts; no id (nor its name) is declared twice; the kit declares none', async () => {
    const declared = await Promise.all(
      features
        .filter((feature) => existsSync(join(slackDir, feature, 'ids.ts')))
        .map(async (feature) => ({
          feature,
          ids: ((await import(join(slackDir, feature, 'ids.ts'))) as { ids: Record<string, string> }).ids,
        })),
    );
    expect(declared.length).toBeGreaterThan(10);
    const byId = new Map<string, string[]>();
    for (const { feature, ids } of declared)
      for (const [name, id] of Object.entries(ids)) {
        for (const key of [`id ${id}`, `name ${name}`]) byId.set(key, [...(byId.get(key) ?? []), feature]);
      }
    expect(byId.size).toBeGreaterThan(80);
    expect([...byId].filter(([, owners]) => owners.length > 1)).toEqual([]);
    const kit = await import(join(slackDir, 'kit', 'ids.ts'));
    expect(kit).not.toHaveProperty('ids');
  });

  it('the core knows the runtime only: no feature, guard or kit', () => {
    const imports = importsOf('core.ts').filter(({ target }) => !target.startsWith('..'));
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter(({ target }) => !target.startsWith('runtime/'))).toEqual([]);
  });
});
