/** Workflow Builder steps end to end: `function_executed` over HTTP and Socket Mode, ended through the fake Slack's functions.completeSuccess / completeError. */
import { afterEach, describe, expect, it } from 'vitest';
import { ids } from '../../src/slack/kit/ids.js';
import { parseCents } from '../../src/waybill/fields.js';
import { startTestBot, type TestBot } from '../support/bot-harness.js';

let bot: TestBot | undefined;

afterEach(async () => {
  await bot?.stop();
  bot = undefined;
});

const quoteInputs = {
  service_type: 'DOOR_TO_DOOR',
  weight_kg: 2.5,
  from_postal: '1600',
  from_city: 'Pasig',
  to_postal: '6000',
  to_city: 'Cebu <City> & Co',
  requested_by: 'UDISPATCH',
};

// biome-ignore lint/suspicious/noExplicitAny: the outputs as Slack receives them
const outputsOf = (call: { body: Record<string, unknown> }): Record<string, any> =>
  call.body.outputs as Record<string, unknown>;

describe('quote_delivery', () => {
  for (const socketMode of [false, true]) {
    it(`prices a delivery with the courier and completes with its figures (${socketMode ? 'Socket Mode' : 'HTTP'})`, async () => {
      bot = await startTestBot({ socketMode });
      const { response, completion } = await bot.step({ callbackId: ids.stepQuote, inputs: quoteInputs });
      expect(response.status).toBe(200);
      expect(completion.method, String(completion.body.error)).toBe('functions.completeSuccess');
      // Ended with the workflow's own token, as Bolt does for a step.
      expect(completion.token).toMatch(/^xwfp-/);
      const outputs = outputsOf(completion);
      for (const key of ['delivery_charge', 'vat', 'total_charge'])
        expect(outputs[key]).toMatch(/^\d+\.\d\d$/);
      const cents = (key: string) => parseCents(outputs[key]) ?? -1n;
      expect(cents('total_charge')).toBe(cents('delivery_charge') + cents('vat'));
      expect(cents('total_charge')).toBeGreaterThan(0n);
      // What the courier was asked, from the step's inputs.
      expect(bot.sandbox.received.map((r) => r.operation)).toEqual(['quote']);
      expect(bot.sandbox.received[0]?.body).toMatchObject({
        shipperPostal: '1600',
        consigneePostal: '6000',
        packageWeight: '2.5',
        paymentMethod: 'PREPAID',
      });
      // The city typed with mrkdwn's characters is escaped in the summary a workflow posts.
      expect(outputs.summary).toContain('Cebu &lt;City&gt; &amp; Co');
      expect(outputs.summary).toContain(outputs.total_charge);
    });
  }

  it('asks for cash on delivery when a COD amount is given', async () => {
    bot = await startTestBot();
    const { completion } = await bot.step({
      callbackId: ids.stepQuote,
      inputs: { ...quoteInputs, cod_amount: '1500.00', to_province: 'Cebu' },
    });
    expect(completion.method, String(completion.body.error)).toBe('functions.completeSuccess');
    expect(bot.sandbox.received[0]?.body).toMatchObject({ paymentMethod: 'COD', codAmount: '1500.00' });
  });

  it('fails on inputs the Quotation schema refuses, naming each input, without asking the courier', async () => {
    bot = await startTestBot();
    const { completion } = await bot.step({
      callbackId: ids.stepQuote,
      inputs: { ...quoteInputs, weight_kg: 'heavy', cod_amount: '12.345', service_type: 'BY_PIGEON' },
    });
    expect(completion.method).toBe('functions.completeError');
    const error = String(completion.body.error);
    expect(error).toMatch(/weight_kg: Package weight/);
    expect(error).toMatch(/cod_amount: COD amount must be an amount with at most two decimals/);
    expect(error).toMatch(/service_type: Service type/);
    expect(bot.sandbox.received).toEqual([]);
  });

  it('checks the user the step names: one not allowed to quote is refused, recorded, and the courier never asked', async () => {
    bot = await startTestBot({ env: { ALLOWED_USER_IDS: 'UDISPATCH' } });
    const { completion } = await bot.step({
      callbackId: ids.stepQuote,
      inputs: { ...quoteInputs, requested_by: 'UINTRUDER' },
    });
    expect(completion.method).toBe('functions.completeError');
    expect(String(completion.body.error)).toContain('not on the list of people who may quote waybills');
    expect(bot.sandbox.received).toEqual([]);
    const refused = await bot.deps.store.audit.list({ userId: 'UINTRUDER' });
    expect(refused.map((entry) => [entry.operation, entry.outcome])).toEqual([['quote', 'refused']]);

    const allowed = await bot.step({ callbackId: ids.stepQuote, inputs: quoteInputs });
    expect(allowed.completion.method, String(allowed.completion.body.error)).toBe(
      'functions.completeSuccess',
    );
  });
});
