/**
 * Vitest's global setup: with TEST_DATABASE_URL, one PostgreSQL database migrated once for the run, that
 * the store tests' databases are copied from (CREATE DATABASE … TEMPLATE) rather than each migrated anew:
 * a copy takes about a quarter of the time of creating and migrating. Tests of migrating itself
 * (emptyDatabase, replicas, store:copy) still start from empty databases. The copies are named after
 * the template (test/store/backends.ts). Every database the run makes starts with the run's own prefix
 * (WAYBILL_TEST_DATABASES, which its workers inherit), so the end of the run drops each one a test left,
 * whatever failed, and no other run's.
 */
import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { dropDatabasesNamed, throwawayDatabases } from '../../fakes/throwaway-databases.js';
import { openStore } from '../../src/store/index.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated database to copy, or '' without TEST_DATABASE_URL. */
    migratedTemplate: string;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  project.provide('migratedTemplate', '');
  if (!adminUrl) return undefined;
  const run = `waybill_run_${randomBytes(4).toString('hex')}`;
  process.env.WAYBILL_TEST_DATABASES = run;
  const databases = throwawayDatabases(() => adminUrl, { prefix: `${run}_template` });
  let template = '';
  // The template and its copies, named after it, in one round of drops.
  const dropTemplate = async () => {
    if (template) await dropDatabasesNamed(adminUrl, template);
  };
  const make = async () => {
    await dropTemplate();
    const url = await databases.create();
    template = new URL(url).pathname.slice(1);
    // Closed before any copy: PostgreSQL copies no database that has a session open.
    await (await openStore({ url, leaseRenewMs: 0 })).close();
    project.provide('migratedTemplate', template);
  };
  await make();
  // In watch mode the migrations may have changed since.
  project.onTestsRerun(make);
  return () => dropDatabasesNamed(adminUrl, run);
}
