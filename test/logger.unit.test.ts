/** Secret redaction, by value and by credential shape. */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, REDACTED, secretScrubber } from '../src/logger.js';

const BOT_TOKEN = 'xoxb-1111-2222-abcdefSECRETbot';
const APP_TOKEN = 'xapp-1-A0000-3333-SECRETappTOKEN';
const SIGNING_SECRET = '8f742231b10e8888abcd99yyyzzz85a5';
const UPSTREAM_TOKEN = 'upstream-bearer-Zq9!"quoted\\slash';
const SECRETS = [BOT_TOKEN, APP_TOKEN, SIGNING_SECRET, UPSTREAM_TOKEN];

function capture() {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      chunks.push(chunk.toString('utf8'));
      cb();
    },
  });
  return {
    stream,
    text: () => chunks.join(''),
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

function expectNoSecrets(text: string) {
  for (const s of SECRETS) {
    expect(text).not.toContain(s);
    expect(text).not.toContain(JSON.stringify(s).slice(1, -1));
  }
}

describe('createLogger', () => {
  it('defaults to level info', () => {
    const out = capture();
    const log = createLogger({ destination: out.stream });
    expect(log.level).toBe('info');
    log.debug('hidden');
    log.info('shown');
    expect(out.lines().map((l) => l.msg)).toEqual(['shown']);
  });

  it('honours an explicit level', () => {
    const out = capture();
    const log = createLogger({ level: 'debug', destination: out.stream });
    log.debug('shown');
    expect(out.lines()).toHaveLength(1);
  });

  it('redacts authorization and token fields by path', () => {
    const out = capture();
    const log = createLogger({ destination: out.stream });
    log.info(
      {
        authorization: 'Bearer abc',
        token: 'plain-token-value',
        headers: { authorization: 'Bearer def', 'content-type': 'application/json' },
        req: { headers: { authorization: 'Bearer ghi' } },
        slack: { token: 'nested-token-value', authorization: 'Bearer jkl' },
      },
      'paths',
    );
    const text = out.text();
    for (const v of [
      'Bearer abc',
      'plain-token-value',
      'Bearer def',
      'Bearer ghi',
      'nested-token-value',
      'Bearer jkl',
    ]) {
      expect(text).not.toContain(v);
    }
    const [line] = out.lines();
    expect(line?.authorization).toBe(REDACTED);
    expect(line?.token).toBe(REDACTED);
    expect(line?.headers).toEqual({ authorization: REDACTED, 'content-type': 'application/json' });
    expect(line?.slack).toEqual({ token: REDACTED, authorization: REDACTED });
  });

  it('never writes the given secrets: messages, objects, headers, nested error messages and stacks', () => {
    const out = capture();
    const log = createLogger({ level: 'trace', destination: out.stream, secrets: SECRETS });
    log.info(`starting with bot token ${BOT_TOKEN} and app token ${APP_TOKEN}`);
    log.warn({ config: { signingSecret: SIGNING_SECRET, list: [UPSTREAM_TOKEN] } }, 'config');
    log.info(
      { upstream: { headers: { Authorization: `Bearer ${UPSTREAM_TOKEN}`, 'X-Other': UPSTREAM_TOKEN } } },
      'hdrs',
    );
    const inner = new Error(`socket hang up while sending Bearer ${UPSTREAM_TOKEN}`);
    const outer = new Error(`request failed: ${inner.message}`, { cause: inner });
    log.error({ err: outer }, 'call failed');
    log.error(new Error(`signature mismatch, secret=${SIGNING_SECRET}`));
    log.info('format %s and %o', BOT_TOKEN, { t: APP_TOKEN });
    log.child({ bot: BOT_TOKEN }).info('child binding');
    const text = out.text();
    expectNoSecrets(text);
    expect(text).toContain(REDACTED);
    const lines = out.lines(); // still valid JSON after scrubbing
    expect(lines).toHaveLength(7);
    expect(String(lines[0]?.msg)).toBe(`starting with bot token ${REDACTED} and app token ${REDACTED}`);
    expect(String((lines[3]?.err as { message?: unknown })?.message)).toContain(
      `request failed: socket hang up while sending Bearer ${REDACTED}`,
    );
  });

  it('writes no credential of any known shape, configured or not, and stays valid JSON', () => {
    const out = capture();
    const log = createLogger({ destination: out.stream });
    const shapes = [
      'Authorization: Bearer eyJhbGciOi.J9-x_y~z+/=',
      'bearer up-sim-token-77',
      'xoxb-1111-2222-OTHERbot',
      'xoxp-3-4-OTHERuser',
      'xoxe.xoxp-1-OTHERrotating',
      'xapp-1-A000-5-OTHERapp',
    ];
    log.info({ echoed: shapes.join('; ') }, `courier said "${shapes.join('" "')}"`);
    const [line] = out.lines();
    for (const part of ['eyJhbGciOi', 'up-sim', 'OTHER']) expect(out.text()).not.toContain(part);
    expect(line?.echoed).toBe(
      `Authorization: Bearer ${REDACTED}; bearer ${REDACTED}; ${REDACTED}; ${REDACTED}; ${REDACTED}; ${REDACTED}`,
    );
  });

  it('ignores empty secrets', () => {
    const out = capture();
    const log = createLogger({ destination: out.stream, secrets: ['', BOT_TOKEN] });
    log.info('hello world');
    expect(out.lines()[0]?.msg).toBe('hello world');
  });
});

describe('secretScrubber', () => {
  it('replaces the longest secret first when one contains another', () => {
    const scrub = secretScrubber(['abc', 'xxabcxx']);
    expect(scrub('1 xxabcxx 2 abc')).toBe(`1 ${REDACTED} 2 ${REDACTED}`);
  });

  it('treats regex metacharacters literally', () => {
    const scrub = secretScrubber(['a.b*c']);
    expect(scrub('aXbbc a.b*c')).toBe(`aXbbc ${REDACTED}`);
  });
});
