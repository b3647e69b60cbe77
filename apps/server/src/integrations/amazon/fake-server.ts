import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AMAZON_MARKETPLACES } from '@podforge/contract';
import { FAKE_META_SCHEMA, FAKE_PRODUCT_TYPES, PROPERTY_GROUPS } from './fake-product-types';
import {
  AMAZON_CARRIER_CODES,
  type AmazonNotificationType,
  NOTIFICATION_PAYLOAD_VERSIONS,
  NOTIFICATIONS_SCOPE,
  OPERATION_LIMITS,
} from './limits';
import { readNotification } from './notifications';
import { type MatchedOperation, SpApiModels } from './openapi-validator';
import { attributeProblems, compileProductType, productTypeAjv } from './product-type-schema';

/**
 * A local Amazon (apis-next.md H): Login with Amazon (the consent page, `POST /auth/o2/token` with the
 * authorization-code and refresh-token grants) and the Selling Partner API calls Podforge makes: Product Type
 * Definitions (2020-09-01, the schema behind a short-lived link), Listings Items (2021-08-01: PUT, PATCH, DELETE,
 * GET), Orders 2026-01-01 (searchOrders, getOrder) and v0 confirmShipment, and Notifications v1: destinations (grantless,
 * with the app's client_credentials token) and the seller's subscriptions. A subscribed seller's order changes
 * (ORDER_CHANGE) and listing issue changes (LISTINGS_ITEM_ISSUES_CHANGE) are delivered to the destination's SQS queue
 * through `deliver`, each checked first against Amazon's schema of that notification.
 *
 * Strict where Amazon is: every request is checked against Amazon's own OpenAPI model of its operation (Ajv,
 * `openapi-validator.ts`) and refused 400 with Amazon's error envelope; attributes are checked against the product
 * type's schema (a PUT with a missing attribute is INVALID, with issues naming it); `x-amz-access-token` must be a
 * live LWA token of the seller in the path (an expired one is 403 Unauthorized, as Amazon says it); calls are
 * limited per operation by token buckets with Amazon's published rates (429 QuotaExceeded); the authorization code
 * is single use and short-lived; searchOrders keeps its one-of `createdAfter`/`lastUpdatedAfter` rule.
 *
 * ACCEPTED is not listed: a submission is processed later (`processingMs` after it, or by `processDue`), when the
 * fake checks what Amazon checks after accepting (a product without a barcode needs a GTIN exemption for its brand)
 * and gives the SKU its issues, ASIN and BUYABLE/DISCOVERABLE status.
 *
 * Its state is one JSON value handed to `persist` after every change (the built-in sandbox keeps it in the database).
 */

export type FakeIssue = {
  code: string;
  message: string;
  severity: 'ERROR' | 'WARNING' | 'INFO';
  attributeNames?: string[];
  categories: string[];
  enforcements?: { actions: { action: string }[]; exemption: { status: string } };
};

export type FakeListingItem = {
  sellerId: string;
  sku: string;
  marketplaceId: string;
  productType: string;
  attributes: Record<string, unknown[]>;
  asin: string | null;
  status: ('BUYABLE' | 'DISCOVERABLE')[];
  issues: FakeIssue[];
  /** When the last accepted submission is processed (ms); null once processed. */
  processAt: number | null;
  createdDate: string;
  lastUpdatedDate: string;
};

export type FakeAmazonOrder = {
  orderId: string;
  sellerId: string;
  marketplaceId: string;
  createdTime: string;
  lastUpdatedTime: string;
  status: 'PENDING' | 'UNSHIPPED' | 'PARTIALLY_SHIPPED' | 'SHIPPED' | 'CANCELLED';
  buyerName: string;
  address: {
    name: string;
    addressLine1: string;
    addressLine2?: string;
    city: string;
    stateOrRegion?: string;
    postalCode: string;
    countryCode: string;
  };
  currency: string;
  items: { orderItemId: string; sku: string; asin: string | null; title: string; quantity: number; price: string }[];
  packages: {
    packageReferenceId: string;
    carrierCode: string;
    carrierName?: string;
    trackingNumber: string;
    shipDate: string;
    items: { orderItemId: string; quantity: number }[];
  }[];
};

export type AmazonFakeState = {
  nextId: number;
  /** `login`: whom the consent page signed in (the built-in sandbox names its workspace's seller). */
  sellers: { sellerId: string; name: string; login: string; exemptBrands: string[]; authorizedAt: number }[];
  refreshTokens: Record<string, { sellerId: string }>;
  /** `sellerId` is '' for the app's grantless tokens, which carry their `scope`. */
  accessTokens: Record<string, { sellerId: string; expiresAt: number; scope?: string }>;
  listings: Record<string, FakeListingItem>;
  orders: Record<string, FakeAmazonOrder>;
  /** The application's destinations (state kept before notifications existed has none). */
  destinations?: Record<string, { destinationId: string; name: string; arn: string }>;
  subscriptions?: Record<
    string,
    {
      subscriptionId: string;
      sellerId: string;
      notificationType: AmazonNotificationType;
      payloadVersion: string;
      destinationId: string;
      processingDirective?: unknown;
    }
  >;
};

export type FakeAmazonOptions = {
  applicationId?: string;
  clientId?: string;
  clientSecret?: string;
  now?: () => number;
  state?: AmazonFakeState | null;
  persist?: (state: AmazonFakeState) => Promise<void>;
  /** How long after an accepted submission Amazon has processed it (the sandbox: a few seconds). */
  processingMs?: number;
  /** Brands a new sandbox seller has a GTIN exemption for. */
  exemptBrands?: string[];
  /** Download each listing's pictures when processing it, as Amazon does (off where the app's URLs are not served). */
  fetchImages?: boolean;
  /** Puts a notification's body in the SQS queue of that ARN (Amazon's delivery); absent, nothing is delivered. */
  deliver?: (arn: string, body: string) => Promise<void>;
};

export type FakeAmazon = {
  url: string;
  applicationId: string;
  clientId: string;
  clientSecret: string;
  snapshot(): AmazonFakeState;
  /** Processes every accepted submission now (as if Amazon's minutes had passed). */
  processDue(force?: boolean): Promise<void>;
  listings(sellerId?: string): FakeListingItem[];
  orders(sellerId?: string): FakeAmazonOrder[];
  /** A buyer's order of SKUs (BUYABLE children) of the seller's listings in a marketplace: UNSHIPPED, paid. */
  placeOrder(
    sellerId: string,
    marketplaceId: string,
    order: { lines: { sku: string; quantity: number }[]; address: FakeAmazonOrder['address']; pending?: boolean },
  ): Promise<FakeAmazonOrder>;
  /** A pending order's payment is authorised: it becomes UNSHIPPED and its address appears. */
  payOrder(orderId: string): Promise<FakeAmazonOrder>;
  cancelOrder(orderId: string): Promise<FakeAmazonOrder>;
  /** The next PUT is applied, then answered 500 (its answer lost). */
  failNextPutAfterApplying(): void;
  /** Every call answers 429 QuotaExceeded for `seconds` (0 lifts it): the seller's quota spent. */
  throttleFor(seconds: number): void;
  /** Expires every access token now (as an hour passing does). */
  expireAccessTokens(): void;
  /** The seller removes the app's authorization in Seller Central: its refresh tokens stop working. */
  revokeAuthorization(sellerId: string): Promise<void>;
  calls: { method: string; path: string; status: number; operationId: string | null }[];
  /** Each notification delivered (or that could not be: `error`). */
  deliveries: { notificationType: string; arn: string; notificationId: string; error?: string }[];
  subscriptions(sellerId?: string): NonNullable<AmazonFakeState['subscriptions']>[string][];
  /** The seller's subscriptions deleted (as deleteSubscriptionById does): nothing is delivered for it any more. */
  unsubscribe(sellerId: string): Promise<void>;
  destinations(): NonNullable<AmazonFakeState['destinations']>[string][];
  close(): Promise<void>;
};

const MODELS = [
  'listingsItems_2021-08-01.json',
  'definitionsProductTypes_2020-09-01.json',
  'orders_2026-01-01.json',
  'ordersV0.json',
  'notifications.json',
];
/** The Notifications operations called with the application's grantless token, not a seller's. */
const GRANTLESS = new Set([
  'createDestination',
  'getDestinations',
  'getDestination',
  'deleteDestination',
  'deleteSubscriptionById',
]);
let sharedModels: SpApiModels | null = null;
const models = () => {
  sharedModels ??= new SpApiModels(MODELS);
  return sharedModels;
};

/** The error code each model's 400s carry (apis-next.md H.4). */
const INPUT_CODE: Record<string, string> = {
  'listingsItems_2021-08-01.json': 'BAD_REQUEST',
  'definitionsProductTypes_2020-09-01.json': 'InvalidInput',
  'orders_2026-01-01.json': 'InvalidInput',
  'ordersV0.json': 'InvalidInput',
  'notifications.json': 'InvalidInput',
};

class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: string,
  ) {
    super(message);
  }
}

export function emptyAmazonState(): AmazonFakeState {
  return {
    nextId: 1000,
    sellers: [],
    refreshTokens: {},
    accessTokens: {},
    listings: {},
    orders: {},
    destinations: {},
    subscriptions: {},
  };
}

const ACCESS_TOKEN_SECONDS = 3600;
const CODE_TTL_MS = 5 * 60_000;
const SCHEMA_LINK_TTL_MS = 15 * 60_000;
const first = (v: unknown[] | undefined) => v?.[0] as Record<string, unknown> | undefined;

export async function startFakeAmazon(options: FakeAmazonOptions = {}): Promise<FakeAmazon> {
  const applicationId = options.applicationId ?? 'amzn1.sp.solution.podforge-fake';
  const clientId = options.clientId ?? 'amzn1.application-oa2-client.podforgefake';
  const clientSecret = options.clientSecret ?? 'amzn1.oa2-cs.v1.podforgefakesecret';
  const now = options.now ?? Date.now;
  const processingMs = options.processingMs ?? 0;
  const state: AmazonFakeState = options.state ? structuredClone(options.state) : emptyAmazonState();
  state.destinations ??= {};
  state.subscriptions ??= {};
  const destinations = state.destinations;
  const subscriptions = state.subscriptions;
  const deliveries: FakeAmazon['deliveries'] = [];
  const codes = new Map<string, { sellerId: string; redirectUri: string; expiresAt: number }>();
  const schemaLinks = new Map<string, { productType: string; expiresAt: number }>();
  const buckets = new Map<string, { tokens: number; at: number }>();
  const calls: FakeAmazon['calls'] = [];
  const ajv = productTypeAjv();
  const validators = new Map<string, ReturnType<typeof compileProductType>>();
  let throttledUntil = 0;
  let failPut = false;
  let base = '';

  const id = () => ++state.nextId;
  const persist = async () => options.persist?.(structuredClone(state));
  const iso = (ms = now()) => new Date(ms).toISOString();
  const key = (sellerId: string, sku: string) => `${sellerId}|${sku}`;
  const validatorOf = (productType: string) => {
    let v = validators.get(productType);
    const definition = FAKE_PRODUCT_TYPES[productType];
    if (!v && definition) {
      v = compileProductType(ajv, definition.schema);
      validators.set(productType, v);
    }
    return v ?? null;
  };

  const sellerFor = (login: string) => {
    const known = state.sellers.find((s) => s.login === login);
    if (known) return known;
    const seller = {
      sellerId: `A${randomBytes(7).toString('hex').toUpperCase().slice(0, 13)}`,
      name: 'Podforge Sandbox Seller',
      login,
      exemptBrands: options.exemptBrands ?? ['Generic'],
      authorizedAt: now(),
    };
    state.sellers.push(seller);
    return seller;
  };

  /** Amazon's token bucket per seller and operation: `burst` calls at once, refilled at `rate` a second. */
  const take = (sellerId: string, operationId: string) => {
    const limit = OPERATION_LIMITS[operationId];
    if (!limit) return null;
    const k = `${sellerId}|${operationId}`;
    const t = now();
    const b = buckets.get(k) ?? { tokens: limit.burst, at: t };
    b.tokens = Math.min(limit.burst, b.tokens + (Math.max(0, t - b.at) / 1000) * limit.rate);
    b.at = t;
    buckets.set(k, b);
    if (t < throttledUntil || b.tokens < 1)
      throw new Refusal(429, 'QuotaExceeded', 'You exceeded your quota for the requested resource.');
    b.tokens -= 1;
    return limit.rate;
  };

  const sellerOfToken = (req: http.IncomingMessage) => {
    const token = String(req.headers['x-amz-access-token'] ?? '');
    const known = state.accessTokens[token];
    if (!known)
      throw new Refusal(
        403,
        'Unauthorized',
        'Access to requested resource is denied.',
        'The access token you provided is revoked, malformed or invalid.',
      );
    if (known.expiresAt <= now())
      throw new Refusal(
        403,
        'Unauthorized',
        'Access to requested resource is denied.',
        'The access token you provided has expired.',
      );
    if (!known.sellerId)
      throw new Refusal(
        403,
        'Unauthorized',
        'Access to requested resource is denied.',
        "A grantless token is for grantless operations only; this operation needs the selling partner's authorization.",
      );
    return known.sellerId;
  };

  /** A grantless operation's caller: the application's client_credentials token with the notifications scope. */
  const appOfToken = (req: http.IncomingMessage) => {
    const known = state.accessTokens[String(req.headers['x-amz-access-token'] ?? '')];
    if (!known || known.expiresAt <= now() || known.sellerId || known.scope !== NOTIFICATIONS_SCOPE)
      throw new Refusal(
        403,
        'Unauthorized',
        'Access to requested resource is denied.',
        `This is a grantless operation: call it with a client_credentials token of scope ${NOTIFICATIONS_SCOPE}.`,
      );
    return 'app';
  };

  // ----- notifications (Amazon's delivery to the destination's queue) -----
  const notify = async (sellerId: string, notificationType: AmazonNotificationType, payload: unknown) => {
    for (const sub of Object.values(subscriptions)) {
      if (sub.sellerId !== sellerId || sub.notificationType !== notificationType) continue;
      const destination = destinations[sub.destinationId];
      if (!destination) continue;
      const notificationId = randomUUID();
      const message = {
        NotificationVersion: '1.0',
        NotificationType: notificationType,
        PayloadVersion: sub.payloadVersion,
        EventTime: iso(),
        Payload: payload,
        NotificationMetadata: {
          ApplicationId: applicationId,
          SubscriptionId: sub.subscriptionId,
          PublishTime: iso(),
          NotificationId: notificationId,
        },
      };
      const body = JSON.stringify(message);
      const read = readNotification(body);
      if ('problem' in read) throw new Error(`The fake's notification does not fit Amazon's schema: ${read.problem}`);
      const delivery: FakeAmazon['deliveries'][number] = { notificationType, arn: destination.arn, notificationId };
      deliveries.push(delivery);
      try {
        if (!options.deliver) throw new Error('no delivery configured');
        await options.deliver(destination.arn, body);
      } catch (error) {
        // As on Amazon, a queue that refuses the message (no permission, gone) fails the delivery, not the change.
        delivery.error = (error as Error).message;
      }
    }
  };
  const ORDER_STATUS: Record<FakeAmazonOrder['status'], string> = {
    PENDING: 'Pending',
    UNSHIPPED: 'Unshipped',
    PARTIALLY_SHIPPED: 'PartiallyShipped',
    SHIPPED: 'Shipped',
    CANCELLED: 'Canceled',
  };
  const orderChanged = (o: FakeAmazonOrder) => {
    const shipped = (id: string) =>
      o.packages
        .flatMap((p) => p.items)
        .filter((i) => i.orderItemId === id)
        .reduce((t, i) => t + i.quantity, 0);
    const items = o.items.map((i) => ({
      OrderItemId: i.orderItemId,
      SellerSKU: i.sku,
      SupplySourceId: null,
      OrderItemStatus: shipped(i.orderItemId) >= i.quantity ? 'Shipped' : 'Unshipped',
      Quantity: i.quantity,
      QuantityShipped: shipped(i.orderItemId),
    }));
    return notify(o.sellerId, 'ORDER_CHANGE', {
      OrderChangeNotification: {
        NotificationLevel: 'OrderLevel',
        SellerId: o.sellerId,
        AmazonOrderId: o.orderId,
        OrderChangeType: 'OrderStatusChange',
        OrderChangeTrigger: { TimeOfOrderChange: o.lastUpdatedTime, ChangeReason: 'Order status changed' },
        Summary: {
          MarketplaceId: o.marketplaceId,
          OrderStatus: ORDER_STATUS[o.status],
          PurchaseDate: o.createdTime,
          DestinationPostalCode: o.status === 'PENDING' ? null : o.address.postalCode,
          FulfillmentType: 'MFN',
          OrderType: 'StandardOrder',
          NumberOfItemsShipped: items.reduce((t, i) => t + i.QuantityShipped, 0),
          NumberOfItemsUnshipped: items.reduce((t, i) => t + i.Quantity - i.QuantityShipped, 0),
          OrderItems: items,
        },
      },
    });
  };
  const issuesChanged = (item: FakeListingItem) => {
    const severities = [...new Set(item.issues.map((i) => i.severity).filter((x) => x !== 'INFO'))];
    const actions = [...new Set(item.issues.flatMap((i) => i.enforcements?.actions.map((a) => a.action) ?? []))];
    return notify(item.sellerId, 'LISTINGS_ITEM_ISSUES_CHANGE', {
      SellerId: item.sellerId,
      MarketplaceId: item.marketplaceId,
      ...(item.asin ? { Asin: item.asin } : {}),
      Sku: item.sku,
      Severities: severities.length > 0 ? severities : ['NONE'],
      ...(actions.length > 0 ? { EnforcementActions: actions } : {}),
    });
  };

  // ----- processing (what Amazon does after ACCEPTED) -----
  /** Amazon downloads each picture by its URL: one it cannot get as an image is an issue (the code is the fake's own). */
  const pictureIssues = async (item: FakeListingItem): Promise<FakeIssue[]> => {
    if (!options.fetchImages) return [];
    const out: FakeIssue[] = [];
    for (const [name, values] of Object.entries(item.attributes)) {
      if (name !== 'main_product_image_locator' && !name.startsWith('other_product_image_locator_')) continue;
      const url = String((values[0] as { media_location?: string } | undefined)?.media_location ?? '');
      const problem = await fetch(url, { signal: AbortSignal.timeout(10_000) }).then(
        async (res) => {
          await res.body?.cancel();
          if (!res.ok) return `answered HTTP ${res.status}`;
          return (res.headers.get('content-type') ?? '').startsWith('image/') ? null : 'is not an image';
        },
        () => 'could not be reached',
      );
      if (problem)
        out.push({
          code: 'IMAGE_NOT_DOWNLOADED',
          message: `The image at ${url.split('?')[0]} ${problem}; Amazon could not download it.`,
          severity: name === 'main_product_image_locator' ? 'ERROR' : 'WARNING',
          attributeNames: [name],
          categories: ['INVALID_IMAGE'],
          ...(name === 'main_product_image_locator'
            ? { enforcements: { actions: [{ action: 'LISTING_SUPPRESSED' }], exemption: { status: 'NOT_EXEMPT' } } }
            : {}),
        });
    }
    return out;
  };

  const process = (item: FakeListingItem, found: FakeIssue[]) => {
    const seller = state.sellers.find((s) => s.sellerId === item.sellerId);
    const a = item.attributes;
    const parentage = first(a.parentage_level)?.value;
    const issues: FakeIssue[] = [...found];
    if (parentage !== 'parent' && !a.externally_assigned_product_identifier) {
      const brand = String(first(a.brand)?.value ?? '');
      const exempt = first(a.supplier_declared_has_product_identifier_exemption)?.value === true;
      if (exempt && !(seller?.exemptBrands ?? []).some((b) => b.toLowerCase() === brand.toLowerCase()))
        issues.push({
          code: '8560',
          message: `The brand '${brand}' has no GTIN exemption for ${item.productType} in this marketplace. Provide a product identifier (UPC/EAN/GTIN), or apply for a GTIN exemption for this brand.`,
          severity: 'ERROR',
          attributeNames: ['externally_assigned_product_identifier', 'brand'],
          categories: ['MISSING_ATTRIBUTE'],
          enforcements: { actions: [{ action: 'LISTING_SUPPRESSED' }], exemption: { status: 'NOT_EXEMPT' } },
        });
    }
    item.issues = issues;
    item.processAt = null;
    if (issues.some((i) => i.severity === 'ERROR')) {
      item.status = [];
      return;
    }
    item.asin ??= `B0${randomBytes(4).toString('hex').toUpperCase()}`;
    const quantity = Number(first(a.fulfillment_availability)?.quantity ?? 0);
    item.status =
      parentage === 'parent' ? ['DISCOVERABLE'] : quantity > 0 ? ['BUYABLE', 'DISCOVERABLE'] : ['DISCOVERABLE'];
  };
  const processDue = async (force = false) => {
    const due = Object.values(state.listings).filter((i) => i.processAt !== null && (force || i.processAt <= now()));
    const changed: FakeListingItem[] = [];
    for (const item of due) {
      // Claimed before the pictures are fetched, so a call meanwhile does not process it twice.
      const claimed = item.processAt;
      item.processAt = null;
      const found = options.fetchImages ? await pictureIssues(item) : [];
      // Submitted again while its pictures were fetched: the newer submission is processed later.
      if (item.processAt !== null || state.listings[key(item.sellerId, item.sku)] !== item) continue;
      item.processAt = claimed;
      const before = JSON.stringify(item.issues);
      process(item, found);
      if (JSON.stringify(item.issues) !== before) changed.push(item);
    }
    if (due.length > 0) await persist();
    for (const item of changed) await issuesChanged(item);
  };

  // ----- views -----
  const money = (amount: string, currencyCode: string) => ({ amount, currencyCode });
  const priceOf = (item: FakeListingItem) => {
    const offer = first(item.attributes.purchasable_offer) as
      | { currency?: string; our_price?: { schedule?: { value_with_tax?: number }[] }[] }
      | undefined;
    const value = offer?.our_price?.[0]?.schedule?.[0]?.value_with_tax;
    return value === undefined ? null : { currencyCode: offer?.currency ?? 'USD', amount: value.toFixed(2) };
  };
  const childrenOf = (item: FakeListingItem) =>
    Object.values(state.listings)
      .filter(
        (l) =>
          l.sellerId === item.sellerId &&
          (first(l.attributes.child_parent_sku_relationship) as { parent_sku?: string } | undefined)?.parent_sku ===
            item.sku,
      )
      .map((l) => l.sku);
  const itemView = (item: FakeListingItem, included: string[]) => {
    const out: Record<string, unknown> = { sku: item.sku };
    const theme = (first(item.attributes.variation_theme) as { name?: string } | undefined)?.name;
    if (included.includes('summaries')) {
      const main = first(item.attributes.main_product_image_locator) as { media_location?: string } | undefined;
      out.summaries = [
        {
          marketplaceId: item.marketplaceId,
          ...(item.asin ? { asin: item.asin } : {}),
          productType: item.productType,
          conditionType: 'new_new',
          status: item.status,
          itemName: String(first(item.attributes.item_name)?.value ?? ''),
          createdDate: item.createdDate,
          lastUpdatedDate: item.lastUpdatedDate,
          ...(main?.media_location ? { mainImage: { link: main.media_location, height: 1000, width: 1000 } } : {}),
        },
      ];
    }
    if (included.includes('attributes')) out.attributes = item.attributes;
    if (included.includes('issues')) out.issues = item.issues;
    if (included.includes('offers')) {
      const price = priceOf(item);
      out.offers = price ? [{ marketplaceId: item.marketplaceId, offerType: 'B2C', price }] : [];
    }
    if (included.includes('fulfillmentAvailability')) {
      const f = first(item.attributes.fulfillment_availability) as { quantity?: number } | undefined;
      out.fulfillmentAvailability = f ? [{ fulfillmentChannelCode: 'DEFAULT', quantity: f.quantity ?? 0 }] : [];
    }
    if (included.includes('relationships')) {
      const parent = (first(item.attributes.child_parent_sku_relationship) as { parent_sku?: string } | undefined)
        ?.parent_sku;
      const parentage = first(item.attributes.parentage_level)?.value;
      const themeView = theme ? { attributes: theme.toLowerCase().split('/'), theme } : undefined;
      out.relationships = [
        {
          marketplaceId: item.marketplaceId,
          relationships:
            parentage === 'parent'
              ? [
                  {
                    type: 'VARIATION',
                    childSkus: childrenOf(item),
                    ...(themeView ? { variationTheme: themeView } : {}),
                  },
                ]
              : parent
                ? [{ type: 'VARIATION', parentSkus: [parent], ...(themeView ? { variationTheme: themeView } : {}) }]
                : [],
        },
      ];
    }
    if (included.includes('productTypes'))
      out.productTypes = [{ marketplaceId: item.marketplaceId, productType: item.productType }];
    return out;
  };

  const orderView = (o: FakeAmazonOrder, included: string[]) => {
    const market = AMAZON_MARKETPLACES.find((m) => m.id === o.marketplaceId);
    const total = o.items.reduce((s, i) => s + Number(i.price) * i.quantity, 0).toFixed(2);
    const shipped = (orderItemId: string) =>
      o.packages
        .flatMap((p) => p.items)
        .filter((i) => i.orderItemId === orderItemId)
        .reduce((s, i) => s + i.quantity, 0);
    return {
      orderId: o.orderId,
      createdTime: o.createdTime,
      lastUpdatedTime: o.lastUpdatedTime,
      salesChannel: { channelName: 'AMAZON', marketplaceId: o.marketplaceId, marketplaceName: market?.name ?? '' },
      ...(included.includes('BUYER') ? { buyer: { buyerName: o.buyerName } } : {}),
      ...(included.includes('RECIPIENT') && o.status !== 'PENDING'
        ? { recipient: { deliveryAddress: { ...o.address, addressType: 'RESIDENTIAL' } } }
        : {}),
      ...(included.includes('PROCEEDS') ? { proceeds: { grandTotal: money(total, o.currency) } } : {}),
      ...(included.includes('FULFILLMENT')
        ? { fulfillment: { fulfillmentStatus: o.status, fulfilledBy: 'MERCHANT', fulfillmentServiceLevel: 'STANDARD' } }
        : {}),
      orderItems: o.items.map((i) => ({
        orderItemId: i.orderItemId,
        quantityOrdered: i.quantity,
        product: {
          ...(i.asin ? { asin: i.asin } : {}),
          title: i.title,
          sellerSku: i.sku,
          condition: { conditionType: 'NEW' },
          price: { unitPrice: money(i.price, o.currency) },
        },
        ...(included.includes('PROCEEDS')
          ? { proceeds: { proceedsTotal: money((Number(i.price) * i.quantity).toFixed(2), o.currency) } }
          : {}),
        ...(included.includes('FULFILLMENT')
          ? {
              fulfillment: {
                quantityFulfilled: shipped(i.orderItemId),
                quantityUnfulfilled: i.quantity - shipped(i.orderItemId),
              },
            }
          : {}),
      })),
      ...(included.includes('PACKAGES')
        ? {
            packages: o.packages.map((p) => ({
              packageReferenceId: p.packageReferenceId,
              carrier: p.carrierCode === 'Other' ? (p.carrierName ?? 'Other') : p.carrierCode,
              trackingNumber: p.trackingNumber,
              shipTime: p.shipDate,
              packageStatus: { status: 'SHIPPED' },
              packageItems: p.items,
            })),
          }
        : {}),
    };
  };

  // ----- operations -----
  type Ctx = {
    op: MatchedOperation;
    query: URLSearchParams;
    body: unknown;
    req: http.IncomingMessage;
  };
  const marketplaceOf = (query: URLSearchParams) => {
    const ids = (query.get('marketplaceIds') ?? '').split(',').filter(Boolean);
    if (ids.length !== 1)
      throw new Refusal(400, 'InvalidInput', 'Only one marketplace may be requested', 'marketplaceIds');
    const id = ids[0] ?? '';
    if (!AMAZON_MARKETPLACES.some((m) => m.id === id))
      throw new Refusal(400, 'InvalidInput', `Invalid marketplaceId: ${id}`, 'marketplaceIds');
    return id;
  };
  const ownSeller = (ctx: Ctx) => {
    const sellerId = sellerOfToken(ctx.req);
    if (ctx.op.pathParams.sellerId && ctx.op.pathParams.sellerId !== sellerId)
      throw new Refusal(403, 'Unauthorized', 'Access to requested resource is denied.');
    return sellerId;
  };
  const included = (query: URLSearchParams, fallback: string[]) =>
    query.get('includedData')?.split(',').filter(Boolean) ?? fallback;

  const submission = (sku: string, status: string, issues: FakeIssue[] = []) => ({
    sku,
    status,
    submissionId: randomUUID().replace(/-/g, ''),
    issues,
  });
  const schemaIssues = (productType: string, attributes: unknown): FakeIssue[] => {
    const validate = validatorOf(productType);
    if (!validate) return [];
    if (validate(attributes)) return [];
    return attributeProblems(validate.errors).map((p) => ({
      code: p.message.startsWith('is required') ? '90220' : '4000001',
      message: `'${p.attribute}' ${p.message}.`,
      severity: 'ERROR' as const,
      attributeNames: [p.attribute],
      categories: [p.message.startsWith('is required') ? 'MISSING_ATTRIBUTE' : 'INVALID_ATTRIBUTE'],
    }));
  };

  const handlers: Record<string, (ctx: Ctx) => Promise<{ status: number; body?: unknown }>> = {
    async getDefinitionsProductType(ctx) {
      sellerOfToken(ctx.req);
      const marketplaceId = marketplaceOf(ctx.query);
      const definition = FAKE_PRODUCT_TYPES[ctx.op.pathParams.productType ?? ''];
      if (!definition) throw new Refusal(404, 'NOT_FOUND', `Product type ${ctx.op.pathParams.productType} not found`);
      const token = randomBytes(12).toString('hex');
      schemaLinks.set(token, { productType: definition.productType, expiresAt: now() + SCHEMA_LINK_TTL_MS });
      const market = AMAZON_MARKETPLACES.find((m) => m.id === marketplaceId);
      const checksum = Buffer.from(definition.version).toString('hex').slice(0, 32);
      return {
        status: 200,
        body: {
          metaSchema: {
            link: { resource: `${base}/schemas/meta-schema/v1?X-Amz-Signature=${token}`, verb: 'GET' },
            checksum: 'metaschema1',
          },
          schema: {
            link: { resource: `${base}/schemas/${definition.productType}.json?X-Amz-Signature=${token}`, verb: 'GET' },
            checksum,
          },
          requirements: ctx.query.get('requirements') ?? 'LISTING',
          requirementsEnforced: ctx.query.get('requirementsEnforced') ?? 'ENFORCED',
          propertyGroups: PROPERTY_GROUPS,
          locale: market?.languageTag ?? 'en_US',
          marketplaceIds: [marketplaceId],
          productType: definition.productType,
          displayName: definition.displayName,
          productTypeVersion: { version: definition.version, latest: true, releaseCandidate: false },
        },
      };
    },

    async putListingsItem(ctx) {
      const sellerId = ownSeller(ctx);
      const marketplaceId = marketplaceOf(ctx.query);
      const sku = ctx.op.pathParams.sku ?? '';
      const body = ctx.body as { productType: string; attributes: Record<string, unknown[]> };
      if (!FAKE_PRODUCT_TYPES[body.productType])
        throw new Refusal(400, 'BAD_REQUEST', `Product type ${body.productType} is not valid in this marketplace`);
      const issues = schemaIssues(body.productType, body.attributes);
      const preview = ctx.query.get('mode') === 'VALIDATION_PREVIEW';
      if (preview) return { status: 200, body: submission(sku, issues.length ? 'INVALID' : 'VALID', issues) };
      if (issues.length) return { status: 200, body: submission(sku, 'INVALID', issues) };
      const existing = state.listings[key(sellerId, sku)];
      state.listings[key(sellerId, sku)] = {
        sellerId,
        sku,
        marketplaceId,
        productType: body.productType,
        attributes: body.attributes,
        asin: existing?.asin ?? null,
        status: existing?.status ?? [],
        issues: existing?.issues ?? [],
        processAt: now() + processingMs,
        createdDate: existing?.createdDate ?? iso(),
        lastUpdatedDate: iso(),
      };
      await persist();
      if (failPut) {
        failPut = false;
        throw new Refusal(500, 'InternalFailure', 'We encountered an internal error. Please try again.');
      }
      return { status: 200, body: submission(sku, 'ACCEPTED') };
    },

    async patchListingsItem(ctx) {
      const sellerId = ownSeller(ctx);
      marketplaceOf(ctx.query);
      const sku = ctx.op.pathParams.sku ?? '';
      const item = state.listings[key(sellerId, sku)];
      if (!item) throw new Refusal(404, 'NOT_FOUND', `SKU '${sku}' not found`);
      const body = ctx.body as { productType: string; patches: { op: string; path: string; value?: unknown[] }[] };
      const attributes = structuredClone(item.attributes);
      for (const patch of body.patches) {
        const m = /^\/attributes\/([a-z0-9_]+)$/.exec(patch.path);
        if (!m?.[1])
          throw new Refusal(400, 'BAD_REQUEST', `Invalid patch path: ${patch.path} (top-level attributes only)`);
        if (patch.op === 'delete') delete attributes[m[1]];
        else if (!patch.value) throw new Refusal(400, 'BAD_REQUEST', `Patch ${patch.op} ${patch.path} needs a value`);
        else attributes[m[1]] = patch.value;
      }
      const issues = schemaIssues(body.productType, attributes);
      if (ctx.query.get('mode') === 'VALIDATION_PREVIEW')
        return { status: 200, body: submission(sku, issues.length ? 'INVALID' : 'VALID', issues) };
      if (issues.length) return { status: 200, body: submission(sku, 'INVALID', issues) };
      item.attributes = attributes;
      item.processAt = now() + processingMs;
      item.lastUpdatedDate = iso();
      await persist();
      return { status: 200, body: submission(sku, 'ACCEPTED') };
    },

    async deleteListingsItem(ctx) {
      const sellerId = ownSeller(ctx);
      marketplaceOf(ctx.query);
      const sku = ctx.op.pathParams.sku ?? '';
      if (!state.listings[key(sellerId, sku)]) throw new Refusal(404, 'NOT_FOUND', `SKU '${sku}' not found`);
      delete state.listings[key(sellerId, sku)];
      await persist();
      return { status: 200, body: submission(sku, 'ACCEPTED') };
    },

    async getListingsItem(ctx) {
      const sellerId = ownSeller(ctx);
      marketplaceOf(ctx.query);
      const sku = ctx.op.pathParams.sku ?? '';
      const item = state.listings[key(sellerId, sku)];
      if (!item) throw new Refusal(404, 'NOT_FOUND', `SKU '${sku}' not found in marketplace`);
      return { status: 200, body: itemView(item, included(ctx.query, ['summaries'])) };
    },

    async searchOrders(ctx) {
      const sellerId = sellerOfToken(ctx.req);
      const q = ctx.query;
      const created = q.get('createdAfter');
      const updated = q.get('lastUpdatedAfter');
      if (Boolean(created) === Boolean(updated))
        throw new Refusal(400, 'InvalidInput', 'Exactly one of createdAfter and lastUpdatedAfter must be specified');
      const after = Date.parse(String(created ?? updated));
      if (Number.isNaN(after)) throw new Refusal(400, 'InvalidInput', 'createdAfter/lastUpdatedAfter must be ISO 8601');
      if (after > now()) throw new Refusal(400, 'InvalidInput', 'The after date must be in the past');
      const beforeRaw = q.get(created ? 'createdBefore' : 'lastUpdatedBefore');
      const before = beforeRaw ? Date.parse(beforeRaw) : null;
      if (before !== null && (Number.isNaN(before) || before < after || before > now() - 2 * 60_000))
        throw new Refusal(
          400,
          'InvalidInput',
          'The before date must be after the after date and at least 2 minutes before now',
        );
      const markets = q.get('marketplaceIds')?.split(',');
      const statuses = q.get('fulfillmentStatuses')?.split(',');
      const by = q.get('fulfilledBy')?.split(',');
      const pageSize = Number(q.get('maxResultsPerPage') ?? 100);
      if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100)
        throw new Refusal(400, 'InvalidInput', 'maxResultsPerPage must be between 1 and 100');
      const offset = q.get('paginationToken')
        ? Number(Buffer.from(String(q.get('paginationToken')), 'base64url').toString())
        : 0;
      const all = Object.values(state.orders)
        .filter((o) => o.sellerId === sellerId)
        .filter((o) => Date.parse(created ? o.createdTime : o.lastUpdatedTime) >= after)
        .filter((o) => before === null || Date.parse(created ? o.createdTime : o.lastUpdatedTime) < before)
        .filter((o) => !markets || markets.includes(o.marketplaceId))
        .filter((o) => !statuses || statuses.includes(o.status))
        .filter((_o) => !by || by.includes('MERCHANT'))
        .sort((a, b) => a.lastUpdatedTime.localeCompare(b.lastUpdatedTime));
      const page = all.slice(offset, offset + pageSize);
      const inc = included(q, []);
      return {
        status: 200,
        body: {
          orders: page.map((o) => orderView(o, inc)),
          ...(offset + pageSize < all.length
            ? { pagination: { nextToken: Buffer.from(String(offset + pageSize)).toString('base64url') } }
            : {}),
          ...(created ? { createdBefore: iso() } : { lastUpdatedBefore: iso() }),
        },
      };
    },

    async getOrder(ctx) {
      const sellerId = sellerOfToken(ctx.req);
      const order = state.orders[ctx.op.pathParams.orderId ?? ''];
      if (!order || order.sellerId !== sellerId) throw new Refusal(404, 'NotFound', 'Order not found');
      return { status: 200, body: { order: orderView(order, included(ctx.query, [])) } };
    },

    async getDestinations(ctx) {
      appOfToken(ctx.req);
      return {
        status: 200,
        body: {
          payload: Object.values(destinations).map((d) => ({
            destinationId: d.destinationId,
            name: d.name,
            resource: { sqs: { arn: d.arn } },
          })),
        },
      };
    },

    async createDestination(ctx) {
      appOfToken(ctx.req);
      const body = ctx.body as {
        name: string;
        resourceSpecification: { sqs?: { arn: string }; eventBridge?: unknown };
      };
      const spec = body.resourceSpecification;
      if (Boolean(spec.sqs) === Boolean(spec.eventBridge))
        throw new Refusal(
          400,
          'InvalidInput',
          'Invalid Input',
          'resourceSpecification needs exactly one of sqs and eventBridge',
        );
      if (!spec.sqs) throw new Refusal(400, 'InvalidInput', 'EventBridge destinations are not served by this sandbox');
      const arn = spec.sqs.arn;
      if (Object.values(destinations).some((d) => d.arn === arn))
        throw new Refusal(409, 'Conflict', 'A destination for this resource already exists', arn);
      const destinationId = randomUUID();
      destinations[destinationId] = { destinationId, name: body.name, arn };
      await persist();
      return { status: 200, body: { payload: { destinationId, name: body.name, resource: { sqs: { arn } } } } };
    },

    async getSubscription(ctx) {
      const sellerId = sellerOfToken(ctx.req);
      const type = ctx.op.pathParams.notificationType ?? '';
      const version = ctx.query.get('payloadVersion');
      const sub = Object.values(subscriptions).find(
        (s) => s.sellerId === sellerId && s.notificationType === type && (!version || s.payloadVersion === version),
      );
      if (!sub) throw new Refusal(404, 'NotFound', `No ${type} subscription found`);
      const { sellerId: _seller, notificationType: _type, ...view } = sub;
      return { status: 200, body: { payload: view } };
    },

    /** Grantless: any subscription of the application, by its type and id; 404 for one that is not there. */
    async deleteSubscriptionById(ctx) {
      appOfToken(ctx.req);
      const type = ctx.op.pathParams.notificationType ?? '';
      const id = ctx.op.pathParams.subscriptionId ?? '';
      const sub = subscriptions[id];
      if (!sub || sub.notificationType !== type)
        throw new Refusal(404, 'NotFound', `No ${type} subscription with id ${id} found`);
      delete subscriptions[id];
      await persist();
      return { status: 200, body: {} };
    },

    async createSubscription(ctx) {
      const sellerId = sellerOfToken(ctx.req);
      const type = ctx.op.pathParams.notificationType ?? '';
      const body = ctx.body as { payloadVersion: string; destinationId: string; processingDirective?: unknown };
      const supported = NOTIFICATION_PAYLOAD_VERSIONS[type as AmazonNotificationType];
      if (!supported) throw new Refusal(400, 'InvalidInput', `Notification type ${type} is not served by this sandbox`);
      if (body.payloadVersion !== supported)
        throw new Refusal(
          400,
          'InvalidInput',
          'Invalid Input',
          `payloadVersion ${body.payloadVersion} is not supported for ${type} (use ${supported})`,
        );
      if (!destinations[body.destinationId])
        throw new Refusal(400, 'InvalidInput', 'Invalid Input', `destinationId ${body.destinationId} does not exist`);
      if (
        Object.values(subscriptions).some(
          (s) => s.sellerId === sellerId && s.notificationType === type && s.payloadVersion === body.payloadVersion,
        )
      )
        throw new Refusal(409, 'Conflict', `A ${type} subscription of payload version ${body.payloadVersion} exists`);
      const subscriptionId = randomUUID();
      subscriptions[subscriptionId] = {
        subscriptionId,
        sellerId,
        notificationType: type as AmazonNotificationType,
        payloadVersion: body.payloadVersion,
        destinationId: body.destinationId,
        ...(body.processingDirective ? { processingDirective: body.processingDirective } : {}),
      };
      await persist();
      return {
        status: 200,
        body: {
          payload: {
            subscriptionId,
            payloadVersion: body.payloadVersion,
            destinationId: body.destinationId,
            ...(body.processingDirective ? { processingDirective: body.processingDirective } : {}),
          },
        },
      };
    },

    async confirmShipment(ctx) {
      const sellerId = sellerOfToken(ctx.req);
      const order = state.orders[ctx.op.pathParams.orderId ?? ''];
      if (!order || order.sellerId !== sellerId) throw new Refusal(404, 'NotFound', 'Order not found');
      const body = ctx.body as {
        marketplaceId: string;
        packageDetail: {
          packageReferenceId: string;
          carrierCode: string;
          carrierName?: string;
          trackingNumber: string;
          shipDate: string;
          orderItems: { orderItemId: string; quantity: number }[];
        };
      };
      const p = body.packageDetail;
      if (body.marketplaceId !== order.marketplaceId)
        throw new Refusal(400, 'InvalidInput', 'Invalid Input', 'marketplaceId does not match the order');
      if (!/^[1-9][0-9]*$/.test(p.packageReferenceId))
        throw new Refusal(400, 'InvalidInput', 'Invalid Input', 'packageReferenceId must be a positive number');
      if (!AMAZON_CARRIER_CODES.includes(p.carrierCode))
        throw new Refusal(
          400,
          'InvalidInput',
          'Invalid Input',
          `carrierCode ${p.carrierCode} is not a known carrier; use Other with carrierName`,
        );
      if (p.carrierCode === 'Other' && !p.carrierName)
        throw new Refusal(400, 'InvalidInput', 'Invalid Input', 'carrierName is required when carrierCode is Other');
      if (!/^\d{4}-\d{2}-\d{2}T/.test(p.shipDate) || Number.isNaN(Date.parse(p.shipDate)))
        throw new Refusal(400, 'InvalidInput', 'Invalid Input', 'shipDate must be ISO 8601');
      if (order.status === 'CANCELLED')
        throw new Refusal(400, 'InvalidInput', 'Invalid Input', 'The order is cancelled');
      for (const i of p.orderItems)
        if (!order.items.some((x) => x.orderItemId === i.orderItemId))
          throw new Refusal(400, 'InvalidInput', 'Invalid Input', `orderItemId ${i.orderItemId} is not in the order`);
      const existing = order.packages.find((x) => x.packageReferenceId === p.packageReferenceId);
      const shippedQty = (orderItemId: string) =>
        order.packages
          .filter((x) => x !== existing)
          .flatMap((x) => x.items)
          .filter((x) => x.orderItemId === orderItemId)
          .reduce((s, x) => s + x.quantity, 0);
      if (!existing && order.status === 'SHIPPED')
        throw new Refusal(400, 'PackageToUpdateNotFound', 'The order is already shipped; no package to update');
      for (const i of p.orderItems) {
        const item = order.items.find((x) => x.orderItemId === i.orderItemId);
        if (item && shippedQty(i.orderItemId) + i.quantity > item.quantity)
          throw new Refusal(
            400,
            'InvalidInput',
            'Invalid Input',
            `quantity for ${i.orderItemId} exceeds what is unshipped`,
          );
      }
      const pkg = {
        packageReferenceId: p.packageReferenceId,
        carrierCode: p.carrierCode,
        ...(p.carrierName ? { carrierName: p.carrierName } : {}),
        trackingNumber: p.trackingNumber,
        shipDate: p.shipDate,
        items: p.orderItems.map((i) => ({ orderItemId: i.orderItemId, quantity: i.quantity })),
      };
      if (existing) Object.assign(existing, pkg);
      else order.packages.push(pkg);
      const all = order.items.every(
        (i) =>
          shippedQty(i.orderItemId) + (pkg.items.find((x) => x.orderItemId === i.orderItemId)?.quantity ?? 0) >=
          i.quantity,
      );
      order.status = all ? 'SHIPPED' : 'PARTIALLY_SHIPPED';
      order.lastUpdatedTime = iso();
      await persist();
      await orderChanged(order);
      return { status: 204 };
    },
  };

  // ----- Login with Amazon -----
  const consent = (url: URL): { status: number; location?: string; text?: string } => {
    if (url.searchParams.get('application_id') !== applicationId)
      return { status: 400, text: 'MD9100: the application id is not known' };
    if (url.searchParams.get('version') !== 'beta')
      return { status: 400, text: 'MD1000: this application is in draft; the consent URL needs version=beta' };
    const redirectUri = url.searchParams.get('redirect_uri');
    const state_ = url.searchParams.get('state');
    if (!redirectUri || !state_) return { status: 400, text: 'MD5101: the redirect URI is missing or not registered' };
    const seller = sellerFor(url.searchParams.get('login') ?? 'default');
    const code = `ANrs${randomBytes(12).toString('hex')}`;
    codes.set(code, { sellerId: seller.sellerId, redirectUri, expiresAt: now() + CODE_TTL_MS });
    const target = new URL(redirectUri);
    target.searchParams.set('state', state_);
    target.searchParams.set('selling_partner_id', seller.sellerId);
    target.searchParams.set('spapi_oauth_code', code);
    return { status: 302, location: target.toString() };
  };

  const token = async (form: URLSearchParams): Promise<{ status: number; body: unknown }> => {
    const bad = (status: number, error: string, description: string) => ({
      status,
      body: { error, error_description: description },
    });
    if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret)
      return bad(401, 'invalid_client', 'Client authentication failed');
    const issue = async (sellerId: string, refreshToken: string) => {
      const accessToken = `Atza|${randomBytes(24).toString('base64url')}`;
      state.accessTokens[accessToken] = { sellerId, expiresAt: now() + ACCESS_TOKEN_SECONDS * 1000 };
      // Tokens long expired are forgotten.
      for (const [t, v] of Object.entries(state.accessTokens))
        if (v.expiresAt < now() - 24 * 3600_000) delete state.accessTokens[t];
      await persist();
      return {
        status: 200,
        body: {
          access_token: accessToken,
          refresh_token: refreshToken,
          token_type: 'bearer',
          expires_in: ACCESS_TOKEN_SECONDS,
        },
      };
    };
    const grant = form.get('grant_type');
    if (grant === 'authorization_code') {
      const code = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      if (!code || code.expiresAt < now())
        return bad(400, 'invalid_grant', 'The authorization code is invalid or expired');
      if (form.get('redirect_uri') && form.get('redirect_uri') !== code.redirectUri)
        return bad(400, 'invalid_grant', 'The redirect URI does not match the authorization request');
      const refreshToken = `Atzr|${randomBytes(32).toString('base64url')}`;
      state.refreshTokens[refreshToken] = { sellerId: code.sellerId };
      const seller = state.sellers.find((s) => s.sellerId === code.sellerId);
      if (seller) seller.authorizedAt = now();
      return issue(code.sellerId, refreshToken);
    }
    if (grant === 'refresh_token') {
      const refreshToken = form.get('refresh_token') ?? '';
      const known = state.refreshTokens[refreshToken];
      const seller = state.sellers.find((s) => s.sellerId === known?.sellerId);
      if (!known || !seller)
        return bad(400, 'invalid_grant', 'The request has an invalid grant parameter : refresh_token');
      // The seller's authorization lasts 365 days; then it must be renewed.
      if (seller.authorizedAt + 365 * 24 * 3600_000 < now())
        return bad(
          400,
          'invalid_grant',
          'The authorization has expired; the seller must authorize the application again',
        );
      return issue(known.sellerId, refreshToken);
    }
    if (grant === 'client_credentials') {
      // Grantless: the application's own token, for the scope asked (no seller, no refresh token).
      const scope = form.get('scope') ?? '';
      if (scope !== NOTIFICATIONS_SCOPE)
        return bad(400, 'invalid_scope', `The scope ${scope || '(none)'} is not valid`);
      const accessToken = `Atza|${randomBytes(24).toString('base64url')}`;
      state.accessTokens[accessToken] = { sellerId: '', scope, expiresAt: now() + ACCESS_TOKEN_SECONDS * 1000 };
      await persist();
      return {
        status: 200,
        body: { access_token: accessToken, scope, token_type: 'bearer', expires_in: ACCESS_TOKEN_SECONDS },
      };
    }
    return bad(400, 'unsupported_grant_type', `grant_type ${grant} is not supported`);
  };

  // ----- HTTP -----
  const readBody = async (req: http.IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  };
  const send = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', 'x-amzn-RequestId': randomUUID(), ...headers });
    res.end(body === undefined ? '' : JSON.stringify(body));
  };

  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', base);
      const method = req.method ?? 'GET';
      if (method === 'GET' && url.pathname === '/apps/authorize/consent') {
        const answer = consent(url);
        await persist();
        if (answer.location) res.writeHead(302, { location: answer.location }).end();
        else res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.text);
        return;
      }
      if (method === 'POST' && url.pathname === '/auth/o2/token') {
        const answer = await token(new URLSearchParams(await readBody(req)));
        send(res, answer.status, answer.body);
        return;
      }
      if (method === 'GET' && url.pathname.startsWith('/schemas/')) {
        const link = schemaLinks.get(url.searchParams.get('X-Amz-Signature') ?? '');
        if (!link || link.expiresAt < now()) {
          res
            .writeHead(403, { 'content-type': 'application/xml' })
            .end('<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>');
          return;
        }
        if (url.pathname === '/schemas/meta-schema/v1') return send(res, 200, FAKE_META_SCHEMA);
        return send(res, 200, FAKE_PRODUCT_TYPES[link.productType]?.schema);
      }
      const op = models().match(method, url.pathname);
      if (!op) return send(res, 404, { errors: [{ code: 'NotFound', message: 'Resource not found' }] });
      let status = 500;
      try {
        const raw = await readBody(req);
        let body: unknown;
        if (raw) {
          try {
            body = JSON.parse(raw);
          } catch {
            throw new Refusal(400, INPUT_CODE[op.model] ?? 'InvalidInput', 'The request body is not valid JSON');
          }
        }
        const handler = handlers[op.operationId];
        if (!handler) throw new Refusal(404, 'NotFound', `${op.operationId} is not served by this sandbox`);
        // Who calls is checked before the quota is spent, the quota before the input.
        const sellerId = GRANTLESS.has(op.operationId) ? appOfToken(req) : sellerOfToken(req);
        const rate = take(sellerId, op.operationId);
        const problems = models().validateRequest(op, url.searchParams, body);
        if (problems) throw new Refusal(400, INPUT_CODE[op.model] ?? 'InvalidInput', 'Invalid Input', problems);
        await processDue();
        const answer = await handler({ op, query: url.searchParams, body, req });
        status = answer.status;
        const mismatch =
          answer.body === undefined ? '' : models().validateResponse(op.operationId, answer.status, answer.body);
        if (mismatch) throw new Error(`The fake's answer does not fit Amazon's model: ${mismatch}`);
        send(res, answer.status, answer.body, rate ? { 'x-amzn-RateLimit-Limit': String(rate) } : {});
      } catch (error) {
        if (error instanceof Refusal) {
          status = error.status;
          send(res, error.status, {
            errors: [
              { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) },
            ],
          });
        } else {
          status = 500;
          send(res, 500, { errors: [{ code: 'InternalFailure', message: String((error as Error).message) }] });
        }
      } finally {
        calls.push({ method, path: url.pathname, status, operationId: op.operationId });
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    applicationId,
    clientId,
    clientSecret,
    snapshot: () => structuredClone(state),
    processDue,
    listings: (sellerId) => Object.values(state.listings).filter((l) => !sellerId || l.sellerId === sellerId),
    orders: (sellerId) => Object.values(state.orders).filter((o) => !sellerId || o.sellerId === sellerId),
    async placeOrder(sellerId, marketplaceId, order) {
      await processDue();
      const market = AMAZON_MARKETPLACES.find((m) => m.id === marketplaceId);
      if (!market) throw new Error(`Unknown marketplace ${marketplaceId}`);
      const items = order.lines.map((line) => {
        const item = state.listings[key(sellerId, line.sku)];
        if (!item || item.marketplaceId !== marketplaceId || !item.status.includes('BUYABLE'))
          throw new Error(`SKU ${line.sku} is not buyable on ${market.name}`);
        const price = priceOf(item);
        return {
          orderItemId: String(10_000_000_000_000 + id()),
          sku: line.sku,
          asin: item.asin,
          title: String(first(item.attributes.item_name)?.value ?? line.sku),
          quantity: line.quantity,
          price: price?.amount ?? '0.00',
        };
      });
      const n = id();
      const orderId = `${market.code === 'US' ? '111' : market.code === 'UK' ? '202' : '302'}-${String(n).padStart(7, '0')}-${String(now() % 10_000_000).padStart(7, '0')}`;
      const placed: FakeAmazonOrder = {
        orderId,
        sellerId,
        marketplaceId,
        createdTime: iso(),
        lastUpdatedTime: iso(),
        status: order.pending ? 'PENDING' : 'UNSHIPPED',
        buyerName: order.address.name,
        address: order.address,
        currency: market.currency,
        items,
        packages: [],
      };
      state.orders[orderId] = placed;
      await persist();
      await orderChanged(placed);
      return structuredClone(placed);
    },
    async payOrder(orderId) {
      const order = state.orders[orderId];
      if (order?.status !== 'PENDING') throw new Error(`No pending order ${orderId}`);
      order.status = 'UNSHIPPED';
      order.lastUpdatedTime = iso();
      await persist();
      await orderChanged(order);
      return structuredClone(order);
    },
    async cancelOrder(orderId) {
      const order = state.orders[orderId];
      if (!order) throw new Error(`No order ${orderId}`);
      order.status = 'CANCELLED';
      order.lastUpdatedTime = iso();
      await persist();
      await orderChanged(order);
      return structuredClone(order);
    },
    failNextPutAfterApplying: () => {
      failPut = true;
    },
    throttleFor: (seconds) => {
      throttledUntil = seconds > 0 ? now() + seconds * 1000 : 0;
    },
    expireAccessTokens: () => {
      for (const t of Object.values(state.accessTokens)) t.expiresAt = Math.min(t.expiresAt, now());
    },
    async revokeAuthorization(sellerId) {
      for (const [t, v] of Object.entries(state.refreshTokens))
        if (v.sellerId === sellerId) delete state.refreshTokens[t];
      for (const [t, v] of Object.entries(state.accessTokens))
        if (v.sellerId === sellerId) delete state.accessTokens[t];
      await persist();
    },
    calls,
    deliveries,
    subscriptions: (sellerId) => Object.values(subscriptions).filter((x) => !sellerId || x.sellerId === sellerId),
    destinations: () => Object.values(destinations),
    async unsubscribe(sellerId) {
      for (const [id, sub] of Object.entries(subscriptions)) if (sub.sellerId === sellerId) delete subscriptions[id];
      await persist();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
