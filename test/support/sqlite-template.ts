/**
 * Vitest's global setup: one SQLite file migrated once for the run, that each in-process bot's store is
 * copied from (test/support/bot-harness.ts) rather than each migrated anew: creating the schema was two
 * thirds of the CPU of starting a bot.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openStore } from '../../src/store/index.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated SQLite file to copy. */
    migratedSqlite: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), 'waybill-migrated-'));
  let made = 0;
  const make = async () => {
    // A new file each time: in watch mode the migrations may have changed since.
    made += 1;
    const path = join(dir, `bot-${made}.sqlite`);
    await (await openStore({ path, leaseRenewMs: 0 })).close();
    project.provide('migratedSqlite', path);
  };
  await make();
  project.onTestsRerun(make);
  return () => rmSync(dir, { recursive: true, force: true });
}
