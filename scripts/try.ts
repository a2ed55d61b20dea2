/**
 * `npm run try`: the bot without a Slack workspace. It starts the fake Slack of the tests and the bot
 * (src/ through tsx, the sandbox courier, an in-memory store) on free ports, then prints the command that
 * sends it a signed `/quote`, as Slack would: `npm run try -- quote [text]`, in another terminal. When the
 * bot opens the form, this prints it, fills in the rest as a dispatcher would and submits it, then prints
 * the price the bot shows. Ctrl-C stops both.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { postToApp } from '../fakes/post-to-app.js';
import { quoteCommandText, quoteTyped } from '../fakes/quote-values.js';
import { type FakeCall, type FakeSlack, startFakeSlack } from '../fakes/slack-fake.js';
import { interactiveBody, slashCommandBody, viewSubmissionPayload } from '../fakes/slack-requests.js';
import { stateFor } from '../fakes/view-state.js';

/** Not a secret: the fake app's, known to both halves of the try. */
const SIGNING_SECRET = 'try-it-signing-secret';
/** Where `npm run try` leaves the addresses for `npm run try -- quote`: one per user. */
const addressFile = join(tmpdir(), `waybill-try-${process.getuid?.() ?? 'user'}.json`);

interface Addresses {
  /** The bot's Request URL. */
  events: string;
  /** The fake Slack's origin, for the command's response_url. */
  slack: string;
}

// biome-ignore lint/suspicious/noExplicitAny: Block Kit JSON as Slack holds it
type Block = any;

/** What an input shows: its initial value, option or date, or nothing. */
function shown(element: Block): string {
  return (
    element.initial_value ??
    element.initial_option?.text?.text ??
    element.initial_date ??
    element.initial_time ??
    ''
  );
}

/** A modal's text as a person reads it: its title, sections and inputs (label: value). */
function readView(view: { title?: { text?: string }; blocks: Block[] }): string[] {
  const lines = [`  ┌ ${view.title?.text ?? ''}`];
  for (const block of view.blocks) {
    if (block.type === 'header') lines.push(`  ├ ${block.text.text}`);
    else if (block.type === 'input') lines.push(`  │ ${block.label.text}: ${shown(block.element)}`);
    else if (block.type === 'section' && block.text)
      lines.push(`  │ ${block.text.text.replaceAll('\n', '\n  │ ')}`);
    else if (block.type === 'context')
      lines.push(`  │ ${block.elements.map((e: Block) => e.text).join(' ')}`);
  }
  return lines;
}

const say = (lines: string[]) => process.stdout.write(`${lines.join('\n')}\n`);

/** One form opened by the bot: shown, filled in with the sample values, submitted, its price shown. */
async function quoteThrough(fake: FakeSlack, events: string, opened: FakeCall): Promise<void> {
  const answer = opened.response?.body as { view: { id: string; hash: string } };
  const view = {
    ...(opened.body.view as { callback_id: string; private_metadata: string; blocks: Block[] }),
  };
  say(['', 'The bot opened this form (views.open):', ...readView(view)]);
  const typed = Object.entries(quoteTyped).map(([path, value]) => `${path}=${value}`);
  say(['', `A dispatcher fills in the rest (${typed.join(', ')}) and submits it.`]);
  const payload = viewSubmissionPayload({
    callbackId: view.callback_id,
    privateMetadata: view.private_metadata,
    viewId: answer.view.id,
    hash: answer.view.hash,
    blocks: view.blocks,
    stateValues: stateFor(view.blocks, quoteTyped),
    user: 'UDISPATCH',
  });
  const submitted = await postToApp(events, SIGNING_SECRET, interactiveBody(payload));
  if (submitted.body?.response_action === 'errors') {
    say(['The form was refused:', ...Object.values(submitted.body.errors as Record<string, string>)]);
    return;
  }
  const priced = await fake.waitFor(
    'views.update',
    (call) => call.body.view_id === answer.view.id && JSON.stringify(call.body.view).includes('Total'),
    { timeoutMs: 30_000 },
  );
  say(['', 'The bot showed the price (views.update):', ...readView(priced.body.view as { blocks: Block[] })]);
  say(['', 'Send another with `npm run try -- quote`; Ctrl-C here stops the bot.']);
}

/** The fake Slack, the bot against it, and the forms it opens answered, until Ctrl-C. */
async function serve(): Promise<void> {
  const fake = await startFakeSlack();
  // An empty working directory, so a developer's .env (perhaps a real workspace's tokens) is not read.
  const cwd = mkdtempSync(join(tmpdir(), 'waybill-try-'));
  const bot: ChildProcess = spawn(
    process.execPath,
    ['--import', import.meta.resolve('tsx'), fileURLToPath(new URL('../src/app.ts', import.meta.url))],
    {
      cwd,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        SLACK_BOT_TOKEN: 'xoxb-try-it-out',
        SLACK_SIGNING_SECRET: SIGNING_SECRET,
        SLACK_API_URL: fake.apiUrl,
        PORT: '0',
        DATABASE_PATH: ':memory:',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const stop = () => bot.kill('SIGTERM');
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  bot.on('exit', async (code) => {
    rmSync(addressFile, { force: true });
    rmSync(cwd, { recursive: true, force: true });
    await fake.close();
    process.exit(code ?? 0);
  });

  const ready = await new Promise<{ port: number }>((resolve) =>
    createInterface({ input: bot.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      // The bot's log is JSON: its warnings and errors are shown, its ready line awaited.
      const entry = line.startsWith('{') ? (JSON.parse(line) as { level: number; msg: string }) : undefined;
      if (!entry || entry.level >= 40) process.stderr.write(`bot: ${entry?.msg ?? line}\n`);
      if (entry?.msg.startsWith('Waybill bot ready')) resolve(entry as unknown as { port: number });
    }),
  );
  const events = `http://127.0.0.1:${ready.port}/slack/events`;
  writeFileSync(addressFile, JSON.stringify({ events, slack: fake.origin } satisfies Addresses));
  say([
    `The bot is running against a fake Slack (${fake.origin}) and the sandbox courier, at ${events}.`,
    'In another terminal, send it /quote as Slack would (a signed request):',
    '',
    '  npm run try -- quote',
    '',
    `(with your own text: npm run try -- quote '${quoteCommandText}')`,
  ]);
  const answered = new Set<FakeCall>();
  for (;;) {
    const opened = await fake.waitFor('views.open', (call) => !answered.has(call), {
      timeoutMs: 2 ** 31 - 1,
    });
    answered.add(opened);
    await quoteThrough(fake, events, opened).catch((err: unknown) => say([`Not quoted: ${String(err)}`]));
  }
}

/** `npm run try -- quote [text]`: the signed slash command, sent to the bot `npm run try` started. */
async function sendQuote(text: string): Promise<void> {
  let addresses: Addresses;
  try {
    addresses = JSON.parse(readFileSync(addressFile, 'utf8')) as Addresses;
  } catch {
    process.stderr.write('No bot to send to: start one with `npm run try` first, in another terminal.\n');
    process.exit(1);
  }
  const body = slashCommandBody({
    command: '/quote',
    text,
    user_id: 'UDISPATCH',
    channel_id: 'CDISPATCH',
    response_url: `${addresses.slack}/response/try`,
  });
  const answer = await postToApp(addresses.events, SIGNING_SECRET, body);
  say([`/quote ${text} → HTTP ${answer.status}: see the other terminal for the form and the price.`]);
  if (answer.status !== 200) process.exit(1);
}

const [mode, ...words] = process.argv.slice(2);
if (mode === 'quote') await sendQuote(words.join(' ') || quoteCommandText);
else await serve();
