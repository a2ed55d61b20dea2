/**
 * The `Dockerfile`'s runtime stage (production dependencies and `dist/` only, unprivileged user, health
 * check, `npm start`'s V8 options, no `VOLUME`), its base image a minor release, `.npmrc` copied before each
 * install, the lock file's packages with install scripts, and `compose.yaml`; that layout built in a
 * directory (`npm ci --omit=dev` on a `PATH` without build tools), started with the image's `CMD` as an
 * unprivileged user in Socket Mode, probed, its health check run, stopped by SIGTERM or SIGINT.
 */
// The container recipe: the Dockerfile's runtime stage and compose.yaml as written, and that runtime layout (a production install and dist/) started with the image's CMD, probed, and stopped by SIGTERM.
import { spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type FakeSlack, startFakeSlack } from '../fakes/slack-fake.js';
import { type SocketModeFake, startSocketModeFake } from '../fakes/socket-mode-fake.js';
import { emptyWorkingDirectory, killStarted, watchProcess } from './support/bot-process.js';
import { type ProjectCopy, projectCopy } from './support/project-copy.js';

interface Instruction {
  keyword: string;
  args: string;
}

/** The Dockerfile's instructions by stage (lines continued with `\` joined, comments left out). */
function dockerfileStages(): Instruction[][] {
  const text = readFileSync('Dockerfile', 'utf8').replace(/\\\n/g, ' ');
  const stages: Instruction[][] = [];
  for (const line of text.split('\n').map((l) => l.trim())) {
    if (line === '' || line.startsWith('#')) continue;
    const [keyword = '', ...rest] = line.split(/\s+/);
    const instruction = { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    if (instruction.keyword === 'FROM') stages.push([]);
    stages.at(-1)?.push(instruction);
  }
  return stages;
}

const runtime = dockerfileStages().at(-1) ?? [];
const argsOf = (keyword: string) => runtime.filter((i) => i.keyword === keyword).map((i) => i.args);
/** The image's entry command, as exec form JSON. */
const command = JSON.parse(argsOf('CMD')[0] ?? '[]') as string[];
const startScript = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } })
  .scripts.start;

describe('Dockerfile', () => {
  it('runs dist/app.js with the node options of npm start, through the script that execs node', () => {
    expect(command).toEqual(['sh', 'scripts/node.sh', 'dist/app.js']);
    expect(startScript).toBe('exec sh scripts/node.sh scripts/start.mjs app');
  });

  it('has a runtime stage of the production dependencies and dist/ only, as an unprivileged user, with a health check', () => {
    expect(runtime[0]?.args).toMatch(/NODE_IMAGE/);
    expect(argsOf('COPY')).toEqual([
      'package.json package-lock.json .npmrc ./',
      '--from=build /app/dist ./dist',
      'scripts/node.sh ./scripts/',
    ]);
    expect(argsOf('RUN')[0]).toMatch(/^npm ci --omit=dev /);
    expect(argsOf('USER')).toEqual(['node']);
    expect(argsOf('HEALTHCHECK')[0]).toMatch(/process\.env\.HEALTH_PORT\+'\/livez'/);
    expect(argsOf('ENV')).toContain('HEALTH_PORT=3001');
    expect(readFileSync('.dockerignore', 'utf8').split('\n')).toEqual(
      expect.arrayContaining(['.env', 'node_modules']),
    );
  });

  it('starts from a minor release of the Node major of .nvmrc (Renovate moves it), and declares no volume', () => {
    const major = readFileSync('.nvmrc', 'utf8').trim();
    const base = /^ARG NODE_IMAGE=(.*)$/m.exec(readFileSync('Dockerfile', 'utf8'))?.[1];
    expect(base).toMatch(new RegExp(`^node:${major}\\.\\d+-bookworm-slim$`));
    // A VOLUME would give every replica on PostgreSQL (compose.yaml) an anonymous volume it never uses.
    expect(
      dockerfileStages()
        .flat()
        .filter((i) => i.keyword === 'VOLUME'),
    ).toEqual([]);
  });

  it("installs in both stages with the project's .npmrc, so no install needs build tools", () => {
    for (const stage of dockerfileStages()) {
      const install = stage.findIndex((i) => i.keyword === 'RUN' && i.args.startsWith('npm ci'));
      const npmrc = stage.findIndex((i) => i.keyword === 'COPY' && i.args.split(' ').includes('.npmrc'));
      expect(npmrc).toBeGreaterThan(-1);
      expect(npmrc).toBeLessThan(install);
    }
    expect(readFileSync('.npmrc', 'utf8')).toMatch(/^ignore-scripts=true$/m);
    // The packages whose install scripts .npmrc skips, each known to work without (docs/deployment.md).
    const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
      packages: Record<string, { hasInstallScript?: boolean }>;
    };
    const withScripts = Object.entries(lock.packages).filter(([, entry]) => entry.hasInstallScript);
    expect(withScripts.map(([path]) => path)).toEqual([
      'node_modules/better-sqlite3',
      'node_modules/esbuild',
    ]);
  });
});

describe('compose.yaml', () => {
  it('runs two bot replicas in Socket Mode on one PostgreSQL, with time to stop gracefully', () => {
    const compose = parse(readFileSync('compose.yaml', 'utf8')) as {
      services: Record<string, Record<string, unknown>>;
    };
    const { bot, db } = compose.services;
    expect(db?.image).toMatch(/^postgres:/);
    expect(bot).toMatchObject({
      build: '.',
      deploy: { replicas: 2 },
      environment: { HEALTH_PORT: '3001', DATABASE_URL: expect.stringMatching(/^postgres:\/\/.*@db:5432\//) },
      depends_on: { db: { condition: 'service_healthy' } },
    });
    // The password beside the URL (pg reads PGPASSWORD), never put into it: any password works.
    expect(bot?.environment).toMatchObject({
      DATABASE_URL: 'postgres://waybill@db:5432/waybill',
      PGPASSWORD: expect.stringMatching(/^\$\{POSTGRES_PASSWORD\}$/),
    });
    // No port: Socket Mode needs none, and two replicas could not share one.
    expect(bot?.ports).toBeUndefined();
    // Nor a volume: the replicas keep everything in PostgreSQL.
    expect(bot?.volumes).toBeUndefined();
    // The stop lets courier calls finish: WAYBILL_TIMEOUT_MS (15 s) + 5 s, and 5 s to tell their dispatchers.
    expect(Number.parseInt(String(bot?.stop_grace_period), 10)).toBeGreaterThanOrEqual(25);
  });
});

describe("the image's runtime layout", () => {
  let layout: ProjectCopy;
  let fake: FakeSlack | undefined;
  let socket: SocketModeFake | undefined;

  beforeAll(async () => {
    layout = await projectCopy('production', { image: true });
  }, 120_000);
  afterAll(() => layout?.remove());
  afterEach(async () => {
    killStarted();
    await socket?.close();
    await fake?.close();
  });

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'starts with the CMD (as an unprivileged user), answers its probes and health check, and stops on %s',
    async (signal) => {
      expect(existsSync(`${layout.dir}/node_modules/typescript`)).toBe(false);
      expect(existsSync(`${layout.dir}/node_modules/pg`)).toBe(true);
      fake = await startFakeSlack();
      socket = await startSocketModeFake();
      fake.respond('apps.connections.open', { ok: true, url: socket.url });
      // The image's /data volume, here a directory the bot's user may write.
      const data = emptyWorkingDirectory();
      const asNobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
      if (asNobody.uid) chownSync(data, asNobody.uid, asNobody.gid);
      const [program = 'node', ...args] = command;
      const bot = watchProcess(
        spawn(program === 'node' ? process.execPath : program, args, {
          cwd: layout.dir,
          env: {
            PATH: process.env.PATH,
            NODE_ENV: 'production',
            DATABASE_PATH: `${data}/waybill-bot.sqlite`,
            HEALTH_PORT: '0',
            SLACK_BOT_TOKEN: 'xoxb-image-SECRET-1',
            SLACK_SIGNING_SECRET: 'image-signing-SECRET-2',
            SLACK_APP_TOKEN: 'xapp-image-SECRET-3',
            SLACK_API_URL: fake.apiUrl,
          },
          stdio: ['ignore', 'pipe', 'pipe'],
          ...asNobody,
        }),
      );
      const ready = JSON.parse(await bot.lineMatching((line) => line.includes('Waybill bot ready'))) as {
        healthPort: number;
      };
      const origin = `http://127.0.0.1:${ready.healthPort}`;
      expect((await fetch(`${origin}/livez`)).status).toBe(200);
      expect((await fetch(`${origin}/readyz`)).status).toBe(200);
      expect(await (await fetch(`${origin}/metrics`)).text()).toContain('waybill_attempts_in_flight 0');
      // The HEALTHCHECK's own command, as Docker runs it.
      const healthcheck = JSON.parse((argsOf('HEALTHCHECK')[0] ?? '').replace(/^.*?CMD\s+/, '')) as string[];
      const checked = spawnSync(process.execPath, healthcheck.slice(1), {
        env: { HEALTH_PORT: String(ready.healthPort) },
      });
      expect(checked.status).toBe(0);

      bot.proc.kill(signal);
      expect(await bot.exited).toBe(0);
      expect(bot.lines.some((line) => line.includes(`"signal":"${signal}"`))).toBe(true);
      expect(bot.lines.some((line) => line.includes('"msg":"stopped"'))).toBe(true);
      rmSync(data, { recursive: true, force: true });
    },
  );
});
