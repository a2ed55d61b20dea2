/**
 * The quote's views without Bolt: the form (rev in block ids once shown again), working, price, failure, the
 * channel message, within limits and escaped.
 */
// The quote's views without Bolt: the form with what was typed (rev in its block ids once shown again),
// "Getting a quote…", the price, the failure and the channel message, within Slack's limits and escaped.
import { describe, expect, it } from 'vitest';
import { quoteTyped } from '../../../fakes/quote-values.js';
import { stateFor } from '../../../fakes/view-state.js';
import { nextRev } from '../../../src/slack/kit/drafts.js';
import { readFormState } from '../../../src/slack/kit/forms.js';
import { quoteErrorView, quoteMessage, quoteResultView } from '../../../src/slack/quote/blocks.js';
import type { QuoteDraft } from '../../../src/slack/quote/draft.js';
import { quoteForm, quoteWorking } from '../../../src/slack/quote/steps.js';
import type { QuoteResult } from '../../../src/waybill/responses.js';
import { type QuoteRequest, validate } from '../../../src/waybill/schemas.js';
import { expectWithinSlackLimits, mrkdwnTexts } from '../../support/block-kit-limits.js';
import { draftOf, unitCore } from '../../support/unit-core.js';

const core = unitCore();
const hostile = '<!channel> & <@U1> <http://x|click>';
const escaped = '&lt;!channel&gt; &amp; &lt;@U1&gt; &lt;http://x|click&gt;';
const metadata = JSON.stringify({ draftId: 'D1' });
const price = { deliveryCharge: '270.00', vat: '32.40', totalCharge: '302.40' } as QuoteResult;

/** The quote typed into the form as Slack would send it back, read as the submission reads it. */
function typedQuote(over: Record<string, string> = {}): Record<string, unknown> {
  const form = quoteForm(core, draftOf<QuoteDraft>({ input: {} }, 'quote'));
  const typed = {
    ...quoteTyped,
    'package.weight': '2.5',
    'consignee.city': 'Cebu City',
    pickupDate: '2026-03-02',
    expectedDeliveryDate: '2026-03-03',
    serviceType: core.waybill.catalog.serviceTypes[0]?.value ?? '',
    quantity: '1',
    ...over,
  };
  return readFormState(stateFor(form.blocks, typed));
}

function quoteOf(input: Record<string, unknown>): QuoteRequest {
  const result = validate(core.schemas.quote, input);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.value;
}

describe('the quote form', () => {
  it('a new form: plain block ids; shown again at the next rev: new ones, with the values typed', () => {
    const input = typedQuote();
    const first = quoteForm(core, draftOf<QuoteDraft>({ input }, 'quote'));
    expectWithinSlackLimits(first);
    const ids = first.blocks.filter((b) => b.type === 'input').map((b) => b.block_id);
    expect(ids).toContain('shipper.city');
    const again = quoteForm(core, draftOf(nextRev<QuoteDraft>({ input })), ['A notice']);
    expectWithinSlackLimits(again);
    const city = again.blocks.find((b) => b.block_id === 'shipper.city#1');
    expect(JSON.stringify(city)).toContain('Makati');
    expect(again.blocks.filter((b) => ids.includes(b.block_id))).toEqual([]);
    expect(again.private_metadata).toBe(metadata);
  });

  it('notices are escaped', () => {
    const form = quoteForm(core, draftOf<QuoteDraft>({ input: {} }, 'quote'), [hostile]);
    expect(JSON.stringify(mrkdwnTexts(form))).toContain(escaped);
    for (const text of mrkdwnTexts(form)) expect(text).not.toContain('<!channel>');
  });
});

describe('the quote’s other views', () => {
  it('working, price, failure and the channel message within Slack’s limits, what was typed escaped', () => {
    // A city abroad: the Philippine place list would refuse the attack before it is shown.
    const quote = quoteOf(
      typedQuote({ 'shipper.city': hostile, 'shipper.country': 'SG', 'consignee.street': hostile }),
    );
    const { catalog, currency } = core.waybill;
    const message = quoteMessage({
      quote,
      price,
      currency,
      catalog,
      env: 'live',
      userId: 'U1',
      quoteId: 'D1',
    });
    const surfaces = [
      message,
      quoteWorking(core, draftOf<QuoteDraft>({ input: {} }, 'quote'), quote),
      quoteResultView({
        quote,
        price,
        currency,
        catalog,
        env: 'sandbox',
        metadata,
        postedNote: 'Posted in <#C1>.',
      }),
      quoteErrorView({ reason: hostile, env: 'test', metadata }),
    ];
    for (const surface of surfaces) {
      expectWithinSlackLimits(surface);
      for (const text of mrkdwnTexts(surface)) expect(text).not.toContain('<!channel>');
      expect(JSON.stringify(mrkdwnTexts(surface))).toContain(escaped);
    }
    expect(JSON.stringify(surfaces[2])).toContain('302.40');
    expect(message.text).toContain(escaped);
  });
});
