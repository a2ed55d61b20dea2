/** `npm run store:copy -- --from FILE --to URL`: a SQLite store copied into an empty PostgreSQL database (docs/deployment.md). */
import { parseArgs } from 'node:util';
import { copyStore } from './store/copy.js';

const usage =
  'usage: npm run store:copy -- --from ./data/waybill-bot.sqlite --to postgres://user@host:5432/waybill';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { from: { type: 'string' }, to: { type: 'string' } },
    strict: true,
  });
  const { from, to } = values;
  if (!from) throw new Error(`--from is missing: the SQLite file to copy (${usage})`);
  if (!to) throw new Error(`--to is missing: the PostgreSQL database to copy into (${usage})`);
  await copyStore({ from, to, say: (line) => process.stdout.write(`${line}\n`) });
}

main().catch((err: unknown) => {
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`store:copy: ${message.split('\n')[0]}\n`);
  process.exitCode = 1;
});
