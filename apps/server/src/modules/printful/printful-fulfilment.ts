import { createHmac, timingSafeEqual } from 'node:crypto';
import type { TOrderStatus } from '@podforge/contract';
import { PrintfulError } from '../../integrations/printful/client';
import {
  cancelOrder,
  confirmOrder,
  createOrder,
  deleteOrder,
  findOrder,
  type PrintfulConn,
  type PrintfulOrder,
  type PrintfulOrderInput,
  printfulWebhookKey,
  setWebhooks,
  shipments,
  shippingRates,
} from '../../integrations/printful/orders';
import type { CatalogSourceImpl } from '../catalog/catalog.service';
import { AccountPrinter } from '../printers/account-printer';
import {
  type FulfilmentProvider,
  hasLine,
  type PrinterAccount,
  type PrinterEvent,
  type PrinterOrder,
  type PrinterQuote,
  type PrinterShipment,
  type PrintOrderInput,
  type QuoteInput,
} from '../printers/fulfilment-provider';

/**
 * A FulfilmentProvider over the Printful v2 API: Printful itself, and the built-in sandbox printer (a fake Printful
 * in this process) with its own accounts. An order is created as a draft (nothing charged) and confirmed
 * separately; `external_id` is ours, so `@external_id` finds what an earlier attempt created.
 */

type Account = PrinterAccount & PrintfulConn;

const PRINTFUL_STATUS: Record<string, TOrderStatus> = {
  pending: 'sent',
  inprocess: 'in_production',
  // Some parcels shipped, the rest to follow (OpenAPI Order.status): shipped, so each parcel's tracking goes out.
  partial: 'shipped',
  onhold: 'on_hold',
  failed: 'failed',
  canceled: 'cancelled',
  fulfilled: 'shipped',
};

/** Printful's webhook body, as far as we read it. */
type PrintfulEvent = {
  type: string;
  occurred_at?: string;
  data?: {
    reason?: string;
    order?: { id?: number | string; external_id?: string; status?: string };
    shipment?: { id?: number; tracking_number?: string };
  };
};

const toOrder = (pf: PrintfulOrder): PrinterOrder => ({
  id: String(pf.id),
  externalId: pf.external_id,
  status: pf.status === 'draft' ? 'draft' : (PRINTFUL_STATUS[pf.status] ?? 'sent'),
  ...(pf.status === 'partial' ? { moreToShip: true as const } : {}),
  cost:
    pf.costs?.total && pf.costs.currency && pf.costs.calculation_status !== 'calculating'
      ? { total: Number(pf.costs.total).toFixed(2), currency: pf.costs.currency }
      : null,
});

/** The Printful v2 order for our input: catalogue variant, quantity, retail price, print files by URL. */
function printfulInput(input: PrintOrderInput): PrintfulOrderInput {
  const address = input.recipient;
  return {
    external_id: input.externalId,
    shipping: 'STANDARD',
    recipient: {
      name: address.name || 'Customer',
      address1: address.address1,
      ...(address.address2 ? { address2: address.address2 } : {}),
      city: address.city,
      ...(address.provinceCode ? { state_code: address.provinceCode } : {}),
      country_code: address.countryCode,
      zip: address.zip,
      ...(address.phone ? { phone: address.phone } : {}),
    },
    order_items: input.items.map((i) => ({
      source: 'catalog',
      catalog_variant_id: Number(i.catalogVariantId),
      quantity: i.quantity,
      retail_price: i.retailPrice,
      name: i.name,
      external_id: i.externalId,
      placements: i.files.map((f) => ({
        placement: f.placement,
        technique: f.technique,
        layers: [{ type: 'file', url: f.url }],
      })),
    })),
  };
}

/** The fields of a Printful webhook we act on, in our words. */
export function printerEventOf(body: PrintfulEvent): PrinterEvent | null {
  const ref = body.data?.order;
  if (!ref?.id && !ref?.external_id) return null;
  const order = {
    ...(ref.id !== undefined ? { id: String(ref.id) } : {}),
    ...(ref.external_id !== undefined ? { externalId: String(ref.external_id) } : {}),
  };
  const reason = body.data?.reason;
  const s = body.data?.shipment;
  const shipment = s
    ? {
        ...(s.id !== undefined ? { id: String(s.id) } : {}),
        ...(s.tracking_number ? { trackingNumber: String(s.tracking_number) } : {}),
      }
    : undefined;
  switch (body.type) {
    case 'shipment_sent':
      // One parcel of an order shipped in parts (its order `partial`): the rest is still to come.
      return {
        order,
        to: 'shipped',
        ...(shipment ? { shipment } : {}),
        ...(ref.status === 'partial' ? { moreToShip: true as const } : {}),
      };
    case 'order_failed':
      return { order, to: 'failed', failureReason: `Printful: ${reason ?? 'the order failed'}`.slice(0, 500) };
    case 'order_canceled':
      return { order, to: 'cancelled' };
    case 'order_put_hold':
    case 'order_put_hold_approval':
      return { order, to: 'on_hold', failureReason: reason ? `On hold: ${reason}` : null };
    case 'order_remove_hold':
      return { order, to: 'in_production', failureReason: null };
    case 'order_created':
    case 'order_updated': {
      const to = PRINTFUL_STATUS[ref.status ?? ''];
      if (!to) return null;
      if (ref.status === 'partial') return { order, to, moreToShip: true };
      return to === 'shipped' || to === 'failed' ? { order, to } : { order, to, failureReason: null };
    }
    default:
      return null;
  }
}

export type PrintfulFulfilmentOptions = {
  id: string;
  name: string;
  network?: string;
  sandbox?: boolean;
  fallback: boolean;
  needsPublicUrl: boolean;
  /** The workspace's connection (client, token, store), or null when not connected. */
  connection(workspaceId: string): Promise<PrintfulConn | null>;
  catalogue(workspaceId: string): Promise<CatalogSourceImpl>;
  /** The network's catalogue as sellers browse it (`FulfilmentProvider.networkCatalogue`). */
  networkCatalogue?: (workspaceId: string) => Promise<CatalogSourceImpl>;
  /** Waits between reads of an order whose costs are still calculating (tests: no wait). */
  sleep?: (ms: number) => Promise<void>;
};

/**
 * Waits before each re-read of an order whose costs Printful is still calculating (the first re-read at once): about
 * 6 s in all, then the placement is retried later by its job (the order is found again by its external id).
 */
const COST_WAITS_MS = [0, 200, 400, 800, 1600, 3200];

export class PrintfulFulfilment
  extends AccountPrinter<Account, PrintfulFulfilmentOptions>
  implements FulfilmentProvider
{
  constructor(options: PrintfulFulfilmentOptions) {
    super(options, 'printful');
  }

  async placeOrder(account: PrinterAccount, input: PrintOrderInput): Promise<PrinterOrder> {
    const c = account as Account;
    const pf =
      (await findOrder(c, `@${input.externalId}`)) ??
      (await this.earlierOrder(c, input)) ??
      (await createOrder(c, printfulInput(input)));
    return toOrder(await this.withCosts(c, pf));
  }

  /**
   * The order once Printful has calculated its costs: right after a create they are `calculating` with null amounts
   * (OpenAPI Costs), and a quote of null or zero must never be kept. Still calculating after the waits: a retryable
   * error (the job places again later and finds this order); `failed`: a refusal the seller sees.
   */
  private async withCosts(c: Account, placed: PrintfulOrder): Promise<PrintfulOrder> {
    const ready = (o: PrintfulOrder) => o.costs?.calculation_status !== 'calculating' && o.costs?.total != null;
    const sleep = this.options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
    let pf = placed;
    for (const wait of COST_WAITS_MS) {
      if (pf.costs?.calculation_status === 'failed') {
        throw new PrintfulError(422, 'Printful could not calculate the order’s costs');
      }
      if (ready(pf)) return pf;
      if (wait > 0) await sleep(wait);
      pf = (await findOrder(c, String(pf.id))) ?? pf;
    }
    if (ready(pf)) return pf;
    throw new PrintfulError(503, 'Printful is still calculating the order’s costs; it is read again shortly');
  }

  /** The order an earlier Podforge placed under another id of ours, when it is this one (recipient and lines). */
  private async earlierOrder(c: Account, input: PrintOrderInput): Promise<PrintfulOrder | null> {
    const lines = (items: { externalId: string; variant: string; quantity: number }[]) =>
      JSON.stringify(items.map((i) => [i.externalId, i.variant, i.quantity]).sort());
    const wanted = lines(
      input.items.map((i) => ({ externalId: i.externalId, variant: i.catalogVariantId, quantity: i.quantity })),
    );
    for (const earlier of input.earlierExternalIds ?? []) {
      if (earlier === input.externalId) continue;
      const pf = await findOrder(c, `@${earlier}`);
      if (
        !pf ||
        pf.recipient?.name !== (input.recipient.name || 'Customer') ||
        pf.recipient?.zip !== input.recipient.zip
      )
        continue;
      const theirs = lines(
        (pf.order_items ?? []).map((i) => ({
          externalId: String(i.external_id ?? ''),
          variant: String(i.catalog_variant_id ?? ''),
          quantity: Number(i.quantity ?? 0),
        })),
      );
      if (theirs === wanted) return pf;
    }
    return null;
  }

  /**
   * Printful v2 has no order estimate: the items cost what the catalogue says (the variant's price), shipping is
   * `/v2/shipping-rates` (STANDARD when offered, else the cheapest), with its delivery days.
   */
  async quote(account: PrinterAccount, input: QuoteInput): Promise<PrinterQuote> {
    const c = account as Account;
    const catalogue = await this.options.catalogue(account.workspaceId);
    const listings = await catalogue.listings();
    let products = 0;
    let currency: string | null = null;
    for (const item of input.items) {
      const listing = listings.find((l) => l.id === item.catalogProductId);
      const product = listing ? await catalogue.product(listing) : null;
      const variant = product?.variants.find((v) => String(v.id) === item.catalogVariantId);
      if (!product || !variant) throw new PrintfulError(404, `catalogue variant ${item.catalogVariantId} not found`);
      if (currency && currency !== product.currency)
        throw new PrintfulError(422, 'the items are priced in two currencies');
      currency = product.currency;
      products += Math.round(Number(variant.price) * 100) * item.quantity;
    }
    const r = input.recipient;
    const rates = await shippingRates(c, {
      recipient: {
        // Shipping is priced by country, state and post code; Printful requires an address line and city too.
        address1: r.address1 || 'Address to be given',
        city: r.city || 'City to be given',
        country_code: r.countryCode,
        ...(r.provinceCode ? { state_code: r.provinceCode } : {}),
        ...(r.zip ? { zip: r.zip } : {}),
      },
      order_items: input.items.map((i) => ({
        source: 'catalog' as const,
        catalog_variant_id: Number(i.catalogVariantId),
        quantity: i.quantity,
      })),
      ...(input.currency ? { currency: input.currency } : {}),
    });
    const rate =
      rates.find((x) => x.shipping === 'STANDARD') ?? [...rates].sort((a, b) => Number(a.rate) - Number(b.rate))[0];
    if (!rate) throw new PrintfulError(422, `Printful offers no shipping to ${r.countryCode}`);
    if (currency && rate.currency !== currency) {
      throw new PrintfulError(422, `items are priced in ${currency} but shipping in ${rate.currency}`);
    }
    const shipping = Math.round(Number(rate.rate) * 100);
    return {
      currency: rate.currency,
      products: (products / 100).toFixed(2),
      shipping: (shipping / 100).toFixed(2),
      total: ((products + shipping) / 100).toFixed(2),
      shippingMethod: rate.shipping_method_name,
      minDeliveryDays: rate.min_delivery_days ?? null,
      maxDeliveryDays: rate.max_delivery_days ?? null,
    };
  }

  async order(account: PrinterAccount, ref: { id: string } | { externalId: string }) {
    const pf = await findOrder(account as Account, 'id' in ref ? ref.id : `@${ref.externalId}`);
    return pf ? toOrder(pf) : null;
  }

  async confirm(account: PrinterAccount, id: string): Promise<PrinterOrder> {
    const c = account as Account;
    try {
      return toOrder(await confirmOrder(c, id));
    } catch (error) {
      // Confirmed already (a lost answer, a second delivery): what Printful holds is the truth.
      if (!(error instanceof PrintfulError && error.status === 409)) throw error;
      const current = await findOrder(c, id);
      if (!current || current.status === 'draft') throw error;
      return toOrder(current);
    }
  }

  async cancel(account: PrinterAccount, id: string): Promise<void> {
    const c = account as Account;
    const pf = await findOrder(c, id);
    if (pf && pf.status !== 'canceled') {
      if (pf.status === 'draft' || pf.status === 'failed') await deleteOrder(c, String(pf.id));
      else await cancelOrder(c, String(pf.id));
    }
  }

  async shipments(account: PrinterAccount, id: string): Promise<PrinterShipment[]> {
    // Parcels that left (OpenAPI Shipment.shipment_status); one pending, packaged, on hold or cancelled has no
    // tracking for the buyer yet, or never will.
    const list = (await shipments(account as Account, id)).filter((s) =>
      ['shipped', 'returned'].includes(s.shipment_status),
    );
    // A shipment item names our line by its `order_item_external_id`; one without it is found by Printful's item id.
    const needsOrder = list.some((s) => s.shipment_items?.some((i) => !i.order_item_external_id));
    const items = needsOrder ? ((await findOrder(account as Account, id))?.order_items ?? []) : [];
    const lineOf = (i: { order_item_id: number; order_item_external_id?: string | null }) =>
      i.order_item_external_id ?? items.find((o) => o.id === i.order_item_id)?.external_id ?? null;
    return list.map((s) => {
      const lines = (s.shipment_items ?? []).map((i) => ({ lineId: lineOf(i), quantity: i.quantity }));
      return {
        id: String(s.id),
        carrier: s.carrier ?? null,
        trackingNumber: s.tracking_number ?? null,
        trackingUrl: s.tracking_url ?? null,
        // OpenAPI Shipment: delivery_status 'delivered', and delivered_at once it is.
        delivered: s.delivery_status === 'delivered' || Boolean(s.delivered_at),
        // Only when every item is one of our lines: else the shipment says nothing we can pass on.
        ...(lines.length > 0 && lines.every(hasLine) ? { lines } : {}),
      };
    });
  }

  setWebhook(account: PrinterAccount, url: string) {
    return setWebhooks(account as Account, url);
  }

  /**
   * True when the header is the hex HMAC-SHA256 of the raw bytes with the secret key as Printful issues it: hex,
   * decoded to bytes (apis.md B6); a signature made with the key's text as UTF-8 is not Printful's and is refused.
   * Compared in constant time.
   */
  verifyWebhook(raw: Buffer, headers: Record<string, unknown>, secret: string): boolean {
    const header = headers['x-pf-webhook-signature'];
    const key = printfulWebhookKey(secret);
    if (!key || typeof header !== 'string' || !/^[0-9a-f]{64}$/i.test(header)) return false;
    const expected = createHmac('sha256', key).update(raw).digest();
    return timingSafeEqual(expected, Buffer.from(header, 'hex'));
  }

  readWebhook(body: unknown) {
    const event = body as PrintfulEvent;
    const read = printerEventOf(event);
    if (!read) return null;
    // Printful's retries carry the same event (only `retries` changes): one key per event.
    const key = JSON.stringify([
      event.type,
      event.occurred_at,
      event.data?.order?.id,
      event.data?.order?.status,
      event.data?.shipment?.id,
    ]);
    return { event: read, key };
  }

  explain(error: unknown) {
    if (!(error instanceof PrintfulError)) return null;
    return {
      final: error.status >= 400 && error.status < 500 && error.status !== 429,
      text: `Printful: ${error.message}`,
    };
  }
}
