/**
 * Every setting and its one-line message (`.env.example`'s placeholders included); every bad one at once, a
 * line each.
 */
import { describe, expect, it } from 'vitest';
import { loadBotConfig, loadConfig, loadSlackConfig, loadWaybillConfig, secretsOf } from '../src/config.js';
import { ConfigError } from '../src/settings-error.js';
import { defaultCatalog } from '../src/waybill/catalog.js';
import { NO_FEE } from '../src/waybill/cod-fee.js';

type Env = Record<string, string | undefined>;

const TEST_URL = 'https://test.courier.example/api/';
const LIVE_URL = 'https://api.courier.example/api/v2/';
const API_TOKEN = 'tok-Waybill-SECRET-9f8e7d';
const SLACK_OK: Env = {
  SLACK_BOT_TOKEN: 'xoxb-111-222-SECRETabc',
  SLACK_SIGNING_SECRET: 'sig-SECRET-0a1b2c',
};

/**
 * Runs `load`, expects a ConfigError and checks the shape every config failure must have: a line per
 * problem, each naming its setting first. Returns the lines joined by newlines (one problem: its line).
 */
function configError(load: () => unknown, env: Env = {}): string {
  let thrown: unknown;
  try {
    load();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(ConfigError);
  const { message, name, problems } = thrown as ConfigError;
  expect(name).toBe('ConfigError');
  expect(problems.length).toBeGreaterThan(0);
  expect(message).toBe(problems.join('\n'));
  for (const line of problems) {
    expect(line).not.toMatch(/[\r\n]/);
    expect(line).toMatch(/^[A-Z][A-Z0-9_]* /);
  }
  for (const [name, value] of Object.entries(env)) {
    if (/TOKEN|SECRET/.test(name) && value && value.trim().length >= 4) {
      expect(message, `${name} leaked`).not.toContain(value.trim());
    }
  }
  return message;
}

const waybillError = (env: Env) => configError(() => loadWaybillConfig(env), env);
const slackError = (env: Env) => configError(() => loadSlackConfig(env), env);

describe('loadWaybillConfig', () => {
  it('defaults to the sandbox, UTC, 15000 ms, PHP and the default catalog', () => {
    expect(loadWaybillConfig({})).toEqual({
      env: 'sandbox',
      timeZone: 'UTC',
      timeoutMs: 15_000,
      currency: 'PHP',
      sandboxLatencyMs: 0,
      placeCheck: 'refuse',
      catalog: defaultCatalog,
    });
  });

  it('treats blank variables as unset', () => {
    const config = loadWaybillConfig({
      WAYBILL_ENV: '',
      WAYBILL_TIMEZONE: '   ',
      WAYBILL_TIMEOUT_MS: '',
      WAYBILL_CURRENCY: ' ',
      WAYBILL_SERVICE_TYPES: '',
    });
    expect(config).toMatchObject({ env: 'sandbox', timeZone: 'UTC', timeoutMs: 15_000, currency: 'PHP' });
    expect(config.catalog).toEqual(defaultCatalog);
  });

  it('needs no base URL nor token in the sandbox, and does not expose one', () => {
    const config = loadWaybillConfig({ WAYBILL_ENV: 'sandbox', WAYBILL_API_TOKEN: API_TOKEN });
    expect(config.baseUrl).toBeUndefined();
    expect(config.token).toBeUndefined();
  });

  it('reads the settings it is given (trimmed)', () => {
    const config = loadWaybillConfig({
      WAYBILL_TIMEZONE: ' Asia/Manila ',
      WAYBILL_TIMEOUT_MS: ' 2500 ',
      WAYBILL_CURRENCY: 'usd',
      WAYBILL_SANDBOX_LATENCY_MS: '40',
    });
    expect(config).toMatchObject({
      timeZone: 'Asia/Manila',
      timeoutMs: 2500,
      currency: 'USD',
      sandboxLatencyMs: 40,
    });
  });

  it.each(['UTC', 'Asia/Manila', 'Etc/UTC', 'US/Eastern', 'Asia/Calcutta'])(
    'takes %s as a time zone, a canonical name or an alias',
    (zone) => {
      expect(loadWaybillConfig({ WAYBILL_TIMEZONE: zone }).timeZone).toBe(zone);
    },
  );

  describe('test and live', () => {
    it('test uses WAYBILL_TEST_BASE_URL and the token', () => {
      const config = loadWaybillConfig({
        WAYBILL_ENV: 'test',
        WAYBILL_TEST_BASE_URL: TEST_URL,
        WAYBILL_LIVE_BASE_URL: LIVE_URL,
        WAYBILL_API_TOKEN: ` ${API_TOKEN} `,
      });
      expect(config).toMatchObject({ env: 'test', baseUrl: TEST_URL, token: API_TOKEN });
    });

    it('live uses WAYBILL_LIVE_BASE_URL and the token', () => {
      const config = loadWaybillConfig({
        WAYBILL_ENV: 'live',
        WAYBILL_TEST_BASE_URL: TEST_URL,
        WAYBILL_LIVE_BASE_URL: LIVE_URL,
        WAYBILL_API_TOKEN: API_TOKEN,
      });
      expect(config).toMatchObject({ env: 'live', baseUrl: LIVE_URL, token: API_TOKEN });
    });

    it.each([
      [
        { WAYBILL_ENV: 'test', WAYBILL_API_TOKEN: API_TOKEN },
        'WAYBILL_TEST_BASE_URL must be set when WAYBILL_ENV=test',
      ],
      [
        // The other environment's URL does not count.
        { WAYBILL_ENV: 'test', WAYBILL_LIVE_BASE_URL: LIVE_URL, WAYBILL_API_TOKEN: API_TOKEN },
        'WAYBILL_TEST_BASE_URL must be set when WAYBILL_ENV=test',
      ],
      [
        { WAYBILL_ENV: 'live', WAYBILL_TEST_BASE_URL: TEST_URL, WAYBILL_API_TOKEN: API_TOKEN },
        'WAYBILL_LIVE_BASE_URL must be set when WAYBILL_ENV=live',
      ],
      [
        { WAYBILL_ENV: 'live', WAYBILL_LIVE_BASE_URL: '  ', WAYBILL_API_TOKEN: API_TOKEN },
        'WAYBILL_LIVE_BASE_URL must be set when WAYBILL_ENV=live',
      ],
      [
        { WAYBILL_ENV: 'test', WAYBILL_TEST_BASE_URL: TEST_URL },
        'WAYBILL_API_TOKEN must be set when WAYBILL_ENV=test',
      ],
      [
        { WAYBILL_ENV: 'live', WAYBILL_LIVE_BASE_URL: LIVE_URL, WAYBILL_API_TOKEN: '   ' },
        'WAYBILL_API_TOKEN must be set when WAYBILL_ENV=live',
      ],
    ])('%o is refused: %s', (env, message) => {
      expect(waybillError(env)).toBe(message);
    });

    it.each([
      ['WAYBILL_TEST_BASE_URL', 'https://test.courier.example/api'],
      ['WAYBILL_LIVE_BASE_URL', 'https://api.courier.example/api/v2'],
    ])('%s must end with "/"', (name, url) => {
      const env = {
        WAYBILL_ENV: name.includes('TEST') ? 'test' : 'live',
        [name]: url,
        WAYBILL_API_TOKEN: API_TOKEN,
      };
      expect(waybillError(env)).toBe(
        `${name} must be a URL ending with "/" (the endpoint path is appended directly)`,
      );
    });

    it.each(['not a url', 'ftp://files.courier.example/api/', 'courier.example/api/'])(
      'a base URL must be http(s): %s',
      (url) => {
        expect(
          waybillError({ WAYBILL_ENV: 'test', WAYBILL_TEST_BASE_URL: url, WAYBILL_API_TOKEN: API_TOKEN }),
        ).toBe('WAYBILL_TEST_BASE_URL must be an http(s) URL');
      },
    );

    it('accepts an http URL (e.g. a local stand-in)', () => {
      const config = loadWaybillConfig({
        WAYBILL_ENV: 'test',
        WAYBILL_TEST_BASE_URL: 'http://localhost:8080/',
        WAYBILL_API_TOKEN: API_TOKEN,
      });
      expect(config.baseUrl).toBe('http://localhost:8080/');
    });
  });

  it.each([
    [{ WAYBILL_ENV: 'prod' }, 'WAYBILL_ENV must be one of sandbox, test, live'],
    [{ WAYBILL_ENV: 'LIVE' }, 'WAYBILL_ENV must be one of sandbox, test, live'],
    [
      { WAYBILL_TIMEZONE: 'Mars/Olympus' },
      'WAYBILL_TIMEZONE must be an IANA time zone such as UTC or Asia/Manila',
    ],
    [{ WAYBILL_TIMEZONE: 'Manila' }, 'WAYBILL_TIMEZONE must be an IANA time zone such as UTC or Asia/Manila'],
    [
      { WAYBILL_TIMEOUT_MS: 'abc' },
      'WAYBILL_TIMEOUT_MS must be a whole number of milliseconds between 500 and 120000',
    ],
    [
      { WAYBILL_TIMEOUT_MS: '15s' },
      'WAYBILL_TIMEOUT_MS must be a whole number of milliseconds between 500 and 120000',
    ],
    [
      { WAYBILL_TIMEOUT_MS: '1500.5' },
      'WAYBILL_TIMEOUT_MS must be a whole number of milliseconds between 500 and 120000',
    ],
    [
      { WAYBILL_TIMEOUT_MS: '-1' },
      'WAYBILL_TIMEOUT_MS must be a whole number of milliseconds between 500 and 120000',
    ],
    [
      { WAYBILL_TIMEOUT_MS: '499' },
      'WAYBILL_TIMEOUT_MS must be a whole number of milliseconds between 500 and 120000',
    ],
    [
      { WAYBILL_TIMEOUT_MS: '120001' },
      'WAYBILL_TIMEOUT_MS must be a whole number of milliseconds between 500 and 120000',
    ],
    [{ WAYBILL_CURRENCY: 'PESO' }, 'WAYBILL_CURRENCY must be a three-letter currency code such as PHP'],
    [{ WAYBILL_PLACE_CHECK: 'strict' }, 'WAYBILL_PLACE_CHECK must be one of refuse, warn'],
    [
      { WAYBILL_SANDBOX_LATENCY_MS: 'slow' },
      'WAYBILL_SANDBOX_LATENCY_MS must be a whole number of milliseconds between 0 and 120000',
    ],
  ])('%o is refused: %s', (env, message) => {
    expect(waybillError(env)).toBe(message);
  });

  it.each([
    ['500', 500],
    ['120000', 120_000],
  ])('the timeout bounds are inclusive: %s', (value, ms) => {
    expect(loadWaybillConfig({ WAYBILL_TIMEOUT_MS: value }).timeoutMs).toBe(ms);
  });

  describe('catalog lists', () => {
    it('parses VALUE=Label,VALUE2 (the label defaults to the value; spaces and empty items ignored)', () => {
      const { catalog } = loadWaybillConfig({
        WAYBILL_SERVICE_TYPES: 'SAME_DAY=Same day, NEXT_DAY ,,',
        WAYBILL_PAYMENT_METHODS: 'CASH = Cash on delivery,CARD=Card',
        WAYBILL_COD_PAYMENT_METHOD: 'CASH',
        WAYBILL_PACKAGE_TYPES: 'PARCEL=Parcel=small',
        WAYBILL_UNITS: 'KG',
      });
      expect(catalog).toEqual({
        serviceTypes: [
          { value: 'SAME_DAY', label: 'Same day' },
          { value: 'NEXT_DAY', label: 'NEXT_DAY' },
        ],
        paymentMethods: [
          { value: 'CASH', label: 'Cash on delivery' },
          { value: 'CARD', label: 'Card' },
        ],
        codPaymentMethod: 'CASH',
        packageTypes: [{ value: 'PARCEL', label: 'Parcel=small' }],
        units: [{ value: 'KG', label: 'KG' }],
      });
    });

    it('an unset list keeps the default for that list only', () => {
      const { catalog } = loadWaybillConfig({ WAYBILL_SERVICE_TYPES: 'EXPRESS' });
      expect(catalog.serviceTypes).toEqual([{ value: 'EXPRESS', label: 'EXPRESS' }]);
      expect(catalog.paymentMethods).toEqual(defaultCatalog.paymentMethods);
      expect(catalog.packageTypes).toEqual(defaultCatalog.packageTypes);
      expect(catalog.units).toEqual(defaultCatalog.units);
    });

    it.each([
      ['WAYBILL_SERVICE_TYPES', 'A,B,A=Again'],
      ['WAYBILL_PAYMENT_METHODS', 'COD=Cash,COD'],
      ['WAYBILL_PACKAGE_TYPES', 'BOX=Box,BOX=Crate'],
      ['WAYBILL_UNITS', 'CM , CM'],
    ])('%s refuses repeated values (%s)', (name, value) => {
      expect(waybillError({ [name]: value })).toBe(`${name} must be a list without repeated values`);
    });

    it.each([
      ['WAYBILL_UNITS', ',,', 'WAYBILL_UNITS must be a comma-separated list of 1 to 100 VALUE=Label items'],
      [
        'WAYBILL_PACKAGE_TYPES',
        '=Label only',
        'WAYBILL_PACKAGE_TYPES must be items with a value of at most 150 and a label of at most 75 characters',
      ],
      [
        'WAYBILL_SERVICE_TYPES',
        `X=${'L'.repeat(76)}`,
        'WAYBILL_SERVICE_TYPES must be items with a value of at most 150 and a label of at most 75 characters',
      ],
    ])('%s refuses %j', (name, value, message) => {
      expect(waybillError({ [name]: value })).toBe(message);
    });

    it('the COD payment method must be one of the payment methods', () => {
      expect(waybillError({ WAYBILL_COD_PAYMENT_METHOD: 'CASH' })).toBe(
        'WAYBILL_COD_PAYMENT_METHOD must be one of the values in WAYBILL_PAYMENT_METHODS (COD, PREPAID)',
      );
      // Changing the payment methods without naming the COD one: the default "COD" is not in the list.
      expect(waybillError({ WAYBILL_PAYMENT_METHODS: 'CASH=Cash,CARD' })).toBe(
        'WAYBILL_COD_PAYMENT_METHOD must be one of the values in WAYBILL_PAYMENT_METHODS (CASH, CARD)',
      );
      expect(
        loadWaybillConfig({ WAYBILL_PAYMENT_METHODS: 'CASH=Cash,CARD', WAYBILL_COD_PAYMENT_METHOD: ' CASH ' })
          .catalog.codPaymentMethod,
      ).toBe('CASH');
    });
  });

  it('reports every problem, a line each, without echoing the token', () => {
    const env = {
      WAYBILL_ENV: 'live',
      WAYBILL_LIVE_BASE_URL: `https://user:${API_TOKEN}@api.courier.example/v2`,
      WAYBILL_API_TOKEN: API_TOKEN,
      WAYBILL_TIMEZONE: 'Nowhere/Else',
    };
    expect(waybillError(env).split('\n')).toEqual([
      'WAYBILL_LIVE_BASE_URL must be a URL ending with "/" (the endpoint path is appended directly)',
      'WAYBILL_TIMEZONE must be an IANA time zone such as UTC or Asia/Manila',
    ]);
  });
});

describe('loadConfig: every bad setting at once, a line each', () => {
  const problems = (env: Env) => configError(() => loadConfig(env), env).split('\n');

  it("names every bad setting of every group, not only the first (the issue's example)", () => {
    expect(problems({ ...SLACK_OK, WAYBILL_TIMEOUT_MS: 'abc', PORT: '99999' })).toEqual([
      'WAYBILL_TIMEOUT_MS must be a whole number of milliseconds between 500 and 120000',
      'PORT must be a port number between 0 and 65535',
    ]);
  });

  it('one line per setting: a value failing two checks, and a check between settings whose other one is bad, are said once', () => {
    const longItem = 'X'.repeat(151);
    expect(
      problems({
        SLACK_BOT_TOKEN: SLACK_OK.SLACK_BOT_TOKEN,
        WAYBILL_SERVICE_TYPES: `${longItem},${longItem}`,
        WAYBILL_CURRENCY: 'pesos',
        DATABASE_POOL_SIZE: '0',
        REPLICA_LEASE_TTL_MS: 'soon',
        REPLICA_LEASE_RENEW_MS: '20000',
        DIGEST_CHANNEL_ID: 'C0123ABCD',
        DIGEST_TIME: '25:00',
      }),
    ).toEqual([
      'WAYBILL_CURRENCY must be a three-letter currency code such as PHP',
      'WAYBILL_SERVICE_TYPES must be items with a value of at most 150 and a label of at most 75 characters',
      'SLACK_SIGNING_SECRET must be set (see README: "Create the Slack app"); the bot cannot talk to Slack without them',
      'DATABASE_POOL_SIZE must be a whole number of connections between 1 and 100',
      'REPLICA_LEASE_TTL_MS must be a whole number of milliseconds between 1000 and 600000',
      'DIGEST_TIME must be a time of day as HH:MM, such as 18:00 (in WAYBILL_TIMEZONE)',
    ]);
  });

  it('the checks between settings still run beside a bad value', () => {
    expect(
      problems({ ...SLACK_OK, WAYBILL_TIMEOUT_MS: 'abc', WAYBILL_ENV: 'live', DIGEST_TIME: '18:00' }),
    ).toEqual([
      'WAYBILL_TIMEOUT_MS must be a whole number of milliseconds between 500 and 120000',
      'WAYBILL_LIVE_BASE_URL must be set when WAYBILL_ENV=live',
      'WAYBILL_API_TOKEN must be set when WAYBILL_ENV=live',
      'DIGEST_CHANNEL_ID must be set with DIGEST_TIME: the channel the daily digest is posted to',
    ]);
  });

  it('good settings load as each group loads them', () => {
    const env = { ...SLACK_OK, WAYBILL_TIMEZONE: 'Asia/Manila', PORT: '8080', BULK_MAX_ROWS: '40' };
    expect(loadConfig(env)).toEqual({
      waybill: loadWaybillConfig(env),
      slack: loadSlackConfig(env),
      bot: loadBotConfig(env),
    });
  });
});

describe('loadSlackConfig', () => {
  it.each([
    [
      { ...SLACK_OK, SLACK_BOT_TOKEN: 'xoxb-your-bot-token' },
      'SLACK_BOT_TOKEN still holds the placeholder of .env.example: you copied .env.example but did not fill it in (see README: "Create the Slack app")',
    ],
    [
      { SLACK_BOT_TOKEN: ' xoxb-your-bot-token ', SLACK_SIGNING_SECRET: 'your-signing-secret' },
      'SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET still hold the placeholders of .env.example: you copied .env.example but did not fill them in (see README: "Create the Slack app")',
    ],
    [
      { ...SLACK_OK, SLACK_APP_TOKEN: 'xapp-your-app-level-token' },
      'SLACK_APP_TOKEN still holds the placeholder of .env.example: you copied .env.example but did not fill it in; remove SLACK_APP_TOKEN instead for HTTP mode (see README: "Create the Slack app")',
    ],
  ])('recognises the placeholders of .env.example: %o', (env, message) => {
    expect(slackError(env)).toBe(message);
  });

  it('reads the tokens (trimmed) and defaults to HTTP mode on port 3000 at level info', () => {
    expect(
      loadSlackConfig({
        SLACK_BOT_TOKEN: ` ${SLACK_OK.SLACK_BOT_TOKEN} `,
        SLACK_SIGNING_SECRET: SLACK_OK.SLACK_SIGNING_SECRET,
      }),
    ).toEqual({
      botToken: SLACK_OK.SLACK_BOT_TOKEN,
      signingSecret: SLACK_OK.SLACK_SIGNING_SECRET,
      appToken: undefined,
      port: 3000,
      apiUrl: undefined,
      logLevel: 'info',
    });
  });

  it('reads the optional settings', () => {
    const config = loadSlackConfig({
      ...SLACK_OK,
      SLACK_APP_TOKEN: 'xapp-1-A1-SECRETdef',
      PORT: '8080',
      SLACK_API_URL: 'http://localhost:9999/api/',
      LOG_LEVEL: 'debug',
    });
    expect(config).toMatchObject({
      appToken: 'xapp-1-A1-SECRETdef',
      port: 8080,
      apiUrl: 'http://localhost:9999/api/',
      logLevel: 'debug',
    });
  });

  it('HEALTH_PORT must differ from PORT in HTTP mode; Socket Mode listens on no PORT, and 0 is any free port', () => {
    expect(slackError({ ...SLACK_OK, PORT: '3006', HEALTH_PORT: ' 3006 ' })).toBe(
      "HEALTH_PORT must differ from PORT (both 3006): in HTTP mode Slack's requests arrive on PORT, and the probes and /metrics need a port of their own",
    );
    expect(slackError({ ...SLACK_OK, HEALTH_PORT: '3000' })).toMatch(
      /^HEALTH_PORT must differ from PORT \(both 3000\)/,
    );
    expect(
      loadSlackConfig({ ...SLACK_OK, SLACK_APP_TOKEN: 'xapp-1', PORT: '3006', HEALTH_PORT: '3006' }),
    ).toMatchObject({
      port: 3006,
      healthPort: 3006,
    });
    expect(loadSlackConfig({ ...SLACK_OK, PORT: '0', HEALTH_PORT: '0' })).toMatchObject({
      port: 0,
      healthPort: 0,
    });
  });

  it('names both SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET when both are missing', () => {
    const message = slackError({});
    expect(message).toBe(
      'SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET must be set (see README: "Create the Slack app"); the bot cannot talk to Slack without them',
    );
    expect(slackError({ SLACK_BOT_TOKEN: '  ', SLACK_SIGNING_SECRET: '' })).toBe(message);
  });

  it.each([
    [{ SLACK_BOT_TOKEN: SLACK_OK.SLACK_BOT_TOKEN }, /^SLACK_SIGNING_SECRET must be set /],
    [{ SLACK_SIGNING_SECRET: SLACK_OK.SLACK_SIGNING_SECRET }, /^SLACK_BOT_TOKEN must be set /],
  ])('names the one that is missing: %o', (env, message) => {
    expect(slackError(env)).toMatch(message);
  });

  it('never echoes a malformed secret', () => {
    const env = {
      SLACK_BOT_TOKEN: 'not-a-token-SECRET123',
      SLACK_SIGNING_SECRET: SLACK_OK.SLACK_SIGNING_SECRET,
    };
    const message = slackError(env);
    expect(message).toBe('SLACK_BOT_TOKEN must be a bot token starting with xoxb-');
    expect(message).not.toContain('SECRET123');
    expect(message).not.toContain('not-a-token');
  });

  it.each([
    [
      { ...SLACK_OK, SLACK_APP_TOKEN: 'xoxb-wrong-kind-SECRET789' },
      'SLACK_APP_TOKEN must be an app-level token starting with xapp- (or unset for HTTP mode)',
    ],
    [{ ...SLACK_OK, PORT: '70000' }, /^PORT must be /],
    [{ ...SLACK_OK, PORT: 'http' }, /^PORT must be /],
    [{ ...SLACK_OK, LOG_LEVEL: 'verbose' }, 'LOG_LEVEL must be a pino level such as info or debug'],
    [
      { ...SLACK_OK, SLACK_API_URL: 'https://slack.example/api' },
      /^SLACK_API_URL must be an http\(s\) URL ending with "\/"/,
    ],
  ])('%o is refused', (env, message) => {
    const text = slackError(env);
    if (typeof message === 'string') expect(text).toBe(message);
    else expect(text).toMatch(message);
    for (const secret of [SLACK_OK.SLACK_BOT_TOKEN, SLACK_OK.SLACK_SIGNING_SECRET, 'SECRET789']) {
      expect(text).not.toContain(secret);
    }
  });
});

describe('loadBotConfig: the database and the replica', () => {
  const botError = (env: Record<string, string>) => {
    try {
      loadBotConfig(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error('expected a ConfigError');
  };

  it('defaults to SQLite at DATABASE_PATH, with sane pool, timeouts and lease', () => {
    expect(loadBotConfig({}).database).toEqual({
      path: './data/waybill-bot.sqlite',
      url: undefined,
      poolSize: 10,
      connectTimeoutMs: 2500,
      poolWaitMs: 10_000,
      statementTimeoutMs: 10_000,
      leaseTtlMs: 30_000,
      leaseRenewMs: 10_000,
    });
  });

  it('takes a PostgreSQL URL and the pool, timeout and lease settings', () => {
    expect(
      loadBotConfig({
        DATABASE_URL: ' postgresql://bot:pw@db.internal:5432/waybill ',
        DATABASE_POOL_SIZE: '4',
        DATABASE_CONNECT_TIMEOUT_MS: '2000',
        DATABASE_POOL_WAIT_MS: '20000',
        DATABASE_STATEMENT_TIMEOUT_MS: '30000',
        REPLICA_LEASE_TTL_MS: '20000',
        REPLICA_LEASE_RENEW_MS: '5000',
      }).database,
    ).toMatchObject({
      url: 'postgresql://bot:pw@db.internal:5432/waybill',
      poolSize: 4,
      connectTimeoutMs: 2000,
      poolWaitMs: 20_000,
      statementTimeoutMs: 30_000,
      leaseTtlMs: 20_000,
      leaseRenewMs: 5000,
    });
  });

  it.each([
    [
      { DATABASE_URL: 'mysql://bot:SECRETPW@db/waybill' },
      /^DATABASE_URL must be a PostgreSQL URL such as postgres:/,
    ],
    [{ DATABASE_URL: 'postgres://bot:SECRETPW@db:notaport/x' }, /^DATABASE_URL must be a PostgreSQL URL/],
    // Unencoded @, / or #: read as a host "ss", a path and a fragment; refused, saying to percent-encode.
    [{ DATABASE_URL: 'postgres://waybill:p@ss/w#rd@db:5432/waybill' }, /password percent-encoded \(@ as %40/],
    [{ DATABASE_URL: 'postgres://waybill:p@ss?w@db:5432/waybill' }, /password percent-encoded/],
    [
      { DATABASE_POOL_SIZE: '0' },
      'DATABASE_POOL_SIZE must be a whole number of connections between 1 and 100',
    ],
    [
      { DATABASE_CONNECT_TIMEOUT_MS: '5s' },
      'DATABASE_CONNECT_TIMEOUT_MS must be a whole number of milliseconds between 100 and 60000',
    ],
    [
      { DATABASE_POOL_WAIT_MS: '700000' },
      'DATABASE_POOL_WAIT_MS must be a whole number of milliseconds between 100 and 600000',
    ],
    [
      { DATABASE_CONNECT_TIMEOUT_MS: '5000', DATABASE_POOL_WAIT_MS: '4000' },
      /^DATABASE_POOL_WAIT_MS must be at least DATABASE_CONNECT_TIMEOUT_MS \(5000 ms\)/,
    ],
    [
      { DATABASE_STATEMENT_TIMEOUT_MS: '50' },
      'DATABASE_STATEMENT_TIMEOUT_MS must be a whole number of milliseconds between 100 and 600000',
    ],
    [
      { REPLICA_LEASE_TTL_MS: '15000' },
      /^REPLICA_LEASE_RENEW_MS must be at most half of REPLICA_LEASE_TTL_MS \(15000 ms\)/,
    ],
  ])('%o is refused in one line, never showing a password', (env, message) => {
    const text = botError(env);
    if (typeof message === 'string') expect(text).toBe(message);
    else expect(text).toMatch(message);
    expect(text).not.toContain('SECRETPW');
    expect(text).not.toContain('\n');
  });
});

describe('loadBotConfig: bulk booking', () => {
  const botError = (env: Env) => configError(() => loadBotConfig(env), env);

  it('defaults to 500 rows, 2 MB, 30 s to download, 20 rows at once, and whoever may book', () => {
    expect(loadBotConfig({}).bulk).toEqual({
      maxRows: 500,
      maxBytes: 2_000_000,
      downloadTimeoutMs: 30_000,
      concurrency: 20,
    });
    expect(loadBotConfig({}).access.bulkUserIds).toBeUndefined();
  });

  it('reads the limits, the rows at once and the list of who may book from a file', () => {
    const config = loadBotConfig({
      BULK_MAX_ROWS: ' 40 ',
      BULK_MAX_FILE_MB: '5',
      BULK_DOWNLOAD_TIMEOUT_MS: '2500',
      BULK_CONCURRENCY: '4',
      ALLOWED_BULK_USER_IDS: 'U01AB, W02CD',
    });
    expect(config.bulk).toEqual({
      maxRows: 40,
      maxBytes: 5_000_000,
      downloadTimeoutMs: 2500,
      concurrency: 4,
    });
    expect(config.access.bulkUserIds).toEqual(['U01AB', 'W02CD']);
  });

  it('names the setting in one line when a value is wrong', () => {
    expect(botError({ BULK_MAX_ROWS: '0' })).toBe(
      'BULK_MAX_ROWS must be a whole number of rows between 1 and 5000',
    );
    expect(botError({ BULK_MAX_FILE_MB: '2.5' })).toBe(
      'BULK_MAX_FILE_MB must be a whole number of megabytes between 1 and 50',
    );
    expect(botError({ BULK_CONCURRENCY: '0' })).toBe(
      'BULK_CONCURRENCY must be a whole number of rows between 1 and 100',
    );
    expect(botError({ BULK_CONCURRENCY: '500' })).toBe(
      'BULK_CONCURRENCY must be a whole number of rows between 1 and 100',
    );
    expect(botError({ ALLOWED_BULK_USER_IDS: 'U01AB,#dispatch' })).toBe(
      'ALLOWED_BULK_USER_IDS must be a comma-separated list of user IDs such as U0123ABCD',
    );
  });
});

describe('label settings', () => {
  const labelError = (env: Env) => configError(() => loadBotConfig(env), env);

  it('prints 4x6 labels unless told A6', () => {
    expect(loadBotConfig({}).labelPageSize).toBe('4x6');
    expect(loadBotConfig({ LABEL_PAGE_SIZE: ' A6 ' }).labelPageSize).toBe('A6');
  });

  it('names the setting in one line when the size is not one it knows', () => {
    expect(labelError({ LABEL_PAGE_SIZE: 'A4' })).toBe('LABEL_PAGE_SIZE must be one of 4x6, A6');
  });

  it('makes PDFs at 203 dpi unless told ZPL, both, or 300 dpi; anything else named in one line', () => {
    expect([loadBotConfig({}).labelFormat, loadBotConfig({}).labelDpi]).toEqual(['pdf', 203]);
    const zpl = loadBotConfig({ LABEL_FORMAT: ' zpl ', LABEL_DPI: '300' });
    expect([zpl.labelFormat, zpl.labelDpi]).toEqual(['zpl', 300]);
    expect(loadBotConfig({ LABEL_FORMAT: 'both' }).labelFormat).toBe('both');
    expect(labelError({ LABEL_FORMAT: 'png' })).toBe('LABEL_FORMAT must be one of pdf, zpl, both');
    expect(labelError({ LABEL_DPI: '600' })).toBe('LABEL_DPI must be one of 203, 300');
  });

  it('reads the label printers: one as LABEL_PRINTER, several by name; a bad address named in one line', () => {
    expect(loadBotConfig({}).labelPrinters).toEqual([]);
    expect(loadBotConfig({ LABEL_PRINTER: ' 10.0.0.5:9100 ' }).labelPrinters).toEqual([
      { name: 'printer', host: '10.0.0.5', port: 9100 },
    ]);
    const several = loadBotConfig({ LABEL_PRINTERS: 'desk=10.0.0.5:9100, warehouse=zebra-2.local:6101' });
    expect(several.labelPrinters).toEqual([
      { name: 'desk', host: '10.0.0.5', port: 9100 },
      { name: 'warehouse', host: 'zebra-2.local', port: 6101 },
    ]);
    expect(several.labelPrinterTimeoutMs).toBe(10_000);
    expect(labelError({ LABEL_PRINTER: '10.0.0.5' })).toBe(
      'LABEL_PRINTER must be host:port, such as 10.0.0.5:9100',
    );
    expect(labelError({ LABEL_PRINTER: '10.0.0.5:70000' })).toBe(
      'LABEL_PRINTER must be host:port with a port from 1 to 65535',
    );
    for (const printers of ['desk:10.0.0.5:9100', 'desk=10.0.0.5:9100,desk=10.0.0.6:9100']) {
      expect(labelError({ LABEL_PRINTERS: printers })).toBe(
        'LABEL_PRINTERS must be a comma-separated list of up to 20 name=host:port items, each name once, such as desk=10.0.0.5:9100',
      );
    }
  });
});

describe('COD remittance settings', () => {
  const botError = (env: Env) => configError(() => loadBotConfig(env), env);

  it('defaults to the documented headers, 7 days, and whoever may book from a file', () => {
    expect(loadBotConfig({}).remittance).toEqual({
      columns: {
        trackingNumber: 'tracking_number',
        amount: 'amount',
        remittedAt: 'remitted_at',
        status: 'status',
        fee: 'fee',
      },
      outstandingDays: 7,
      fee: NO_FEE,
    });
    expect(loadBotConfig({}).access).toMatchObject({
      financeUserIds: undefined,
      financeUserGroupIds: undefined,
    });
  });

  it("reads the courier's headers, the days and who may reconcile", () => {
    const config = loadBotConfig({
      REMITTANCE_TRACKING_COLUMN: ' AWB ',
      REMITTANCE_AMOUNT_COLUMN: 'COD Collected',
      REMITTANCE_OUTSTANDING_DAYS: '14',
      ALLOWED_FINANCE_USER_IDS: 'U01AB',
      ALLOWED_FINANCE_USERGROUP_IDS: 'S01AB',
    });
    expect(config.remittance.columns).toMatchObject({ trackingNumber: 'AWB', amount: 'COD Collected' });
    expect(config.remittance.outstandingDays).toBe(14);
    expect(config.access).toMatchObject({ financeUserIds: ['U01AB'], financeUserGroupIds: ['S01AB'] });
  });

  it('names the setting in one line when a value is wrong', () => {
    expect(botError({ REMITTANCE_OUTSTANDING_DAYS: '0' })).toBe(
      'REMITTANCE_OUTSTANDING_DAYS must be a whole number of days between 1 and 365',
    );
    expect(botError({ REMITTANCE_AMOUNT_COLUMN: 'x'.repeat(101) })).toBe(
      'REMITTANCE_AMOUNT_COLUMN must be a column header of at most 100 characters',
    );
    expect(botError({ ALLOWED_FINANCE_USERGROUP_IDS: 'U01AB' })).toBe(
      'ALLOWED_FINANCE_USERGROUP_IDS must be a comma-separated list of user-group IDs such as S0123ABCD',
    );
  });

  it("reads the courier's COD fee rule in decimal, and names a wrong one", () => {
    expect(
      loadBotConfig({
        COD_FEE_PERCENT: '2.75',
        COD_FEE_FIXED: '10',
        COD_FEE_MIN: '25.50',
        COD_FEE_MAX: '1,000',
        COD_FEE_VAT_PERCENT: '12',
        RETURN_FEE: '60',
        COD_FEE_FROM: '2026-11-16',
      }).remittance.fee,
    ).toEqual({
      percent: 27_500n,
      fixed: 1000n,
      min: 2550n,
      max: 100_000n,
      vatPercent: 120_000n,
      returnFee: 6000n,
      from: '2026-11-16',
    });
    expect(botError({ COD_FEE_PERCENT: '101' })).toBe(
      'COD_FEE_PERCENT must be a percentage between 0 and 100 such as 2.75 (at most four decimals)',
    );
    expect(botError({ COD_FEE_VAT_PERCENT: '0.123456' })).toMatch(
      /^COD_FEE_VAT_PERCENT must be a percentage/,
    );
    expect(botError({ RETURN_FEE: '-5' })).toBe(
      'RETURN_FEE must be an amount such as 25.00, at most 999999999.99',
    );
    expect(botError({ COD_FEE_FROM: '2026-02-30' })).toBe(
      'COD_FEE_FROM must be a day as YYYY-MM-DD, such as 2026-12-01',
    );
    expect(botError({ COD_FEE_MIN: '50', COD_FEE_MAX: '20' })).toBe(
      "COD_FEE_MIN must be at most COD_FEE_MAX (20.00): the bounds of the courier's COD fee",
    );
  });
});

describe('what needs attention', () => {
  const botError = (env: Env) => configError(() => loadBotConfig(env), env);

  it('reads durations as 15m, 24h, 5d, 0 for off; each defaults as documented', () => {
    expect(loadBotConfig({}).attention).toEqual({
      failedAfterMs: 24 * 3_600_000,
      staleAfterMs: 5 * 86_400_000,
      unknownAfterMs: 15 * 60_000,
      codAfterMs: 7 * 86_400_000,
      attemptLimit: 3,
    });
    const config = loadBotConfig({
      ATTENTION_FAILED_AFTER: '0',
      ATTENTION_STALE_AFTER: ' 36h ',
      ATTENTION_UNKNOWN_AFTER: '90m',
      ATTENTION_COD_AFTER: '366d',
      COURIER_ATTEMPT_LIMIT: ' 2 ',
    });
    expect(config.attention).toEqual({
      failedAfterMs: 0,
      staleAfterMs: 36 * 3_600_000,
      unknownAfterMs: 90 * 60_000,
      codAfterMs: 366 * 86_400_000,
      attemptLimit: 2,
    });
  });

  it("names COURIER_ATTEMPT_LIMIT in one line when it is not the courier's number of attempts", () => {
    for (const wrong of ['0', '11', '2.5', 'three', '-1'])
      expect(botError({ COURIER_ATTEMPT_LIMIT: wrong }), wrong).toBe(
        'COURIER_ATTEMPT_LIMIT must be a whole number of delivery attempts between 1 and 10',
      );
  });

  it('names the setting in one line when a duration is wrong', () => {
    for (const wrong of ['15', '1w', '-5m', '05m', '1.5h', '0m'])
      expect(botError({ ATTENTION_STALE_AFTER: wrong }), wrong).toBe(
        'ATTENTION_STALE_AFTER must be a duration such as 15m, 24h or 5d, or 0 for off',
      );
    expect(botError({ ATTENTION_COD_AFTER: '367d' })).toBe(
      'ATTENTION_COD_AFTER must be a duration of at most a year (366d)',
    );
  });

  it('reads the reminders: quiet hours (across midnight, or off), batching, escalation and its channel', () => {
    expect(loadBotConfig({}).reminders).toEqual({
      quietHours: { from: '20:00', to: '08:00' },
      batchEveryMs: 15 * 60_000,
      escalateAfterMs: 24 * 3_600_000,
    });
    expect(
      loadBotConfig({
        ATTENTION_QUIET_HOURS: ' 12:00-13:30 ',
        ATTENTION_BATCH_EVERY: '0',
        ATTENTION_ESCALATE_AFTER: '2d',
        ATTENTION_CHANNEL_ID: 'CESCALATE',
      }).reminders,
    ).toEqual({
      quietHours: { from: '12:00', to: '13:30' },
      batchEveryMs: 0,
      escalateAfterMs: 2 * 86_400_000,
      channelId: 'CESCALATE',
    });
    expect(loadBotConfig({ ATTENTION_QUIET_HOURS: 'off' }).reminders.quietHours).toBeUndefined();
    for (const wrong of ['20-8', '24:00-08:00', '20:00', 'none'])
      expect(botError({ ATTENTION_QUIET_HOURS: wrong }), wrong).toBe(
        'ATTENTION_QUIET_HOURS must be HH:MM-HH:MM such as 20:00-08:00 (in WAYBILL_TIMEZONE), or off',
      );
    expect(botError({ ATTENTION_QUIET_HOURS: '08:00-08:00' })).toBe(
      'ATTENTION_QUIET_HOURS must be two different times, such as 20:00-08:00, or off',
    );
    expect(botError({ ATTENTION_BATCH_EVERY: '15' })).toBe(
      'ATTENTION_BATCH_EVERY must be a duration such as 15m, 24h or 5d, or 0 for off',
    );
    expect(botError({ ATTENTION_CHANNEL_ID: '#ops' })).toBe(
      'ATTENTION_CHANNEL_ID must be a channel ID such as C0123ABCD',
    );
  });
});

describe('secretsOf', () => {
  it("counts DATABASE_URL's password as a secret, as written and decoded", () => {
    expect(secretsOf({ DATABASE_URL: 'postgres://bot:p%40ss-word@db/waybill' })).toEqual([
      'p%40ss-word',
      'p@ss-word',
    ]);
    expect(secretsOf({ DATABASE_URL: 'postgres://bot@db/waybill' })).toEqual([]);
  });

  it('counts PGPASSWORD, the password beside a DATABASE_URL without one (compose.yaml), as a secret', () => {
    expect(
      secretsOf({ DATABASE_URL: 'postgres://waybill@db:5432/waybill', PGPASSWORD: 'p@ss/w#rd' }),
    ).toEqual(['p@ss/w#rd']);
  });

  it('returns the secrets that are set (trimmed), and nothing else', () => {
    const env = {
      WAYBILL_API_TOKEN: ` ${API_TOKEN} `,
      SLACK_BOT_TOKEN: SLACK_OK.SLACK_BOT_TOKEN,
      SLACK_SIGNING_SECRET: SLACK_OK.SLACK_SIGNING_SECRET,
      SLACK_APP_TOKEN: 'xapp-1-A1-SECRETdef',
      WAYBILL_TEST_BASE_URL: TEST_URL,
      WAYBILL_TIMEZONE: 'Asia/Manila',
      PORT: '3000',
    };
    expect(new Set(secretsOf(env))).toEqual(
      new Set([API_TOKEN, SLACK_OK.SLACK_BOT_TOKEN, SLACK_OK.SLACK_SIGNING_SECRET, 'xapp-1-A1-SECRETdef']),
    );
  });

  it('leaves out unset and blank ones', () => {
    expect(secretsOf({})).toEqual([]);
    expect(
      secretsOf({ WAYBILL_API_TOKEN: '   ', SLACK_BOT_TOKEN: undefined, SLACK_SIGNING_SECRET: 'sig-123456' }),
    ).toEqual(['sig-123456']);
  });

  it('leaves out values shorter than 4 characters (too short to redact without mangling logs)', () => {
    expect(secretsOf({ SLACK_SIGNING_SECRET: 'abc', WAYBILL_API_TOKEN: 'abcd' })).toEqual(['abcd']);
  });
});

describe('loadBotConfig: TRACKING_URL_TEMPLATE', () => {
  const botError = (env: Env) => configError(() => loadBotConfig(env), env);

  it('is unset by default, and read as an https URL with {tn} once', () => {
    expect(loadBotConfig({}).trackingUrlTemplate).toBeUndefined();
    expect(
      loadBotConfig({ TRACKING_URL_TEMPLATE: ' https://courier.example/track/{tn} ' }).trackingUrlTemplate,
    ).toBe('https://courier.example/track/{tn}');
    for (const bad of [
      'https://courier.example/track/',
      'http://courier.example/{tn}',
      '{tn}',
      'https://x/{tn}/{tn}',
    ])
      expect(botError({ TRACKING_URL_TEMPLATE: bad })).toMatch(
        /^TRACKING_URL_TEMPLATE must be an https URL with \{tn\} once/,
      );
  });
});
