import type { TOrderStatus } from '@podforge/contract';
import type { CatalogSourceImpl } from '../catalog/catalog.service';

/**
 * The `FulfilmentProvider` port: what Podforge asks of any print-on-demand printer (each printer network's adapter and
 * its built-in sandbox; the registry in deps.ts lists them). Each adapter is registered by its `id`, as medusa
 * registers fulfilment providers by a static identifier; orders code asks the registry and never names a printer.
 * Money is a decimal string, ids are ours (`externalId` is the store order) and the printer's ids are kept opaque
 * (strings). `test/fulfilment-provider.contract.test.ts` is the suite every adapter passes, against its fake.
 */

/** A workspace's account at one printer, as the adapter resolved it (token, shop); opaque to the caller. */
export type PrinterAccount = {
  readonly provider: string;
  readonly workspaceId: string;
  /** What the seller calls the account (a shop's name), when the adapter knows it. */
  readonly name?: string | null;
};

export type PrintRecipient = {
  name: string;
  address1: string;
  address2?: string | null;
  city: string;
  provinceCode?: string | null;
  countryCode: string;
  zip: string;
  phone?: string | null;
};

/** One line to print: the printer's catalogue variant (opaque), the print files by URL per placement. */
export type PrintItem = {
  catalogVariantId: string;
  /** The catalogue product the variant belongs to (where the printer needs it with the variant), opaque. */
  catalogProductId?: string;
  quantity: number;
  /** What the buyer paid for one, a decimal string (packing slips, customs). */
  retailPrice: string;
  name: string;
  /** Our id of the line (the store's line id). */
  externalId: string;
  files: { placement: string; technique: string; url: string }[];
};

export type PrintOrderInput = {
  /**
   * Our id of the order (our own order's id, unique across stores: two stores' order 1 are two orders): the key that
   * makes placing it idempotent.
   */
  externalId: string;
  /**
   * Ids an earlier Podforge placed this order under (the store's order number); a retry finds an order there too,
   * but only one for the same recipient and lines, since another store's order may have the same number.
   */
  earlierExternalIds?: string[];
  recipient: PrintRecipient;
  items: PrintItem[];
  /** The store order's currency: a printer that bills in it is asked to (else its cost is shown apart). */
  currency?: string;
};

/** The printer's order as we keep it: its id (opaque), our id, where it stands, what it costs. */
export type PrinterOrder = {
  id: string;
  externalId: string;
  /** 'draft' until confirmed; then the order's own words (sent, in_production, shipped, cancelled, failed...). */
  status: 'draft' | TOrderStatus;
  cost: { total: string; currency: string } | null;
  /** Shipped in part: some parcels have left, the rest will follow (a printer's `partial`; status 'shipped'). */
  moreToShip?: true;
};

/** One line of ours in a shipment: our id of the line (`PrintItem.externalId`, the store's line id) and how many. */
export type ShipmentLine = { lineId: string; quantity: number };

export type PrinterShipment = {
  id: string;
  carrier: string | null;
  trackingNumber: string | null;
  trackingUrl: string | null;
  delivered: boolean;
  /**
   * The lines this parcel carries, mapped back to ours from the printer's own item list (its shipment's items, or
   * its package's item ids); absent when the printer does not say (its shipments list no items): then the shipment
   * stands for all our lines not yet sent.
   */
  lines?: ShipmentLine[];
};

/** A shipment line whose item the adapter could map to one of ours. */
export const hasLine = (l: { lineId: string | null; quantity: number }): l is ShipmentLine => l.lineId !== null;

/**
 * A verified webhook in our words (what a job keeps: no address). `to: 'shipped'` reads the shipments;
 * `failureReason` undefined leaves the order's reason alone, null clears it.
 */
export type PrinterEvent = {
  order: { id?: string; externalId?: string };
  to?: TOrderStatus;
  failureReason?: string | null;
  shipment?: { id?: string; trackingNumber?: string };
  /** With `to: 'shipped'`: parcels are still to come, so the ones read so far being delivered is not the order's delivery. */
  moreToShip?: true;
  /**
   * The webhook was not signed (a printer that does not sign them): only its order reference is taken, and where the
   * order stands is read back from the printer (`order`, `shipments`) before anything moves.
   */
  unverified?: true;
};

/** What a quote is asked for: where to (country at least) and which catalogue variants of this printer. */
export type QuoteInput = {
  recipient: {
    countryCode: string;
    provinceCode?: string | null;
    zip?: string | null;
    city?: string | null;
    address1?: string | null;
  };
  /** The currency wanted (the store's); a printer may answer in its own. */
  currency?: string;
  items: { catalogProductId: number; catalogVariantId: string; quantity: number }[];
};

/** The printer's own figures for an order before it is placed: decimal strings, in the currency it answered in. */
export type PrinterQuote = {
  currency: string;
  products: string;
  shipping: string;
  /** products + shipping (both in `currency`). */
  total: string;
  shippingMethod: string | null;
  minDeliveryDays: number | null;
  maxDeliveryDays: number | null;
};

export interface FulfilmentProvider {
  /** Static id, stored on orders (`fulfillment_provider`) and webhook configurations. */
  readonly id: string;
  /** For the seller: the printer's name as the contract spells it (`platformLabel`). */
  readonly name: string;
  /**
   * The printer network it prints with (one of `FULFILMENT_NETWORKS` in the contract): a
   * product records its network, and its orders go to that network's connected adapter (its own account or its
   * built-in sandbox). Defaults to the id.
   */
  readonly network?: string;
  /** A built-in sandbox (nothing printed, nothing charged), not the seller's own account. */
  readonly sandbox?: boolean;
  /** Taken when no other printer is connected (the built-in sandbox). */
  readonly fallback: boolean;
  /** Needs the app's public https address (APP_URL) to fetch files and send webhooks. */
  readonly needsPublicUrl: boolean;

  /** The workspace's account here, or null when not connected. */
  account(workspaceId: string): Promise<PrinterAccount | null>;
  /** Catalogue: products, variants with ids and costs, placements and print-file specs. */
  catalogue(workspaceId: string): Promise<CatalogSourceImpl>;
  /**
   * The whole network's catalogue as sellers browse it, whatever the workspace's connection, when that differs from
   * the chosen adapter's own (a network whose catalogue is readable without the seller's account: live by the
   * server's token, else a bundled snapshot). Set on at most one adapter of a network; `catalogueFor` takes it first.
   */
  readonly networkCatalogue?: (workspaceId: string) => Promise<CatalogSourceImpl>;
  /**
   * Places the order as a draft, exactly once: a retry (after a lost answer) finds the first one by `externalId`.
   * The draft's `cost` (items and shipping) is the quote: nothing is charged before `confirm`.
   */
  placeOrder(account: PrinterAccount, input: PrintOrderInput): Promise<PrinterOrder>;
  /**
   * Cost, shipping and delivery time for these items to this place, from the printer's own API (no order made); a
   * printer that cannot quote throws (its `explain` says why).
   */
  quote(account: PrinterAccount, input: QuoteInput): Promise<PrinterQuote>;
  /** Polling: the order by the printer's id or ours, null when the printer has none. */
  order(account: PrinterAccount, ref: { id: string } | { externalId: string }): Promise<PrinterOrder | null>;
  /** From now on the printer charges and prints; confirming one already confirmed answers it as it stands. */
  confirm(account: PrinterAccount, id: string): Promise<PrinterOrder>;
  /** Withdraws a draft, cancels a confirmed order not yet printing; a refusal (in production) is thrown. */
  cancel(account: PrinterAccount, id: string): Promise<void>;
  shipments(account: PrinterAccount, id: string): Promise<PrinterShipment[]>;
  /** Points the printer's webhooks at `url`; answers the secret they are signed with. */
  setWebhook(account: PrinterAccount, url: string): Promise<string>;
  /** Whether the raw body is signed with the secret (headers as received, lower-case names). */
  verifyWebhook(raw: Buffer, headers: Record<string, unknown>, secret: string): boolean;
  /** A verified webhook body in our words; null when it is about nothing we follow. Its dedupe key too. */
  readWebhook(body: unknown): { event: PrinterEvent; key: string } | null;
  /** An error this adapter threw: whether retrying cannot help, and the seller's words; null when not its own. */
  explain(error: unknown): { final: boolean; text: string } | null;
}

/**
 * Where a printer sends a workspace's webhooks: one route for every printer (`orders.routes.ts`), naming the adapter
 * and the webhook configuration (`fulfillment_webhooks.id`) whose secret signs them.
 */
export const printerWebhookPath = (provider: string, configId: string) =>
  `/api/webhooks/printers/${encodeURIComponent(provider)}/${configId}`;

/** Every printer adapter of the app, by provider id. */
export class FulfilmentProviders {
  private readonly byId = new Map<string, FulfilmentProvider>();

  constructor(adapters: FulfilmentProvider[]) {
    for (const adapter of adapters) {
      if (this.byId.has(adapter.id)) throw new Error(`Two printer adapters for ${adapter.id}`);
      this.byId.set(adapter.id, adapter);
    }
  }

  get(id: string): FulfilmentProvider | null {
    return this.byId.get(id) ?? null;
  }

  /** Every adapter, in registration order (the contract suite runs over them). */
  all(): FulfilmentProvider[] {
    return [...this.byId.values()];
  }

  /** Every adapter of one printer network (its own account and its sandbox). */
  ofNetwork(network: string): FulfilmentProvider[] {
    return this.all().filter((p) => (p.network ?? p.id) === network);
  }

  /**
   * The workspace's own connected printer, else the fallback (the sandbox); with its account. With a network, only
   * that network's adapters are asked (a product made for one network goes to that network or its sandbox, nowhere
   * else).
   */
  async forWorkspace(
    workspaceId: string,
    network?: string,
  ): Promise<{ provider: FulfilmentProvider; account: PrinterAccount } | null> {
    const candidates = network ? this.ofNetwork(network) : this.all();
    for (const provider of candidates.filter((p) => !p.fallback)) {
      const account = await provider.account(workspaceId);
      if (account) return { provider, account };
    }
    for (const provider of candidates.filter((p) => p.fallback)) {
      const account = await provider.account(workspaceId);
      if (account) return { provider, account };
    }
    return null;
  }

  /** The first adapter's reading of an error. */
  explain(error: unknown): { final: boolean; text: string } | null {
    for (const p of this.all()) {
      const e = p.explain(error);
      if (e) return e;
    }
    return null;
  }
}
