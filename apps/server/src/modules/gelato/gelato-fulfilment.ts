import {
  cancelOrder,
  createOrder,
  deleteOrder,
  type GelatoConn,
  type GOrder,
  getOrder,
  patchOrder,
  quoteOrder,
  searchOrders,
} from '../../integrations/gelato/api';
import { GelatoError } from '../../integrations/gelato/client';
import { combinedStatus, costOf, fileTypeOf, gelatoAddress } from '../../integrations/gelato/mapping';
import type { CatalogSourceImpl } from '../catalog/catalog.service';
import { AccountPrinter } from '../printers/account-printer';
import {
  type FulfilmentProvider,
  hasLine,
  type PrinterAccount,
  type PrinterOrder,
  type PrinterQuote,
  type PrinterShipment,
  type PrintOrderInput,
  type QuoteInput,
} from '../printers/fulfilment-provider';

/**
 * A FulfilmentProvider over Gelato's order API v4 (apis-next.md G): Gelato itself by the workspace's API key, and
 * the built-in Gelato sandbox (a fake Gelato in this process). An order is created as a `draft` (not produced, not
 * charged) and confirmed by PATCHing it into an `order`. Gelato accepts a second order under a used
 * `orderReferenceId`, so placing searches our id first. Gelato may split one order into several sharing that
 * reference (`connectedOrderIds`): the first part's id is the order's id, and every call covers all parts.
 * Webhooks are unsigned: an event names an order, and where it stands is read back from Gelato.
 */

export type GelatoAccount = PrinterAccount &
  GelatoConn & {
    /** The contact email Gelato requires on every shipping address (the seller's, given at connect). */
    email: string;
    /** Gelato's webhook URL is set in its dashboard; the sandbox takes it here. */
    setWebhookUrl?: (url: string) => Promise<void>;
  };

/** The currencies Gelato bills in that we ask for (else USD, shown apart from the store's). */
const BILLING = ['USD', 'EUR', 'GBP', 'CAD', 'AUD', 'SEK', 'DKK', 'NOK', 'CHF', 'PLN', 'JPY', 'NZD', 'SGD'];

export type GelatoFulfilmentOptions = {
  id: string;
  name: string;
  needsPublicUrl: boolean;
  /** The built-in Gelato sandbox rather than the seller's own account. */
  sandbox: boolean;
  connection(workspaceId: string): Promise<Omit<GelatoAccount, 'provider' | 'workspaceId'> | null>;
  catalogue(workspaceId: string): Promise<CatalogSourceImpl>;
  /** The productUid behind each catalogue variant id of ours. */
  uidsOf(ids: number[]): Promise<Map<number, string>>;
};

type GelatoWebhook = {
  id?: string;
  event?: string;
  object?: string;
  orderId?: string;
  orderReferenceId?: string;
  fulfillmentStatus?: string;
  status?: string;
  itemReferenceId?: string;
  trackingCode?: string;
};

const FOLLOWED = ['order_status_updated', 'order_item_status_updated', 'order_item_tracking_code_updated'];

export class GelatoFulfilment
  extends AccountPrinter<GelatoAccount, GelatoFulfilmentOptions>
  implements FulfilmentProvider
{
  constructor(options: GelatoFulfilmentOptions) {
    super(options, 'gelato');
  }

  /** The order with every part Gelato split it into; null when Gelato has none by this id. */
  private async parts(c: GelatoAccount, id: string): Promise<GOrder[] | null> {
    let first: GOrder;
    try {
      first = await getOrder(c, id);
    } catch (error) {
      if (error instanceof GelatoError && error.status === 404) return null;
      throw error;
    }
    const others = await Promise.all(
      (first.connectedOrderIds ?? []).map((other) => getOrder(c, other).catch(() => null)),
    );
    return [first, ...others.filter((o): o is GOrder => o !== null)];
  }

  /** Gelato's orders under one reference of ours, the earliest part first. */
  private async byReference(c: GelatoAccount, reference: string): Promise<GOrder[] | null> {
    const found = (await searchOrders(c, [reference])).orders.filter((o) => o.orderReferenceId === reference);
    if (found.length === 0) return null;
    return this.parts(c, (found[0] as { id: string }).id);
  }

  private toOrder(parts: GOrder[]): PrinterOrder {
    const first = parts[0] as GOrder;
    return { id: first.id, externalId: first.orderReferenceId, status: combinedStatus(parts), cost: costOf(parts) };
  }

  async placeOrder(account: PrinterAccount, input: PrintOrderInput): Promise<PrinterOrder> {
    const c = account as GelatoAccount;
    const found = (await this.byReference(c, input.externalId)) ?? (await this.earlierOrder(c, input));
    if (found) return this.toOrder(found);
    const ids = input.items.map((i) => Number(i.catalogVariantId));
    const uids = await this.options.uidsOf(ids);
    const currency = input.currency && BILLING.includes(input.currency) ? input.currency : 'USD';
    const created = await createOrder(c, {
      orderType: 'draft',
      orderReferenceId: input.externalId,
      customerReferenceId: input.externalId,
      currency,
      items: input.items.map((i) => {
        const uid = uids.get(Number(i.catalogVariantId));
        if (!uid) throw new GelatoError(400, 'unknown_variant', `no Gelato product for variant ${i.catalogVariantId}`);
        return {
          itemReferenceId: i.externalId,
          productUid: uid,
          files: i.files.map((f) => ({ type: fileTypeOf(f.placement), url: f.url })),
          quantity: i.quantity,
        };
      }),
      shippingAddress: gelatoAddress(input.recipient, c.email),
      metadata: [{ key: 'podforgeOrderId', value: input.externalId }],
    });
    return this.toOrder((await this.parts(c, created.id)) ?? [created]);
  }

  /**
   * `POST /v4/orders:quote`: one quote per production hub (a split order has several); per hub the cheapest
   * shipment method is taken, and the delivery time is the slowest hub's. Gelato may answer in another currency
   * than the one asked for (its figures are kept as they are).
   */
  async quote(account: PrinterAccount, input: QuoteInput): Promise<PrinterQuote> {
    const c = account as GelatoAccount;
    const uids = await this.options.uidsOf(input.items.map((i) => Number(i.catalogVariantId)));
    const r = input.recipient;
    const currency = input.currency && BILLING.includes(input.currency) ? input.currency : 'USD';
    const answer = await quoteOrder(c, {
      orderReferenceId: `quote-${Date.now()}`,
      customerReferenceId: account.workspaceId,
      currency,
      allowMultipleQuotes: false,
      recipient: {
        country: r.countryCode.toUpperCase() === 'UK' ? 'GB' : r.countryCode.toUpperCase(),
        ...(r.provinceCode ? { state: r.provinceCode } : {}),
        ...(r.zip ? { postCode: r.zip } : {}),
        ...(r.city ? { city: r.city } : {}),
        ...(r.address1 ? { addressLine1: r.address1 } : {}),
        email: c.email,
      },
      products: input.items.map((i, n) => {
        const uid = uids.get(Number(i.catalogVariantId));
        if (!uid) throw new GelatoError(400, 'unknown_variant', `no Gelato product for variant ${i.catalogVariantId}`);
        return { itemReferenceId: `item-${n + 1}`, productUid: uid, quantity: i.quantity };
      }),
    });
    if (answer.quotes.length === 0) throw new GelatoError(422, 'no_quote', 'Gelato gave no quote for this destination');
    const currencies = new Set(
      answer.quotes.flatMap((q) => [...q.products.map((p) => p.currency), ...q.shipmentMethods.map((m) => m.currency)]),
    );
    if (currencies.size !== 1) throw new GelatoError(422, 'mixed_currencies', 'Gelato quoted in several currencies');
    let products = 0;
    let shipping = 0;
    let min = 0;
    let max = 0;
    const methods: string[] = [];
    for (const q of answer.quotes) {
      products += q.products.reduce((s, p) => s + Math.round(p.price * 100), 0);
      const cheapest = [...q.shipmentMethods].sort((a, b) => a.price - b.price)[0];
      if (!cheapest)
        throw new GelatoError(422, 'no_shipping', `Gelato offers no shipping from ${q.fulfillmentCountry}`);
      shipping += Math.round(cheapest.price * 100);
      min = Math.max(min, cheapest.minDeliveryDays);
      max = Math.max(max, cheapest.maxDeliveryDays);
      methods.push(`${cheapest.name} from ${q.fulfillmentCountry}`);
    }
    return {
      currency: [...currencies][0] as string,
      products: (products / 100).toFixed(2),
      shipping: (shipping / 100).toFixed(2),
      total: ((products + shipping) / 100).toFixed(2),
      shippingMethod: methods.join(' + '),
      minDeliveryDays: min,
      maxDeliveryDays: max,
    };
  }

  /** An order an earlier Podforge placed under another id of ours, when it is this one (recipient and lines). */
  private async earlierOrder(c: GelatoAccount, input: PrintOrderInput): Promise<GOrder[] | null> {
    const wanted = gelatoAddress(input.recipient, c.email);
    const uids = await this.options.uidsOf(input.items.map((i) => Number(i.catalogVariantId)));
    const lines = (list: [string, string, number][]) => JSON.stringify(list.map((l) => l.join('|')).sort());
    const ours = lines(input.items.map((i) => [i.externalId, uids.get(Number(i.catalogVariantId)) ?? '', i.quantity]));
    for (const earlier of input.earlierExternalIds ?? []) {
      if (earlier === input.externalId) continue;
      const parts = await this.byReference(c, earlier);
      const a = parts?.[0]?.shippingAddress;
      if (!parts || !a || a.firstName !== wanted.firstName || a.lastName !== wanted.lastName) continue;
      if (a.postCode !== wanted.postCode) continue;
      const theirs = lines(
        parts.flatMap((p) =>
          p.items.map((i): [string, string, number] => [i.itemReferenceId, i.productUid, i.quantity]),
        ),
      );
      if (theirs === ours) return parts;
    }
    return null;
  }

  async order(account: PrinterAccount, ref: { id: string } | { externalId: string }) {
    const c = account as GelatoAccount;
    const parts = 'id' in ref ? await this.parts(c, ref.id) : await this.byReference(c, ref.externalId);
    return parts ? this.toOrder(parts) : null;
  }

  async confirm(account: PrinterAccount, id: string): Promise<PrinterOrder> {
    const c = account as GelatoAccount;
    const parts = await this.parts(c, id);
    if (!parts) throw new GelatoError(404, 'not_found', 'The order is no longer at Gelato');
    for (const part of parts.filter((p) => p.orderType === 'draft')) {
      try {
        // Every item is named: items left out of a PATCH are removed from the draft.
        await patchOrder(c, part.id, { orderType: 'order', items: part.items.map((i) => ({ id: i.id })) });
      } catch (error) {
        // Confirmed meanwhile (a lost answer, a second delivery): what Gelato holds is the truth.
        if (!(error instanceof GelatoError && error.status === 409)) throw error;
      }
    }
    return this.toOrder((await this.parts(c, id)) ?? parts);
  }

  async cancel(account: PrinterAccount, id: string): Promise<void> {
    const c = account as GelatoAccount;
    const parts = (await this.parts(c, id)) ?? [];
    for (const part of parts) {
      if (part.orderType === 'draft') await deleteOrder(c, part.id);
      else if (part.fulfillmentStatus !== 'canceled') await cancelOrder(c, part.id);
    }
  }

  async shipments(account: PrinterAccount, id: string): Promise<PrinterShipment[]> {
    const parts = (await this.parts(account as GelatoAccount, id)) ?? [];
    return parts.flatMap((p) =>
      (p.shipment?.packages ?? []).map((pkg) => {
        // A package names Gelato's item ids; each item carries our line id as its `itemReferenceId`, all of it.
        const lines = (pkg.orderItemIds ?? []).map((itemId) => {
          const item = p.items.find((i) => i.id === itemId);
          return { lineId: item?.itemReferenceId ?? null, quantity: item?.quantity ?? 0 };
        });
        return {
          id: pkg.id,
          carrier: p.shipment?.shipmentMethodName ?? null,
          trackingNumber: pkg.trackingCode || null,
          trackingUrl: pkg.trackingUrl || null,
          delivered: p.fulfillmentStatus === 'delivered',
          ...(lines.length > 0 && lines.every(hasLine) ? { lines } : {}),
        };
      }),
    );
  }

  /**
   * Gelato's webhook URL is set in its dashboard (no API): the sandbox takes it here; for Gelato itself the seller
   * enters it there. Nothing is signed, so there is no secret: the URL's unguessable id is what names the workspace.
   */
  async setWebhook(account: PrinterAccount, url: string): Promise<string> {
    await (account as GelatoAccount).setWebhookUrl?.(url);
    return 'unsigned';
  }

  /** Gelato signs nothing: any body is taken, and believed only after the order is read back (`unverified`). */
  verifyWebhook(): boolean {
    return true;
  }

  readWebhook(body: unknown) {
    const b = (body ?? {}) as GelatoWebhook;
    const event = b.event ?? (b.object === 'orderStatus' ? 'order_status_updated' : b.object);
    if (!event || !FOLLOWED.includes(event)) return null;
    if (typeof b.orderId !== 'string' && typeof b.orderReferenceId !== 'string') return null;
    // By our reference when given: a split order's parts each have their own id.
    const order =
      typeof b.orderReferenceId === 'string' ? { externalId: b.orderReferenceId } : { id: String(b.orderId) };
    const key =
      typeof b.id === 'string'
        ? b.id
        : JSON.stringify([event, b.orderId, b.itemReferenceId, b.fulfillmentStatus ?? b.status, b.trackingCode]);
    return { event: { order, unverified: true as const }, key };
  }

  explain(error: unknown) {
    if (!(error instanceof GelatoError)) return null;
    return {
      final: error.status >= 400 && error.status < 500 && error.status !== 429,
      text:
        error.status === 429
          ? `Gelato: its rate limit held (${error.message}) after every wait; the order is tried again later`
          : `Gelato: ${error.status === 409 ? `${error.message} (it is already in production)` : error.message}`,
    };
  }
}
