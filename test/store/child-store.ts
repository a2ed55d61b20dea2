// A store in a process of its own, for tests that need several processes or one killed mid-call.
import { createInterface } from 'node:readline';
import { connectPostgres, connectSqlite } from '../../src/store/backend.js';
import { openStore } from '../../src/store/index.js';
import { migrate } from '../../src/store/migrations.js';
import type { ChildArgs } from './child.js';

const [mode, json] = process.argv.slice(2) as [ChildArgs['mode'], string];
const args = JSON.parse(json) as ChildArgs;
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const say = (line: string) => process.stdout.write(`${line}\n`);

if (mode === 'migrate') {
  // Connected first, then all children are told to go at once: their migrations really overlap.
  const backend =
    'url' in args.target
      ? connectPostgres(args.target.url, {
          poolSize: 2,
          connectTimeoutMs: 5000,
          poolWaitMs: 10_000,
          statementTimeoutMs: 10_000,
        })
      : connectSqlite(args.target.path, 10_000);
  await backend.db.selectNoFrom((eb) => eb.lit(1).as('one')).execute();
  say('ready');
  await lines.next();
  say(JSON.stringify(await migrate(backend, Date.now())));
  await backend.close();
  process.exit(0);
} else {
  const store = await openStore({
    ...args.target,
    replicaId: args.replicaId,
    leaseTtlMs: args.leaseTtlMs,
    leaseRenewMs: 0,
  });
  await store.attempts.begin(args.key ?? 'key', 'book', args.about);
  say('ready');
  // Mid-call until killed.
  await lines.next();
}
