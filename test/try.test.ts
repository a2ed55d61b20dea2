/**
 * `npm run try` as a newcomer runs it: the command it prints sends a signed `/quote`, the form and the
 * sandbox's price appear, SIGTERM stops it; the command alone says to start the bot first.
 */
// `npm run try`: the bot against the fake Slack without a workspace; the command it prints sends a signed /quote, and the form and the sandbox's price appear.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { killStarted, watchProcess, within } from './support/bot-process.js';

let home: string | undefined;
afterEach(() => {
  killStarted();
  if (home) rmSync(home, { recursive: true, force: true });
});

/** npm in the checkout, with a temporary directory of its own (where the try leaves its addresses). */
function npm(args: string[]) {
  home ??= mkdtempSync(join(tmpdir(), 'waybill-try-test-'));
  return watchProcess(
    spawn('npm', args, {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: home },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
}

it('starts the bot on free ports, prints the command that sends /quote, then shows the form and the price', async () => {
  const trying = npm(['run', 'try']);
  // Generous: tsx compiles src/ on a busy machine.
  await trying.lineMatching((line) => line.includes('The bot is running against a fake Slack'), 90_000);
  const command = (await trying.lineMatching((line) => line.trim().startsWith('npm run'))).trim();
  expect(command).toBe('npm run try -- quote');

  const sent = npm(command.split(' ').slice(1));
  expect(await within(60_000, 'npm run try -- quote', sent.exited)).toBe(0);
  await trying.lineMatching((line) => line.includes('The bot opened this form'), 30_000);
  // Pre-filled from the command's text, as in Slack.
  expect(trying.lines).toContain('  │ Weight (kg): 2.5');
  expect(trying.lines).toContain('  │ City: Cebu City');
  // The sandbox courier's price for the sample parcel.
  await trying.lineMatching((line) => line.includes('*Total: PHP 302.40*'), 30_000);

  trying.proc.kill('SIGTERM');
  expect(await within(15_000, 'npm run try stopping', trying.exited)).toBe(0);
  expect(trying.stderr.filter((line) => line.startsWith('bot:'))).toEqual([]);
}, 240_000);

it('says to start the bot first when none is running', async () => {
  const sent = npm(['run', 'try', '--', 'quote']);
  expect(await within(60_000, 'npm run try -- quote', sent.exited)).toBe(1);
  expect(sent.stderr).toContain(
    'No bot to send to: start one with `npm run try` first, in another terminal.',
  );
});
