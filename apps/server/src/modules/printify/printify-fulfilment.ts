import { randomBytes, timingSafeEqual } from 'node:crypto';
import {
  cancelOrder,
  createOrder,
  createWebhook,
  deleteWebhook,
  findOrderByExternalId,
  getOrder,
  listProviders,
  listWebhooks,
  type PfyOrder,
  PRINTIFY_ORDER_TOPICS,
  type PrintifyConn,
  sendToProduction,
  shippingCosts,
} from '../../integrations/printify/api';
import { PrintifyError } from '../../integrations/printify/client';
import { signPrintifyWebhook } from '../../integrations/printify/fake-server';
import {
  centsToDecimal,
  eventOf,
  orderCostCents,
  orderInput,
  type PrintifyEnvelope,
  splitName,
  statusOf,
} from '../../integrations/printify/mapping';
import type { CatalogSourceImpl } from '../catalog/catalog.service';
import { AccountPrinter } from '../printers/account-printer';
import type {
  FulfilmentProvider,
  PrinterAccount,
  PrinterOrder,
  PrinterQuote,
  PrinterShipment,
  PrintOrderInput,
  QuoteInput,
} from '../printers/fulfilment-provider';

/**
 * A FulfilmentProvider over Printify's v1 API: a workspace's Printify shop (personal access token), and the built-in
 * Printify sandbox (a fake Printify in this process) with its own accounts. Printify has no drafts and no
 * deduplication: an order is created on hold (the shop's approval kept manual, nothing is produced or charged before
 * `send_to_production`), and before creating one the shop's newest orders are read for our external id, so a retry
 * after a lost answer finds the first. Money comes as integer cents with no currency: the account's billing
 * currency, which the seller states when connecting, names it.
 */

export type PrintifyAccount = PrinterAccount & PrintifyConn & { currency: string };

export type PrintifyFulfilmentOptions = {
  id: string;
  name: string;
  sandbox: boolean;
  needsPublicUrl: boolean;
  connection(workspaceId: string): Promise<(PrintifyConn & { currency: string; name?: string | null }) | null>;
  catalogue(workspaceId: string): Promise<CatalogSourceImpl>;
};

export class PrintifyFulfilment
  extends AccountPrinter<PrintifyAccount, PrintifyFulfilmentOptions>
  implements FulfilmentProvider
{
  /** The first print provider Printify lists for a blueprint (the one Podforge's catalogue shows), per blueprint. */
  private readonly providerOf = new Map<number, Promise<number>>();
  constructor(options: PrintifyFulfilmentOptions) {
    super(options, 'printify');
  }

  private toOrder(o: PfyOrder, externalId: string, currency: string): PrinterOrder {
    return {
      id: o.id,
      externalId,
      status: statusOf(o.status),
      cost: o.line_items.length ? { total: centsToDecimal(orderCostCents(o)), currency } : null,
    };
  }

  private external = (o: PfyOrder) => String(o.metadata?.shop_order_id ?? '');

  private printProvider(c: PrintifyAccount, blueprintId: number): Promise<number> {
    let found = this.providerOf.get(blueprintId);
    if (!found) {
      found = listProviders(c.client, c.token, blueprintId).then((list) => {
        const first = list[0];
        if (!first) throw new PrintifyError(400, `Printify has no print provider for blueprint ${blueprintId}`);
        return first.id;
      });
      found.catch(() => this.providerOf.delete(blueprintId));
      this.providerOf.set(blueprintId, found);
    }
    return found;
  }

  async placeOrder(account: PrinterAccount, input: PrintOrderInput): Promise<PrinterOrder> {
    const c = account as PrintifyAccount;
    const existing = (await findOrderByExternalId(c, input.externalId)) ?? (await this.earlierOrder(c, input));
    if (existing) return this.toOrder(existing, this.external(existing), c.currency);
    const lines = [];
    for (const item of input.items) {
      const blueprintId = Number(item.catalogProductId);
      if (!Number.isInteger(blueprintId) || blueprintId <= 0) {
        throw new PrintifyError(400, `"${item.name}" names no Printify blueprint; edit the product first`);
      }
      lines.push({
        blueprintId,
        printProviderId: await this.printProvider(c, blueprintId),
        variantId: Number(item.catalogVariantId),
        quantity: item.quantity,
        files: item.files,
      });
    }
    const { id } = await createOrder(c, orderInput(input, lines));
    const made = await getOrder(c, id);
    if (!made) throw new PrintifyError(502, 'Printify did not return the order it created');
    return this.toOrder(made, input.externalId, c.currency);
  }

  /**
   * Cost before ordering: the catalogue's variant costs (what the account is charged, in its billing currency) and
   * Printify's standard shipping for these lines to this place (`orders/shipping.json`, in cents). Printify states
   * no delivery time there, so none is given.
   */
  async quote(account: PrinterAccount, input: QuoteInput): Promise<PrinterQuote> {
    const c = account as PrintifyAccount;
    const catalogue = await this.options.catalogue(account.workspaceId);
    const listings = await catalogue.listings();
    let products = 0;
    const lines = [];
    for (const item of input.items) {
      const listing = listings.find((l) => l.id === item.catalogProductId);
      const product = listing ? await catalogue.product(listing) : null;
      const variant = product?.variants.find((v) => String(v.id) === item.catalogVariantId);
      if (!product || !variant) throw new PrintifyError(404, `catalogue variant ${item.catalogVariantId} not found`);
      products += Math.round(Number(variant.price) * 100) * item.quantity;
      lines.push({
        blueprint_id: item.catalogProductId,
        print_provider_id: await this.printProvider(c, item.catalogProductId),
        variant_id: Number(item.catalogVariantId),
        quantity: item.quantity,
      });
    }
    const r = input.recipient;
    const costs = await shippingCosts(c, {
      line_items: lines,
      // Shipping is priced by country and region; Printify requires a whole address, so the rest is marked as such.
      address_to: {
        first_name: 'Quote',
        last_name: 'Quote',
        country: r.countryCode,
        region: r.provinceCode ?? '',
        address1: r.address1 || 'Address to be given',
        city: r.city || 'City to be given',
        zip: r.zip || 'Not given',
      },
    });
    if (typeof costs.standard !== 'number') {
      throw new PrintifyError(422, `Printify offers no standard shipping to ${r.countryCode}`);
    }
    return {
      currency: c.currency,
      products: centsToDecimal(products),
      shipping: centsToDecimal(costs.standard),
      total: centsToDecimal(products + costs.standard),
      shippingMethod: 'Standard',
      minDeliveryDays: null,
      maxDeliveryDays: null,
    };
  }

  /** An order an earlier Podforge placed under another id of ours, when it is this one (recipient and lines). */
  private async earlierOrder(c: PrintifyAccount, input: PrintOrderInput): Promise<PfyOrder | null> {
    const lines = (items: { variant: string; quantity: number }[]) =>
      JSON.stringify(items.map((i) => [i.variant, i.quantity]).sort());
    const wanted = lines(input.items.map((i) => ({ variant: i.catalogVariantId, quantity: i.quantity })));
    const name = splitName(input.recipient.name || 'Customer');
    for (const earlier of input.earlierExternalIds ?? []) {
      if (earlier === input.externalId) continue;
      const o = await findOrderByExternalId(c, earlier);
      if (
        !o ||
        o.address_to?.first_name !== name.first_name ||
        o.address_to?.last_name !== name.last_name ||
        o.address_to?.zip !== input.recipient.zip
      )
        continue;
      const theirs = lines(o.line_items.map((i) => ({ variant: String(i.variant_id), quantity: i.quantity })));
      if (theirs === wanted) return o;
    }
    return null;
  }

  async order(account: PrinterAccount, ref: { id: string } | { externalId: string }) {
    const c = account as PrintifyAccount;
    const o = 'id' in ref ? await getOrder(c, ref.id) : await findOrderByExternalId(c, ref.externalId);
    return o ? this.toOrder(o, this.external(o), c.currency) : null;
  }

  async confirm(account: PrinterAccount, id: string): Promise<PrinterOrder> {
    const c = account as PrintifyAccount;
    try {
      const sent = await sendToProduction(c, id);
      return this.toOrder(sent, this.external(sent), c.currency);
    } catch (error) {
      // Sent already (a lost answer, a second delivery): what Printify holds is the truth.
      if (!(error instanceof PrintifyError && error.status === 400)) throw error;
      const current = await getOrder(c, id);
      if (!current || current.status === 'on-hold') throw error;
      return this.toOrder(current, this.external(current), c.currency);
    }
  }

  /** Printify cancels only what is on hold or unpaid; anything sent to production is refused (thrown). */
  async cancel(account: PrinterAccount, id: string): Promise<void> {
    const c = account as PrintifyAccount;
    const o = await getOrder(c, id);
    if (o && o.status !== 'canceled') await cancelOrder(c, id);
  }

  async shipments(account: PrinterAccount, id: string): Promise<PrinterShipment[]> {
    const o = await getOrder(account as PrintifyAccount, id);
    // Printify's shipments have no id of their own: the tracking number is the shipment's.
    return (o?.shipments ?? []).map((s) => ({
      id: s.number,
      carrier: s.carrier || null,
      trackingNumber: s.number || null,
      trackingUrl: s.url || null,
      delivered: Boolean(s.delivered_at),
    }));
  }

  /** One webhook per order topic, all to `url` with one new secret; the shop's earlier ones for these topics go. */
  async setWebhook(account: PrinterAccount, url: string): Promise<string> {
    const c = account as PrintifyAccount;
    const secret = randomBytes(32).toString('hex');
    const topics = new Set<string>(PRINTIFY_ORDER_TOPICS);
    for (const hook of await listWebhooks(c)) {
      if (topics.has(hook.topic)) await deleteWebhook(c, hook);
    }
    for (const topic of PRINTIFY_ORDER_TOPICS) await createWebhook(c, topic, url, secret);
    return secret;
  }

  /** `X-Pfy-Signature: sha256=<hex HMAC-SHA256(secret, raw body)>`, compared in constant time. */
  verifyWebhook(raw: Buffer, headers: Record<string, unknown>, secret: string): boolean {
    const header = headers['x-pfy-signature'];
    if (typeof header !== 'string' || !/^sha256=[0-9a-f]{64}$/i.test(header)) return false;
    const expected = Buffer.from(signPrintifyWebhook(raw.toString('utf8'), secret).slice(7), 'hex');
    return timingSafeEqual(expected, Buffer.from(header.slice(7).toLowerCase(), 'hex'));
  }

  readWebhook(body: unknown) {
    const envelope = body as PrintifyEnvelope;
    const event = eventOf(envelope);
    if (!event) return null;
    // A retried delivery carries the same event id; without one, the event's own fields make the key.
    const key =
      envelope.id ??
      JSON.stringify([envelope.type, envelope.created_at, envelope.resource?.id, envelope.resource?.data?.status]);
    return { event, key: String(key) };
  }

  explain(error: unknown) {
    if (!(error instanceof PrintifyError)) return null;
    return {
      final: error.status >= 400 && error.status < 500 && error.status !== 429,
      text: `Printify: ${error.message}`,
    };
  }
}
