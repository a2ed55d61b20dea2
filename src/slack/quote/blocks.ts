/** Block Kit for quotes: the form, "Getting a quote…", the price or the failure, and the channel message. */
import type { KnownBlock, ModalView } from '@slack/types';
import type { Catalog } from '../../waybill/catalog.js';
import { labelOf } from '../../waybill/catalog.js';
import type { QuoteResult } from '../../waybill/responses.js';
import type { QuoteRequest } from '../../waybill/schemas.js';
import type { WaybillEnv } from '../../waybill/settings.js';
import { packageVolume } from '../../waybill/wire.js';
import { partyPicker } from '../addresses/index.js';
import {
  context,
  environmentNotice,
  environmentTag,
  facts,
  formatMoney,
  header,
  placeLine,
  plain,
  retryActions,
  section,
} from '../kit/blocks.js';
import { inputBlocks } from '../kit/forms.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import type { FormSection } from './form.js';
import { ids } from './ids.js';

export interface QuoteFormInput {
  sections: readonly FormSection[];
  required: ReadonlySet<string>;
  values: unknown;
  metadata: string;
  notices?: readonly string[];
  env: WaybillEnv;
  /** Changed when the form is shown again with new values (a saved party chosen), so Slack shows them. */
  suffix?: string;
}

export function quoteFormView({
  sections,
  required,
  values,
  metadata,
  notices = [],
  env,
  suffix,
}: QuoteFormInput): ModalView {
  const blocks: KnownBlock[] = [
    ...environmentNotice(env),
    ...notices.map((notice) => context(`:warning: ${escapeMrkdwn(notice)}`)),
  ];
  for (const part of sections) {
    blocks.push(header(part.title));
    if (part.note) blocks.push(context(part.note));
    if (part.party)
      blocks.push(partyPicker({ ...part.party, party: part.party.path, actionId: ids.quoteParty, suffix }));
    blocks.push(...inputBlocks(part.fields, { values, required, suffix }));
  }
  return {
    type: 'modal',
    callback_id: ids.quoteForm,
    title: plain('Get a quote'),
    submit: plain('Get quote'),
    close: plain('Cancel'),
    private_metadata: metadata,
    notify_on_close: true,
    blocks,
  };
}

function packageLine(quote: QuoteRequest, catalog: Catalog): string {
  const pkg = quote.package;
  const size =
    pkg.length !== undefined && pkg.width !== undefined && pkg.height !== undefined
      ? `, ${pkg.length} × ${pkg.width} × ${pkg.height} cm`
      : '';
  const volume = packageVolume(pkg);
  const volumeText = pkg.volume !== undefined && volume !== undefined ? `, ${volume} cm³` : '';
  return `${labelOf(catalog.packageTypes, pkg.type)}, ${pkg.weight} kg${size}${volumeText}, ${quote.quantity} parcel${quote.quantity === 1 ? '' : 's'}`;
}

export function routeLine(quote: Pick<QuoteRequest, 'shipper' | 'consignee'>): string {
  return `${placeLine(quote.shipper)} → ${placeLine(quote.consignee)}`;
}

export interface QuoteSummaryInput {
  quote: QuoteRequest;
  catalog: Catalog;
  currency: string;
}

export function quoteSummaryFacts({ quote, catalog, currency }: QuoteSummaryInput) {
  const isCod = quote.paymentMethod === catalog.codPaymentMethod;
  return facts([
    ['Route', routeLine(quote)],
    ['Package', packageLine(quote, catalog)],
    ['Service', labelOf(catalog.serviceTypes, quote.serviceType)],
    ['Payment', labelOf(catalog.paymentMethods, quote.paymentMethod)],
    ['Pickup', quote.pickupDate],
    ['Expected delivery', quote.expectedDeliveryDate],
    ['COD amount', isCod ? formatMoney(quote.codAmount, currency) : undefined],
    [
      'Declared value',
      quote.declaredValue === '0.00' ? undefined : formatMoney(quote.declaredValue, currency),
    ],
  ]);
}

export function quoteWorkingView(
  input: QuoteSummaryInput & { env: WaybillEnv; metadata: string },
): ModalView {
  return {
    type: 'modal',
    callback_id: ids.quoteWorking,
    title: plain('Get a quote'),
    close: plain('Close'),
    private_metadata: input.metadata,
    notify_on_close: true,
    blocks: [
      ...environmentNotice(input.env),
      section(':hourglass_flowing_sand: *Getting a quote…*'),
      ...quoteSummaryFacts(input),
      context('You can close this window: the price will also be posted to the channel.'),
    ],
  };
}

function priceFacts(price: QuoteResult, currency: string) {
  return facts([
    ['Delivery charge', formatMoney(price.deliveryCharge, currency)],
    ['VAT', formatMoney(price.vat, currency)],
    ['Total charge', formatMoney(price.totalCharge, currency)],
  ]);
}

export interface QuoteOutcomeInput extends QuoteSummaryInput {
  price: QuoteResult;
  env: WaybillEnv;
  metadata: string;
  /** Where the quote was posted, e.g. "Posted in <#C123>." (mrkdwn, already safe). */
  postedNote: string;
}

export function quoteResultView(input: QuoteOutcomeInput): ModalView {
  return {
    type: 'modal',
    callback_id: ids.quoteResult,
    title: plain('Quote'),
    close: plain('Done'),
    private_metadata: input.metadata,
    blocks: [
      ...environmentNotice(input.env),
      section(`*Total: ${formatMoney(input.price.totalCharge, input.currency)}*`),
      ...priceFacts(input.price, input.currency),
      { type: 'divider' },
      ...quoteSummaryFacts(input),
      context(input.postedNote),
      {
        type: 'actions',
        elements: [{ type: 'button', action_id: ids.quoteBack, text: plain('Change and quote again') }],
      },
    ],
  };
}

export interface QuoteErrorInput {
  /** The reason in plain words (not yet escaped). */
  reason: string;
  env: WaybillEnv;
  metadata: string;
}

export function quoteErrorView({ reason, env, metadata }: QuoteErrorInput): ModalView {
  return {
    type: 'modal',
    callback_id: ids.quoteResult,
    title: plain('Quote failed'),
    close: plain('Close'),
    private_metadata: metadata,
    blocks: [
      ...environmentNotice(env),
      section(`:warning: *No quote this time.*\n${escapeMrkdwn(reason)}`),
      context('Everything you typed is kept: go back to the form to change it, or try again as it is.'),
      retryActions(ids.quoteBack, ids.quoteRetry),
    ],
  };
}

export interface QuoteMessageInput extends QuoteSummaryInput {
  price: QuoteResult;
  env: WaybillEnv;
  userId: string;
  /** The stored quote a "Book this" click books from. */
  quoteId: string;
}

export function quoteMessage(input: QuoteMessageInput): { text: string; blocks: KnownBlock[] } {
  const total = formatMoney(input.price.totalCharge, input.currency);
  return {
    text: `Quote${environmentTag(input.env)}: ${escapeMrkdwn(routeLine(input.quote))}, total ${total}`,
    blocks: [
      section(`:receipt: *Quote${environmentTag(input.env)}* for <@${input.userId}>: *${total}*`),
      ...environmentNotice(input.env),
      ...priceFacts(input.price, input.currency),
      ...quoteSummaryFacts(input),
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            action_id: ids.bookFromQuote,
            text: plain('Book this'),
            value: input.quoteId,
            style: 'primary',
          },
        ],
      },
    ],
  };
}
