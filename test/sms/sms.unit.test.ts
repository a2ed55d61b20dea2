/** The SMS domain: encodings and parts, templates checked at start-up, mobile numbers, quiet hours. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBotConfig, secretsOf } from '../../src/config.js';
import type { ConfigError } from '../../src/settings-error.js';
import { smsSize } from '../../src/sms/encoding.js';
import { readMobile } from '../../src/sms/mobile.js';
import { DEFAULT_QUIET_HOURS, sendableFrom } from '../../src/sms/quiet-hours.js';
import { SMS_EVENTS, SmsTemplates, sampleValues } from '../../src/sms/templates.js';

describe('smsSize', () => {
  it('counts GSM-7 septets, the extension table twice, and parts of 153 past 160', () => {
    expect(smsSize('a'.repeat(160))).toEqual({ encoding: 'GSM-7', units: 160, parts: 1, singlePart: 160 });
    expect(smsSize('a'.repeat(161)).parts).toBe(2);
    expect(smsSize('€[]').units).toBe(6);
    expect(smsSize('a'.repeat(307)).parts).toBe(3);
  });

  it('is UCS-2 at one character outside GSM-7 (₱, curly quotes): 70 a part, 67 past it', () => {
    expect(smsSize('COD ₱1,500.00')).toMatchObject({
      encoding: 'UCS-2',
      units: 13,
      parts: 1,
      singlePart: 70,
    });
    expect(smsSize(`‘${'a'.repeat(70)}`).parts).toBe(2);
  });
});

function templatesFile(content: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'sms-templates-')), 'templates.json');
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

describe('SmsTemplates', () => {
  it('ships templates for every event in English and Filipino, each one GSM-7 part with sample values', () => {
    const templates = SmsTemplates.load(undefined);
    for (const language of ['en', 'fil'] as const)
      for (const event of SMS_EVENTS) {
        const size = smsSize(templates.render(language, event, sampleValues(language)));
        expect(size).toMatchObject({ encoding: 'GSM-7', parts: 1 });
      }
  });

  it('words a booking with and without COD, and a failed attempt by its number', () => {
    const templates = SmsTemplates.load(undefined);
    const values = { ...sampleValues('en'), merchant: 'Ana Shop', codAmount: '1,500.00' };
    expect(templates.render('en', 'booked', values)).toContain('COD PHP 1,500.00');
    expect(templates.render('en', 'booked', { ...values, cod: 'no' })).not.toContain('COD');
    expect(templates.render('fil', 'failed_attempt', { ...values, attempt: 1 })).toContain('unang subok');
    expect(templates.render('fil', 'failed_attempt', { ...values, attempt: 3 })).toContain('ika-3 na subok');
  });

  it("takes the operator's file over the shipped templates, template by template", () => {
    const file = templatesFile({ fil: { booked: 'Salamat! {trackingNumber}' } });
    const templates = SmsTemplates.load(file);
    expect(templates.render('fil', 'booked', sampleValues('fil'))).toBe('Salamat! WB000123');
    expect(templates.render('en', 'booked', sampleValues('en'))).toContain('is booked');
  });

  it('plural rules are the language’s own (Filipino’s "one" is 1, 2, 3, 5, …)', () => {
    const file = templatesFile({
      fil: { failed_attempt: '{attempt, plural, one {isa-ish #} other {iba #}}' },
      en: { failed_attempt: '{attempt, plural, one {one #} other {other #}}' },
    });
    const templates = SmsTemplates.load(file);
    const at = (language: 'en' | 'fil', attempt: number) =>
      templates.render(language, 'failed_attempt', { ...sampleValues(language), attempt });
    expect([at('en', 2), at('fil', 2), at('fil', 4)]).toEqual(['other 2', 'isa-ish 2', 'iba 4']);
  });

  it.each([
    [
      { en: { booked: 'Hi {name}' } },
      'SMS_TEMPLATES_FILE template en.booked uses {name}, not one of {merchant},',
    ],
    [{ en: { booked: 'Hi {merchant' } }, 'SMS_TEMPLATES_FILE template en.booked is not ICU MessageFormat'],
    [
      { en: { booked: `{merchant} ${'x'.repeat(150)}` } },
      'en.booked is 171 GSM-7 characters with sample values, over the 160',
    ],
    [
      { fil: { booked: `₱{codAmount} ${'x'.repeat(60)}` } },
      'fil.booked is 71 UCS-2 characters with sample values, over the 70',
    ],
    [{ en: { reason: 'x' } }, 'SMS_TEMPLATES_FILE template en.reason is not an event'],
    [{ de: {} }, 'SMS_TEMPLATES_FILE has "de", not a language'],
    [{ en: { booked: '{reason}' } }, 'en.booked uses {reason}'],
    ['{', 'could not be read as JSON'],
  ])('refuses %j in one line naming the setting and the template', (content, line) => {
    const load = () => SmsTemplates.load(templatesFile(content));
    expect(load).toThrow(line);
    try {
      load();
    } catch (err) {
      expect((err as Error).message).not.toContain('\n');
    }
  });
});

describe('readMobile', () => {
  it.each([
    ['0917 123 4567', { ok: true, number: '639171234567' }],
    ['+63 917 123 4567', { ok: true, number: '639171234567' }],
    ['(02) 8123 4567', { ok: false, problem: 'not a mobile number' }],
    ['+1 415 555 0100', { ok: false, problem: 'not a Philippine number' }],
    ['12', { ok: false, problem: 'not a phone number that can be dialled' }],
  ])('%s', (phone, reading) => {
    expect(readMobile(phone)).toEqual(reading);
  });
});

describe('sendableFrom', () => {
  it('holds an SMS due in quiet hours (Manila) until they end, the same night or the next morning', () => {
    // 22:30 and 06:00 Manila (UTC+8).
    expect(sendableFrom(new Date('2026-11-30T14:30:00Z'), DEFAULT_QUIET_HOURS)).toEqual(
      new Date('2026-12-01T00:00:00Z'),
    );
    expect(sendableFrom(new Date('2026-11-30T22:00:00Z'), DEFAULT_QUIET_HOURS)).toEqual(
      new Date('2026-12-01T00:00:00Z'),
    );
    const noon = new Date('2026-11-30T04:00:00Z');
    expect(sendableFrom(noon, DEFAULT_QUIET_HOURS)).toBe(noon);
    expect(sendableFrom(new Date('2026-11-30T14:30:00Z'), undefined)).toEqual(
      new Date('2026-11-30T14:30:00Z'),
    );
  });
});

describe('the SMS settings', () => {
  const problems = (env: Record<string, string>) => {
    try {
      loadBotConfig(env);
    } catch (err) {
      return (err as ConfigError).problems;
    }
    return [];
  };

  it('default to the log gateway, every event, English, 21:00-08:00 Manila', () => {
    const { sms } = loadBotConfig({});
    expect(sms).toMatchObject({
      gateway: { kind: 'log' },
      quietHours: { from: '21:00', to: '08:00' },
      events: ['booked', 'out_for_delivery', 'failed_attempt'],
      language: 'en',
      channelLanguages: {},
    });
  });

  it('read Semaphore, quiet hours off, some events, channels’ languages', () => {
    const { sms } = loadBotConfig({
      SMS_GATEWAY: 'semaphore',
      SEMAPHORE_API_KEY: 'key-0123456789',
      SMS_SENDER_NAME: 'ACME SHOP',
      SMS_QUIET_HOURS: 'off',
      SMS_EVENTS: 'failed_attempt, booked',
      SMS_LANGUAGE: 'fil',
      SMS_CHANNEL_LANGUAGES: 'C0123ABCD=en,G0456=fil',
    });
    expect(sms.gateway).toEqual({
      kind: 'semaphore',
      apiKey: 'key-0123456789',
      url: 'https://api.semaphore.co/',
      senderName: 'ACME SHOP',
    });
    expect(sms).toMatchObject({ events: ['failed_attempt', 'booked'], language: 'fil' });
    expect(sms.quietHours).toBeUndefined();
    expect(sms.channelLanguages).toEqual({ C0123ABCD: 'en', G0456: 'fil' });
    expect(loadBotConfig({ SMS_EVENTS: 'off' }).sms.events).toEqual([]);
  });

  it('refuse bad ones in a line each, naming the setting, never echoing the key', () => {
    const key = 'secret-semaphore-key';
    const lines = problems({
      SMS_GATEWAY: 'twilio',
      SMS_SENDER_NAME: 'A VERY LONG NAME',
      SMS_QUIET_HOURS: '9pm-8am',
      SMS_EVENTS: 'booked,delivered',
      SMS_LANGUAGE: 'tl',
      SMS_CHANNEL_LANGUAGES: 'C0123=de',
      SEMAPHORE_URL: 'ftp://x/',
      SMS_TEMPLATES_FILE: templatesFile({ en: { booked: '{nope}' } }),
    });
    expect(lines.map((line) => line.split(' ')[0])).toEqual([
      'SMS_GATEWAY',
      'SEMAPHORE_URL',
      'SMS_SENDER_NAME',
      'SMS_QUIET_HOURS',
      'SMS_EVENTS',
      'SMS_LANGUAGE',
      'SMS_CHANNEL_LANGUAGES',
      'SMS_TEMPLATES_FILE',
    ]);
    expect(problems({ SMS_GATEWAY: 'semaphore' })).toEqual([
      'SEMAPHORE_API_KEY must be set when SMS_GATEWAY is semaphore',
    ]);
    expect(
      problems({ SMS_GATEWAY: 'semaphore', SEMAPHORE_API_KEY: key, SMS_QUIET_HOURS: 'x' }).join(),
    ).not.toContain(key);
    expect(secretsOf({ SEMAPHORE_API_KEY: key })).toContain(key);
  });
});
