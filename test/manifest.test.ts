/** `manifest.yml` against Slack's manifest JSON Schema. */
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ids } from '../fakes/ids.js';
import { waybillHelp } from '../src/slack/waybill-command.js';

type Manifest = {
  display_information: { name?: string; description?: string };
  features: {
    bot_user?: { display_name: string };
    slash_commands: {
      command: string;
      description: string;
      usage_hint?: string;
      should_escape?: boolean;
      url?: string;
    }[];
    shortcuts: { name: string; type: 'message' | 'global'; callback_id: string; description: string }[];
    app_home?: Record<string, boolean>;
  };
  oauth_config: { scopes: Record<string, string[]> };
  settings: {
    interactivity: { is_enabled: boolean; request_url?: string; message_menu_options_url?: string };
    event_subscriptions?: { bot_events?: string[]; request_url?: string };
    socket_mode_enabled: boolean;
    org_deploy_enabled: boolean;
    token_rotation_enabled: boolean;
    function_runtime?: string;
  };
  functions?: Record<string, Step>;
};

type Parameter = { type: string; title?: string; is_required?: boolean };
type Step = {
  title: string;
  description: string;
  input_parameters: Record<string, Parameter>;
  output_parameters: Record<string, Parameter>;
};

const manifestText = readFileSync(new URL('../manifest.yml', import.meta.url), 'utf8');
const schema = JSON.parse(
  readFileSync(
    new URL('../fakes/slack-fixtures/schemas_manifest.schema.1.0.0.json', import.meta.url),
    'utf8',
  ),
) as Record<string, unknown>;

function loadManifest(): Manifest {
  return parse(manifestText) as Manifest;
}

function errorsOf(validate: ValidateFunction): string {
  return JSON.stringify(validate.errors, null, 2);
}

describe('manifest.yml', () => {
  let validate: ValidateFunction;

  beforeAll(() => {
    // The schema uses a non-standard `regex` keyword (so strict mode is off); implement it rather than
    // ignore it, and accept the `uri` format of `$schema` without pulling in ajv-formats.
    const ajv = new Ajv({ strict: false, allErrors: true, formats: { uri: true } });
    ajv.addKeyword({
      keyword: 'regex',
      type: 'string',
      schemaType: 'string',
      validate: (pattern: string, data: string) => new RegExp(pattern).test(data),
    });
    validate = ajv.compile(schema);
  });

  it('is valid against Slack’s manifest schema as it is (Socket Mode)', () => {
    const manifest = loadManifest();
    expect(validate(manifest), errorsOf(validate)).toBe(true);
    expect(manifest.display_information.name).toBe('Waybill Dispatch');
    expect(manifest.features.bot_user?.display_name).toBeTruthy();
    expect(manifest.settings).toMatchObject({
      interactivity: { is_enabled: true },
      socket_mode_enabled: true,
      org_deploy_enabled: true,
      function_runtime: 'remote',
      token_rotation_enabled: false,
    });
  });

  it('declares the workflow steps under the callback ids the bot handles, with their parameters', () => {
    const steps = loadManifest().functions ?? {};
    expect(Object.keys(steps)).toEqual([ids.stepQuote, ids.stepBook, ids.stepStatus, ids.stepFind]);
    const shape = Object.fromEntries(
      Object.entries(steps).map(([id, step]) => [
        id,
        {
          required: Object.entries(step.input_parameters)
            .filter(([, parameter]) => parameter.is_required)
            .map(([name]) => name),
          optional: Object.entries(step.input_parameters)
            .filter(([, parameter]) => !parameter.is_required)
            .map(([name]) => name),
          outputs: Object.keys(step.output_parameters),
        },
      ]),
    );
    expect(shape).toEqual({
      quote_delivery: {
        required: [
          'service_type',
          'weight_kg',
          'from_postal',
          'from_city',
          'to_postal',
          'to_city',
          'requested_by',
        ],
        optional: ['cod_amount', 'to_province'],
        outputs: ['delivery_charge', 'vat', 'total_charge', 'summary'],
      },
      book_waybill: {
        required: [
          'receiver_name',
          'receiver_phone',
          'receiver_address',
          'receiver_city',
          'weight_kg',
          'item_description',
          'channel_id',
          'requested_by',
        ],
        optional: [
          'sender_profile',
          'receiver_barangay',
          'receiver_province',
          'receiver_postal',
          'cod_amount',
          'declared_value',
          'parcels',
          'pickup_date',
        ],
        outputs: ['tracking_number', 'total_charge', 'card_link', 'outcome'],
      },
      record_status: {
        required: ['tracking_number', 'status', 'recorded_by'],
        optional: ['note'],
        outputs: ['status'],
      },
      find_waybill: {
        required: ['query', 'requested_by'],
        optional: [],
        outputs: ['tracking_numbers', 'summary'],
      },
    });
    for (const step of Object.values(steps)) {
      for (const parameter of [
        ...Object.values(step.input_parameters),
        ...Object.values(step.output_parameters),
      ])
        expect(parameter.title?.length).toBeGreaterThan(0);
    }
    expect(steps.quote_delivery?.input_parameters.requested_by?.type).toBe('slack#/types/user_id');
    expect(steps.book_waybill?.input_parameters.requested_by?.type).toBe('slack#/types/user_id');
    expect(steps.book_waybill?.input_parameters.channel_id?.type).toBe('slack#/types/channel_id');
    expect(steps.find_waybill?.output_parameters.tracking_numbers).toMatchObject({
      type: 'array',
      items: { type: 'string' },
    });
  });

  it('declares /quote, /book and /waybill with descriptions and usage hints', () => {
    const commands = loadManifest().features.slash_commands;
    expect(commands.map((c) => c.command)).toEqual(['/quote', '/book', '/waybill']);
    for (const command of commands) {
      expect(command.description.length).toBeGreaterThan(0);
      expect(command.usage_hint?.length).toBeGreaterThan(0);
      // Only /waybill needs mentions as member IDs (`assign … @person`); the others read text as typed.
      expect(command.should_escape).toBe(command.command === '/waybill');
      expect(command.url).toBeUndefined();
    }
    const hints = Object.fromEntries(commands.map((c) => [c.command, c.usage_hint]));
    expect(hints['/waybill']).toBe(
      'show | update | rebook | label <tracking number> [pdf|zpl] | find <words> | status <tracking number> <status> [note] | assign <tracking number> @person | addresses [name, phone or city] | export <from>..<to> | manifest [day] | digest | attention | remittance | cod | report [from..to] | recognise on|off | help',
    );
    // Every subcommand `/waybill help` names is in the hint Slack shows as the dispatcher types.
    const helpVerbs = [...waybillHelp().matchAll(/`\/waybill (\w+)/g)].map((match) => match[1]);
    expect(helpVerbs.length).toBeGreaterThan(8);
    const hintVerbs = (hints['/waybill'] ?? '').split(/[|\s]+/);
    expect(helpVerbs.filter((verb) => !hintVerbs.includes(verb as string))).toEqual([]);
    expect(hints['/book']).toBe('[import | help]');
    expect(hints['/quote']).toMatch(/weight=2\.5 to_postal=1200 .*\| help$/);
  });

  it('declares the shortcuts the bot listens for, under the callback ids it routes', () => {
    const shortcuts = loadManifest().features.shortcuts;
    expect(shortcuts.map(({ name, type, callback_id }) => [name, type, callback_id])).toEqual([
      ['Book from this message', 'message', ids.bookFromMessage],
      ['New booking', 'global', ids.bookNew],
      ['New quote', 'global', ids.quoteNew],
    ]);
  });

  it('asks for exactly the bot scopes the features need', () => {
    const { scopes } = loadManifest().oauth_config;
    expect(Object.keys(scopes)).toEqual(['bot']);
    expect([...(scopes.bot ?? [])].sort()).toEqual(
      [
        'chat:write',
        'chat:write.public',
        'commands',
        'im:write',
        'im:history',
        'usergroups:read',
        'users:read',
        'files:read',
        'files:write',
        'channels:history',
        'groups:history',
        'links:read',
        'links:write',
      ].sort(),
    );
  });

  it('has the Home tab and the event that draws it, a read-only Messages tab for the bot’s DMs, and the steps’ event', () => {
    const manifest = loadManifest();
    expect(manifest.features.app_home).toEqual({
      home_tab_enabled: true,
      messages_tab_enabled: true,
      messages_tab_read_only_enabled: true,
    });
    expect(manifest.settings.event_subscriptions).toEqual({
      bot_events: [
        'app_home_opened',
        'function_executed',
        'message.channels',
        'message.groups',
        'link_shared',
      ],
    });
  });

  it('documents every scope with a comment', () => {
    for (const scope of loadManifest().oauth_config.scopes.bot ?? []) {
      const line = manifestText.split('\n').findIndex((l) => l.trim() === `- ${scope}`);
      expect(line, scope).toBeGreaterThan(0);
      expect(manifestText.split('\n')[line - 1]?.trim().startsWith('#'), scope).toBe(true);
    }
  });

  it('is valid in HTTP mode too (socket mode off, URLs on commands and interactivity)', () => {
    const manifest = loadManifest();
    manifest.settings.socket_mode_enabled = false;
    for (const command of manifest.features.slash_commands) {
      command.url = 'https://dispatch.example.com/slack/events';
    }
    manifest.settings.interactivity.request_url = 'https://dispatch.example.com/slack/events';
    // The type-ahead menus' options come to the same endpoint.
    manifest.settings.interactivity.message_menu_options_url = 'https://dispatch.example.com/slack/events';
    if (manifest.settings.event_subscriptions) {
      manifest.settings.event_subscriptions.request_url = 'https://dispatch.example.com/slack/events';
    }
    expect(validate(manifest), errorsOf(validate)).toBe(true);
    for (const step of ['request_url', 'message_menu_options_url']) {
      expect(manifestText).toContain(`#   ${step}: https://<host>/slack/events`);
    }
  });

  it('the validator is live: it rejects an unknown scope type, a missing name and a bad URL', () => {
    const unknownScopeType = loadManifest();
    unknownScopeType.oauth_config.scopes.robot = ['chat:write'];
    expect(validate(unknownScopeType)).toBe(false);
    expect(errorsOf(validate)).toContain('additionalProperties');

    const noName = loadManifest();
    delete noName.display_information.name;
    expect(validate(noName)).toBe(false);
    expect(errorsOf(validate)).toContain("must have required property 'name'");

    const badUrl = loadManifest();
    badUrl.settings.interactivity.request_url = 'dispatch.example.com/slack/events';
    expect(validate(badUrl)).toBe(false);

    const badOptionsUrl = loadManifest();
    badOptionsUrl.settings.interactivity.message_menu_options_url = 'dispatch.example.com/slack/events';
    expect(validate(badOptionsUrl)).toBe(false);
    expect(errorsOf(validate)).toContain('message_menu_options_url');

    // Slack's manifest has no `select_menus` section: the options URL lives under interactivity.
    const unknownSection = loadManifest() as Manifest & { features: { select_menus?: unknown } };
    unknownSection.features.select_menus = { options_load_url: 'https://dispatch.example.com/slack/events' };
    expect(validate(unknownSection)).toBe(false);

    const longShortcut = loadManifest();
    const [first] = longShortcut.features.shortcuts;
    if (first) first.name = 'Book a waybill from this message';
    expect(validate(longShortcut)).toBe(false);
    expect(errorsOf(validate)).toContain('must NOT have more than 24 characters');

    const untypedInput = loadManifest();
    const quote = untypedInput.functions?.[ids.stepQuote];
    if (quote) quote.input_parameters.weight_kg = { title: 'Weight' } as Parameter;
    expect(validate(untypedInput)).toBe(false);
    expect(errorsOf(validate)).toContain("must have required property 'type'");

    const noOutputs = loadManifest();
    const { output_parameters: _dropped, ...withoutOutputs } =
      noOutputs.functions?.[ids.stepQuote] ?? ({} as Step);
    noOutputs.functions = { [ids.stepQuote]: withoutOutputs as Step };
    expect(validate(noOutputs)).toBe(false);
    expect(errorsOf(validate)).toContain("must have required property 'output_parameters'");

    const badColor = loadManifest() as Manifest & { display_information: { background_color?: string } };
    badColor.display_information.background_color = 'navy';
    expect(validate(badColor)).toBe(false);
  });
});
