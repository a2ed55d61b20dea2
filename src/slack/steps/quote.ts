/** quote_delivery: a delivery priced by the courier inside a workflow, checked by the Quotation schema. */

import type { App } from '@slack/bolt';
import { priceQuote } from '../../operations/quote.js';
import type { Store } from '../../store/index.js';
import { formatMoney } from '../../waybill/fields.js';
import { HOME_COUNTRY } from '../../waybill/phones.js';
import { validate } from '../../waybill/schemas.js';
import type { Core } from '../core.js';
import { stepActor } from '../guards/request-parts.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import { quoteDefaults, routeLine } from '../quote/index.js';
import { ids } from './ids.js';
import { type GivenInputs, refusal, type StepInputs, schemaInput } from './inputs.js';
import { runStep, type StepEnd, stepRequires } from './send.js';

const quoteInputs: StepInputs = {
  service_type: 'serviceType',
  weight_kg: 'package.weight',
  cod_amount: 'codAmount',
  from_postal: 'shipper.postal',
  from_city: 'shipper.city',
  to_postal: 'consignee.postal',
  to_city: 'consignee.city',
  to_province: 'consignee.region',
};

/**
 * The Quotation's input from the step's: today's pickup and tomorrow's delivery as on /quote, cash
 * on delivery when a COD amount is given, places in the courier's country, a parcel of the
 * catalogue's last package type (documents come first). A step has no street: the courier prices
 * by postal code and city, so each place's city stands for its address line.
 */
function quoteInput(deps: Pick<Core, 'waybill' | 'now'>, given: GivenInputs) {
  const { catalog } = deps.waybill;
  const cod = given.cod_amount !== undefined && given.cod_amount !== null && given.cod_amount !== '';
  const otherwise = catalog.paymentMethods.find((m) => m.value !== catalog.codPaymentMethod)?.value;
  const place = (city: unknown) => ({ street: typeof city === 'string' ? city : '', country: HOME_COUNTRY });
  return schemaInput(given, quoteInputs, {
    ...quoteDefaults(deps),
    paymentMethod: cod ? catalog.codPaymentMethod : otherwise,
    shipper: place(given.from_city),
    consignee: place(given.to_city),
    package: { type: catalog.packageTypes.at(-1)?.value },
  });
}

async function quoteStep(
  deps: Pick<Core, 'courier' | 'logger' | 'now' | 'schemas' | 'waybill'> & { store: Pick<Store, 'audit'> },
  given: GivenInputs,
  end: StepEnd,
): Promise<void> {
  const checked = validate(deps.schemas.quote, quoteInput(deps, given));
  if (!checked.ok) return void (await end.fail({ error: refusal(checked.errors, quoteInputs) }));
  const quote = checked.value;
  // Audited as /quote's are, so the requester's Home tab lists it with their recent quotes.
  const actor = stepActor(given);
  const priced = await priceQuote(deps, actor.ok ? actor.userId : '', quote);
  if (!priced.ok) return void (await end.fail({ error: `The courier did not price it: ${priced.reason}` }));
  const { price } = priced;
  const total = formatMoney(price.totalCharge, deps.waybill.currency);
  await end.complete({
    outputs: {
      delivery_charge: price.deliveryCharge,
      vat: price.vat,
      total_charge: price.totalCharge,
      // A workflow posts it in a message: what was typed is escaped.
      summary: `${escapeMrkdwn(routeLine(quote))}, ${quote.package.weight} kg: ${total}`,
    },
  });
}

export function register(app: App, deps: Core): void {
  app.function(ids.stepQuote, stepRequires(deps, 'quote'), async ({ inputs, complete, fail }) => {
    runStep(deps, ids.stepQuote, { complete, fail }, () => quoteStep(deps, inputs, { complete, fail }));
  });
}
