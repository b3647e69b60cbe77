import { createHash, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { execute } from 'graphql';
import { DEFAULT_SHOPIFY_API_VERSION, SUPPORTED_SHOPIFY_API_VERSIONS, servedVersion } from './api-versions';
import { createFakeAuth, type FakeAuth, type FakeGrant, type FakeRefreshGrant } from './fake-auth';
import {
  accessDenied,
  connection,
  type FakeRoot,
  type FakeRootContext,
  firstOf,
  grants,
  type ProtectedDataAccess,
  prepareShopifyRequest,
  shopifyAdminSchema,
} from './fake-graphql';
import { createFakeOrders, type FakeShopifyOrders } from './fake-orders';
import {
  type FakeMedia,
  type FakeProduct,
  type FakeShopifyStore,
  type FakeVariant,
  memoryFakeShopifyStore,
  StoredTokenMap,
} from './fake-state';
import { createFakeWebhooks, type FakeWebhooks, type WebhookTransport } from './fake-webhooks';
import { isValidShopDomain, queryHmac, webhookHmac } from './hmac';
import { MAX_QUERY_COST, queryCost } from './query-cost';

/**
 * A local Shopify (apis.md A, checklist D, revised by section E): OAuth authorize (auto-approve) and access_token,
 * and the Admin GraphQL calls Podforge makes, strict where Shopify is strict:
 * - products (productSet upsert by handle or id, variants not listed removed; productUpdate; productDelete), with
 *   Shopify's defaults: a new variant is tracked with 0 in stock and policy DENY, so it is not available for sale
 *   unless the input says `inventoryItem.tracked: false` or `inventoryPolicy: CONTINUE` (E3);
 * - publications: a product is on no sales channel until `publishablePublish` puts it on the Online Store
 *   publication; a buyer sees only ACTIVE products published there (`storefront`);
 * - media from staged uploads go UPLOADED -> PROCESSING -> READY over later reads, or FAILED (a staged target
 *   never uploaded, an address Shopify cannot reach, or the `failNextMedia` switch); a variant's `file` must be one
 *   of the product's `files`;
 * - the token's scopes are enforced (ACCESS_DENIED top-level error) and every call is priced (requested cost, nested
 *   connections multiplied, 1000 at most per query) against a leaky bucket per token.
 * - every document runs on Shopify's own Admin schema (fake-graphql.ts): refused documents and variables answer as
 *   Shopify does (HTTP 200, top-level errors), and the resolvers below answer only the fields asked for;
 * - API versions (api-versions.ts): a supported one is served as asked, a retired one falls forward to the oldest
 *   supported (the X-Shopify-API-Version response header says which), anything else answers 404.
 * Shops live under a path prefix: `{url}/{shop}/admin/...`, so the client's base URL is `{url}/{shop}`. State is in
 * a `FakeShopifyStore` (memory for tests, the app database for the built-in sandbox). Listens on 127.0.0.1 only;
 * every shop with a valid *.myshopify.com name exists.
 */

export type FakeShopifyOptions = {
  apiKey?: string;
  apiSecret?: string;
  /** The app's API version (webhooks are sent in it, fallen forward when retired); default 2026-04. */
  apiVersion?: string;
  /** Supported stable versions, oldest first (default: those of api-versions.ts). */
  supportedApiVersions?: string[];
  /**
   * The secret a shop's webhooks are signed with (default: the app secret, as Shopify does). The built-in sandbox
   * gives each connection its own, so nobody who knows the sandbox's fixed app credentials can sign one.
   */
  webhookSecret?: (shop: string) => Promise<string>;
  /** Callback URLs must start with one of these; any when empty. */
  redirectUriPrefixes?: string[];
  now?: () => number;
  /** Shops that do not exist: everything under them answers 404. */
  unknownShops?: string[];
  /** Bucket size and refill per second (Shopify's standard plan: 2000 and 100). */
  bucket?: { maximum: number; restoreRate: number };
  /** Plays a custom-distribution app: non-expiring offline tokens may be asked for (see fake-auth.ts). */
  customApp?: boolean;
  /** How webhooks reach the app (default: fetch); tests map the public https callback to the app under test. */
  webhookTransport?: WebhookTransport;
  /** Where products, tokens and staged files are kept; memory when absent. */
  store?: FakeShopifyStore;
  /**
   * The app's protected customer data access (default level2: approved, as a custom app always is). A public app
   * Shopify has not approved ('none') cannot subscribe to orders webhooks and reads no customer or shipping address.
   */
  protectedCustomerData?: ProtectedDataAccess;
};

export type FakeOrder = { id: string; name: string; createdAt: string; total: string; currency: string };

/** What a buyer sees of a product (the sandbox page shows it). */
export type StorefrontProduct = {
  id: string;
  title: string;
  handle: string;
  status: string;
  productType: string;
  tags: string[];
  updatedAt: string;
  /** ACTIVE and published to the Online Store publication. */
  onlineStore: boolean;
  options: string[];
  /** READY pictures, the product's first first. */
  images: { url: string; alt: string }[];
  /** Pictures that ended FAILED, with Shopify's reason. */
  failedImages: { alt: string; message: string }[];
  variants: {
    title: string;
    price: string;
    sku: string | null;
    availableForSale: boolean;
    /** The variant's own picture once READY, else null. */
    image: string | null;
  }[];
};

export type FakeShopify = {
  url: string;
  apiKey: string;
  apiSecret: string;
  /** The shop's products (by GID), for tests. */
  products(shop: string): Promise<FakeProduct[]>;
  /** The shop's products as the storefront and admin would show them (the sandbox page). */
  storefront(shop: string): Promise<StorefrontProduct[]>;
  /** The Online Store publication of a shop. */
  onlineStorePublicationId(shop: string): string;
  addOrder(shop: string, order: { total: string; currency?: string; createdAt?: Date }): Promise<FakeOrder>;
  /** Orders with lines, fulfilment orders and webhooks (fake-orders.ts). */
  orders: FakeShopifyOrders;
  /** Changes the app's protected customer data access (Shopify's review of the app, approved or not). */
  setProtectedCustomerData(access: ProtectedDataAccess): void;
  /** The next `n` GraphQL calls answer THROTTLED (HTTP 200) with an empty bucket. */
  throttleNext(n: number): void;
  /**
   * The next productSet fails: `userError` answers a userError and changes nothing; `after-apply` applies the
   * change and then answers HTTP 500, as when the connection drops after Shopify did the work.
   */
  failNextProductSet(mode: 'userError' | 'after-apply', message?: string): void;
  /** The next `n` media created end FAILED (Shopify could not process the picture). */
  failNextMedia(n?: number): void;
  /** The next authorize redirect carries a wrong hmac. */
  tamperNextHmac(): void;
  /** Signs a webhook the way Shopify does (apis.md A4). */
  signWebhook(body: string): string;
  /** Tokens: expiring offline tokens, refresh with rotation, the install request (fake-auth.ts). */
  auth: FakeAuth;
  /** Webhook subscriptions, signed deliveries, merchant edits in the admin (fake-webhooks.ts). */
  webhooks: FakeWebhooks;
  /** The merchant uninstalls the app: tokens revoked, app/uninstalled sent to the shop's subscriptions. */
  uninstall(shop: string): Promise<void>;
  /** GraphQL calls by top-level field, in order: throttled or not, their requested cost and when (ms). */
  calls: { field: string; throttled: boolean; cost: number; at: number }[];
  /** Every GraphQL document received (authenticated), with its variables and the version asked for and served. */
  received: { asked: string; served: string; query: string; variables: Record<string, unknown> }[];
  /** The bucket's size and refill per second. */
  bucket: { maximum: number; restoreRate: number };
  close(): Promise<void>;
};

const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'Content-Type': 'application/json', 'X-Request-Id': randomUUID(), ...headers });
  res.end(JSON.stringify(body));
};

const readRaw = (req: http.IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

const numericId = () => String(Math.floor(1e9 + Math.random() * 8e9));

/** The top-level field of the operation, e.g. `productSet` in `mutation x($a: T) { productSet(...) {...} }`. */
export function topLevelField(query: string): string | null {
  const open = query.indexOf('{');
  if (open < 0) return null;
  return /^\s*([A-Za-z_]\w*)/.exec(query.slice(open + 1))?.[1] ?? null;
}

const ONLINE_STORE = 'Online Store';

/** Hosts Shopify's servers cannot fetch from: this machine and private networks (E3: use staged uploads). */
const unreachable = (source: string) => {
  let host: string;
  try {
    host = new URL(source).hostname;
  } catch {
    return true;
  }
  return /^(localhost|127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|\[::1\]|0\.0\.0\.0)/.test(host);
};

export async function startFakeShopify(options: FakeShopifyOptions = {}): Promise<FakeShopify> {
  const apiKey = options.apiKey ?? 'fake-shopify-key';
  const apiSecret = options.apiSecret ?? 'fake-shopify-secret';
  const now = options.now ?? Date.now;
  const { maximum, restoreRate } = options.bucket ?? { maximum: 2000, restoreRate: 100 };
  const store = options.store ?? memoryFakeShopifyStore();
  const codes = new Map<string, { shop: string; scope: string; expiresAt: number }>();
  // Written through to the store and loaded back, so tokens issued before a restart still work.
  const accessTokens = await new StoredTokenMap<FakeGrant>('token').attach(store).load();
  const refreshTokens = await new StoredTokenMap<FakeRefreshGrant>('refresh-token').attach(store).load();
  const tokens = {
    flush: () => Promise.all([accessTokens.flush(), refreshTokens.flush()]),
  };
  const auth = createFakeAuth({
    apiSecret,
    now,
    access: accessTokens,
    refreshTokens,
    ...(options.customApp ? { customApp: true } : {}),
  });
  const buckets = new Map<string, { available: number; at: number }>();
  const calls: FakeShopify['calls'] = [];
  const received: FakeShopify['received'] = [];
  let throttle = 0;
  let failNext: { mode: 'userError' | 'after-apply'; message: string } | null = null;
  let failMedia = 0;
  let tamper = false;
  let protectedData: ProtectedDataAccess = options.protectedCustomerData ?? 'level2';
  let base = '';
  const webhookSecret = options.webhookSecret ?? (async () => apiSecret);
  const supportedVersions = options.supportedApiVersions ?? SUPPORTED_SHOPIFY_API_VERSIONS;
  const appVersion = options.apiVersion ?? DEFAULT_SHOPIFY_API_VERSION;
  const webhookVersion = servedVersion(appVersion, supportedVersions) ?? supportedVersions[0] ?? appVersion;
  const orders = createFakeOrders({
    protectedData: () => protectedData,
    webhookSecret,
    apiVersion: webhookVersion,
    now,
    store,
    variants: async (shop) =>
      (await loadProducts(shop)).flatMap((p) =>
        p.variants.map((v) => ({ id: v.id, sku: v.sku, price: v.price, title: v.title, productTitle: p.title })),
      ),
  });
  const webhooks = createFakeWebhooks({
    webhookSecret,
    apiVersion: webhookVersion,
    now,
    products: {
      get: (shop, id) => store.get<FakeProduct>('product', productKey(shop, id)),
      save: (shop, p) => saveProduct(shop, p),
      async remove(shop, id) {
        if (!(await store.get<FakeProduct>('product', productKey(shop, id)))) return false;
        await store.delete('product', productKey(shop, id));
        return true;
      },
    },
    ...(options.webhookTransport ? { transport: options.webhookTransport } : {}),
  });

  const productKey = (shop: string, id: string) => `${shop}|${id}`;
  const loadProducts = (shop: string) => store.list<FakeProduct>('product', `${shop}|`);
  const saveProduct = (shop: string, p: FakeProduct) => store.put('product', productKey(shop, p.id), p);

  /** Stable per shop (it survives a restart): derived from the shop's name. */
  const publicationId = (shop: string, name: string) =>
    `gid://shopify/Publication/${parseInt(createHash('sha256').update(`${shop}/${name}`).digest('hex').slice(0, 10), 16)}`;
  const publicationsOf = (shop: string) =>
    [ONLINE_STORE, 'Point of Sale'].map((name) => ({ id: publicationId(shop, name), name }));
  /** A sales channel's publication; its name is its catalog's title (Publication.name is deprecated). */
  const publicationNode = (p: { id: string; name: string }) => ({
    id: p.id,
    name: p.name,
    autoPublish: false,
    catalog: { __typename: 'AppCatalog', id: p.id.replace('Publication', 'AppCatalog'), title: p.name },
  });

  /** A leaky bucket per token, refilled per second. */
  const spend = (token: string, cost: number) => {
    const t = now();
    const b = buckets.get(token) ?? { available: maximum, at: t };
    b.available = Math.min(maximum, b.available + ((t - b.at) / 1000) * restoreRate);
    b.at = t;
    const ok = b.available >= cost;
    if (ok) b.available -= cost;
    buckets.set(token, b);
    return {
      ok,
      extensions: {
        cost: {
          requestedQueryCost: cost,
          actualQueryCost: ok ? cost : null,
          throttleStatus: { maximumAvailable: maximum, currentlyAvailable: Math.floor(b.available), restoreRate },
        },
      },
    };
  };

  const mediaUrl = (m: FakeMedia) => (m.stagedKey ? `${base}/files/${m.stagedKey}` : m.originalSource);
  const availableForSale = (v: FakeVariant) =>
    !v.tracked || v.inventoryPolicy === 'CONTINUE' || v.inventoryQuantity > 0;

  /** A read of the product: its media move one step on (UPLOADED -> PROCESSING -> READY or FAILED). */
  const advanceMedia = async (shop: string, p: FakeProduct) => {
    let moved = false;
    for (const m of p.media) {
      if (m.status === 'UPLOADED') m.status = 'PROCESSING';
      else if (m.status === 'PROCESSING') m.status = m.failure ? 'FAILED' : 'READY';
      else continue;
      moved = true;
    }
    if (moved) await saveProduct(shop, p);
  };

  const mediaNode = (m: FakeMedia) => {
    const image = m.status === 'READY' ? { url: mediaUrl(m), altText: m.alt } : null;
    return {
      __typename: 'MediaImage',
      id: m.id,
      alt: m.alt,
      mediaContentType: 'IMAGE',
      status: m.status,
      mediaErrors: m.status === 'FAILED' && m.failure ? [{ ...m.failure, details: null }] : [],
      preview: { image, status: m.status },
      image,
    };
  };

  const productNode = (shop: string, p: FakeProduct) => {
    const byId = new Map(p.media.map((m) => [m.id, m]));
    return {
      __typename: 'Product',
      id: p.id,
      title: p.title,
      handle: p.handle,
      status: p.status,
      descriptionHtml: p.descriptionHtml,
      productType: p.productType,
      tags: p.tags,
      createdAt: p.createdAt,
      updatedAt: p.updatedAt,
      onlineStoreUrl: null,
      options: firstOf(
        p.options.map((o, i) => ({
          name: o.name,
          position: i + 1,
          values: o.values,
          optionValues: o.values.map((name) => ({
            name,
            hasVariants: p.variants.some((v) => v.selectedOptions.some((s) => s.name === o.name && s.value === name)),
          })),
        })),
      ),
      variants: connection(
        p.variants.map((v) => {
          const media = v.mediaId ? byId.get(v.mediaId) : undefined;
          return {
            id: v.id,
            title: v.title,
            price: v.price,
            sku: v.sku,
            selectedOptions: v.selectedOptions,
            inventoryPolicy: v.inventoryPolicy,
            inventoryQuantity: v.inventoryQuantity,
            availableForSale: availableForSale(v),
            inventoryItem: { id: v.inventoryItemId, tracked: v.tracked, sku: v.sku },
            image: media?.status === 'READY' ? { url: mediaUrl(media) } : null,
            media: connection(media ? [mediaNode(media)] : []),
          };
        }),
      ),
      media: connection(p.media.map(mediaNode)),
      resourcePublications: connection(
        p.publications.map((id) => ({
          isPublished: true,
          publication: publicationNode(publicationsOf(shop).find((x) => x.id === id) ?? { id, name: '' }),
        })),
      ),
    };
  };

  type FileInput = { originalSource?: string; alt?: string; contentType?: string };
  type VariantInput = {
    id?: string;
    optionValues?: { optionName: string; name: string }[];
    price?: string | number;
    sku?: string;
    inventoryPolicy?: 'DENY' | 'CONTINUE';
    inventoryItem?: { sku?: string; tracked?: boolean };
    inventoryQuantities?: { quantity?: number }[];
    file?: FileInput;
  };
  type SetInput = {
    title?: string;
    handle?: string;
    descriptionHtml?: string;
    productType?: string;
    tags?: string[];
    status?: string;
    productOptions?: { name: string; values: { name: string }[] }[];
    variants?: VariantInput[];
    files?: FileInput[];
  };
  type UserError = { field: string[] | null; message: string; code: string };

  const validateSet = (input: SetInput): UserError[] => {
    const errors: UserError[] = [];
    if (!input.title?.trim())
      errors.push({ field: ['input', 'title'], message: "Title can't be blank", code: 'BLANK' });
    if (input.status && !['ACTIVE', 'DRAFT', 'ARCHIVED', 'UNLISTED'].includes(input.status)) {
      errors.push({ field: ['input', 'status'], message: 'Status is not valid', code: 'INVALID_INPUT' });
    }
    const options = input.productOptions ?? [];
    if (options.length > 3) {
      errors.push({ field: ['input', 'productOptions'], message: 'Too many options', code: 'INVALID_INPUT' });
    }
    const variants = input.variants ?? [];
    if (variants.length > 100) {
      errors.push({ field: ['input', 'variants'], message: 'Too many variants', code: 'TOO_MANY_VARIANTS' });
    }
    if ((input.tags ?? []).length > 250) {
      errors.push({ field: ['input', 'tags'], message: 'Too many tags', code: 'INVALID_INPUT' });
    }
    if ((input.files ?? []).length > 250) {
      errors.push({ field: ['input', 'files'], message: 'Too many files', code: 'INVALID_INPUT' });
    }
    const sources = new Set((input.files ?? []).map((f) => f.originalSource));
    const seen = new Set<string>();
    variants.forEach((v, i) => {
      const values = v.optionValues ?? [];
      const key = values.map((o) => `${o.optionName}=${o.name}`).join('|');
      if (seen.has(key)) {
        errors.push({
          field: ['input', 'variants', String(i)],
          message: `The variant '${values.map((o) => o.name).join(' / ')}' already exists.`,
          code: 'DUPLICATE_VARIANT',
        });
      }
      seen.add(key);
      const price = Number(v.price);
      if (v.price === undefined || !Number.isFinite(price) || price < 0) {
        errors.push({
          field: ['input', 'variants', String(i), 'price'],
          message: 'Price must be a non-negative amount',
          code: 'INVALID_INPUT',
        });
      }
      if (v.inventoryPolicy && !['DENY', 'CONTINUE'].includes(v.inventoryPolicy)) {
        errors.push({
          field: ['input', 'variants', String(i), 'inventoryPolicy'],
          message: 'Inventory policy is not valid',
          code: 'INVALID_INPUT',
        });
      }
      if (v.file && !sources.has(v.file.originalSource)) {
        errors.push({
          field: ['input', 'variants', String(i), 'file'],
          message: 'A variant file must also be specified in the files input for the product',
          code: 'INVALID_INPUT',
        });
      }
      if (values.length !== options.length) {
        errors.push({
          field: ['input', 'variants', String(i), 'optionValues'],
          message: 'Every variant needs one value of each product option',
          code: 'INVALID_INPUT',
        });
      }
      for (const o of values) {
        if (!options.some((p) => p.name === o.optionName && p.values.some((x) => x.name === o.name))) {
          errors.push({
            field: ['input', 'variants', String(i), 'optionValues'],
            message: `Option value '${o.name}' is not listed in productOptions`,
            code: 'INVALID_INPUT',
          });
        }
      }
    });
    return errors;
  };

  /** A picture Shopify will fetch: how its processing will end, decided from where it comes from. */
  const newMedia = async (f: FileInput): Promise<FakeMedia> => {
    const source = f.originalSource ?? '';
    const own = `${base}/files/`;
    const stagedKey = source.startsWith(own) ? decodeURIComponent(source.slice(own.length)) : null;
    let failure: FakeMedia['failure'] = null;
    if (failMedia > 0) {
      failMedia -= 1;
      failure = { code: 'IMAGE_PROCESSING_FAILURE', message: 'Image could not be processed' };
    } else if (stagedKey ? !(await store.getFile(stagedKey)) : unreachable(source)) {
      failure = { code: 'IMAGE_DOWNLOAD_FAILURE', message: `Image could not be downloaded from ${source}` };
    }
    return {
      id: `gid://shopify/MediaImage/${numericId()}`,
      alt: f.alt ?? '',
      originalSource: stagedKey ? '' : source,
      stagedKey,
      status: 'UPLOADED',
      failure,
    };
  };

  const sourceOf = (m: FakeMedia) => mediaUrl(m);

  const applySet = async (
    shop: string,
    input: SetInput,
    identifier: { id?: string; handle?: string } | undefined,
  ): Promise<{ product?: FakeProduct; error?: string }> => {
    const products = await loadProducts(shop);
    const wanted = identifier?.handle ?? input.handle;
    const existing = identifier?.id
      ? products.find((p) => p.id === identifier.id)
      : products.find((p) => p.handle === wanted);
    if (identifier?.id && !existing) return { error: 'Product does not exist' };
    const stamp = new Date(now()).toISOString();
    const handle =
      input.handle ??
      existing?.handle ??
      (input.title ?? 'product')
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '');
    const product: FakeProduct = existing ?? {
      id: `gid://shopify/Product/${numericId()}`,
      handle,
      title: '',
      descriptionHtml: '',
      productType: '',
      tags: [],
      status: 'DRAFT',
      options: [],
      variants: [],
      media: [],
      publications: [],
      createdAt: stamp,
      updatedAt: stamp,
    };
    product.handle = handle;
    product.title = input.title ?? product.title;
    product.descriptionHtml = input.descriptionHtml ?? product.descriptionHtml;
    product.productType = input.productType ?? product.productType;
    product.tags = input.tags ?? product.tags;
    product.status = input.status ?? product.status;
    product.options = (input.productOptions ?? []).map((o) => ({ name: o.name, values: o.values.map((v) => v.name) }));
    // List fields are replaced (apis.md productSet): a file or variant not listed is gone. A file given again by
    // the same source keeps its media.
    if (input.files) {
      const kept = new Map(product.media.map((m) => [sourceOf(m), m]));
      const media: FakeMedia[] = [];
      for (const f of input.files) {
        media.push(kept.get(f.originalSource ?? '') ?? (await newMedia(f)));
      }
      product.media = media;
    }
    const mediaBySource = new Map(product.media.map((m) => [sourceOf(m), m]));
    const before = new Map(
      product.variants.map((v) => [v.selectedOptions.map((o) => `${o.name}=${o.value}`).join('|'), v]),
    );
    product.variants = (input.variants ?? []).map((v) => {
      const selectedOptions = (v.optionValues ?? []).map((o) => ({ name: o.optionName, value: o.name }));
      const old = before.get(selectedOptions.map((o) => `${o.name}=${o.value}`).join('|'));
      const sku = v.inventoryItem?.sku ?? v.sku ?? old?.sku ?? null;
      return {
        id: old?.id ?? `gid://shopify/ProductVariant/${numericId()}`,
        title: selectedOptions.map((o) => o.value).join(' / '),
        price: Number(v.price).toFixed(2),
        sku,
        selectedOptions,
        inventoryItemId: old?.inventoryItemId ?? `gid://shopify/InventoryItem/${numericId()}`,
        // New variants: tracked, 0 in stock, DENY (E3); an update keeps what it does not say.
        tracked: v.inventoryItem?.tracked ?? old?.tracked ?? true,
        inventoryPolicy: v.inventoryPolicy ?? old?.inventoryPolicy ?? 'DENY',
        inventoryQuantity: v.inventoryQuantities?.[0]?.quantity ?? old?.inventoryQuantity ?? 0,
        mediaId: v.file ? (mediaBySource.get(v.file.originalSource ?? '')?.id ?? null) : (old?.mediaId ?? null),
      };
    });
    product.updatedAt = stamp;
    await saveProduct(shop, product);
    return { product };
  };

  type UserErrorOut = { field: string[] | null; message: string; code?: string };
  const findProduct = async (shop: string, id: unknown) =>
    typeof id === 'string' ? ((await store.get<FakeProduct>('product', productKey(shop, id))) ?? null) : null;
  const needs = (ctx: FakeRootContext, field: string, scope: string) => {
    if (!grants(ctx.scopes, scope)) throw accessDenied(field, scope);
  };

  /**
   * The root fields the fake answers, as graphql-js resolvers over the fake's state: each answers the whole object
   * it knows (connections resolved with their arguments) and graphql-js keeps only what the document selects.
   */
  const roots: Record<string, FakeRoot> = {
    shop: (_args, ctx) => ({ name: ctx.shop.replace('.myshopify.com', ''), myshopifyDomain: ctx.shop }),
    productSet: async (args, ctx) => {
      needs(ctx, 'productSet', 'write_products');
      const input = (args.input ?? {}) as SetInput;
      const fail = failNext;
      failNext = null;
      if (fail?.mode === 'userError') {
        return { product: null, userErrors: [{ field: null, message: fail.message }] };
      }
      const userErrors = validateSet(input);
      if (userErrors.length) return { product: null, userErrors };
      const result = await applySet(ctx.shop, input, args.identifier as { id?: string; handle?: string } | undefined);
      if (fail?.mode === 'after-apply') ctx.failAfterApply = fail.message;
      if (!result.product) {
        return {
          product: null,
          userErrors: [{ field: ['identifier', 'id'], message: result.error, code: 'PRODUCT_DOES_NOT_EXIST' }],
        };
      }
      return { product: productNode(ctx.shop, result.product), userErrors: [] };
    },
    productUpdate: async (args, ctx) => {
      needs(ctx, 'productUpdate', 'write_products');
      const input = (args.product ?? {}) as { id?: string; status?: string; title?: string };
      const product = await findProduct(ctx.shop, input.id);
      if (!product) return { product: null, userErrors: [{ field: ['id'], message: 'Product does not exist' }] };
      product.status = input.status ?? product.status;
      product.title = input.title ?? product.title;
      product.updatedAt = new Date(now()).toISOString();
      await saveProduct(ctx.shop, product);
      return { product: productNode(ctx.shop, product), userErrors: [] };
    },
    productDelete: async (args, ctx) => {
      needs(ctx, 'productDelete', 'write_products');
      const input = (args.input ?? {}) as { id?: string };
      const product = await findProduct(ctx.shop, input.id);
      if (!product) {
        return { deletedProductId: null, userErrors: [{ field: ['id'], message: 'Product does not exist' }] };
      }
      await store.delete('product', productKey(ctx.shop, product.id));
      return { deletedProductId: product.id, userErrors: [] };
    },
    publications: (args, ctx) => {
      needs(ctx, 'publications', 'read_publications');
      return connection(publicationsOf(ctx.shop).map(publicationNode))(args);
    },
    publishablePublish: async (args, ctx) => {
      needs(ctx, 'publishablePublish', 'write_publications');
      const product = await findProduct(ctx.shop, args.id);
      const inputs = (args.input ?? []) as { publicationId?: string }[];
      const known = new Set(publicationsOf(ctx.shop).map((p) => p.id));
      const userErrors: UserErrorOut[] = [];
      if (!product) userErrors.push({ field: ['id'], message: 'Resource does not exist', code: 'INVALID' });
      inputs.forEach((i, n) => {
        if (!i.publicationId || !known.has(i.publicationId)) {
          userErrors.push({
            field: ['input', String(n), 'publicationId'],
            message: 'Publication does not exist',
            code: 'INVALID',
          });
        }
      });
      if (!product || userErrors.length) return { publishable: null, userErrors };
      product.publications = [...new Set([...product.publications, ...inputs.map((i) => i.publicationId as string)])];
      await saveProduct(ctx.shop, product);
      return {
        publishable: { ...productNode(ctx.shop, product), publishedOnPublication: true },
        shop: { name: ctx.shop },
        userErrors: [],
      };
    },
    product: async (args, ctx) => {
      needs(ctx, 'product', 'read_products');
      const product = await findProduct(ctx.shop, args.id);
      if (product) await advanceMedia(ctx.shop, product);
      return product ? productNode(ctx.shop, product) : null;
    },
    products: async (args, ctx) => {
      needs(ctx, 'products', 'read_products');
      // Shopify's default order is by id; the client asks for UPDATED_AT, reversed (the newest first).
      const key = args.sortKey === 'UPDATED_AT' ? 'updatedAt' : args.sortKey === 'TITLE' ? 'title' : 'createdAt';
      const products = (await loadProducts(ctx.shop)).sort((a, b) => a[key].localeCompare(b[key]));
      if (args.reverse) products.reverse();
      const page = await connection(products)(args);
      for (const p of page.nodes) await advanceMedia(ctx.shop, p);
      return {
        ...page,
        nodes: page.nodes.map((p) => productNode(ctx.shop, p)),
        edges: page.edges.map((e) => ({ ...e, node: productNode(ctx.shop, e.node) })),
      };
    },
    nodes: async (args, ctx) => {
      needs(ctx, 'nodes', 'read_products');
      const ids = (args.ids ?? []) as string[];
      return Promise.all(
        ids.map(async (id) => {
          const p = await findProduct(ctx.shop, id);
          return p ? productNode(ctx.shop, p) : null;
        }),
      );
    },
    stagedUploadsCreate: (args, ctx) => {
      if (!grants(ctx.scopes, 'write_products') && !grants(ctx.scopes, 'write_files')) {
        throw accessDenied('stagedUploadsCreate', 'write_files');
      }
      const inputs = (args.input ?? []) as { filename: string; mimeType: string }[];
      return {
        stagedTargets: inputs.map((i) => {
          const name = (i.filename || 'file').replace(/[^A-Za-z0-9._-]/g, '_');
          const key = `${randomBytes(8).toString('hex')}/${name}`;
          return {
            url: `${base}/staged-uploads/${key}`,
            resourceUrl: `${base}/files/${key}`,
            parameters: [
              { name: 'Content-Type', value: i.mimeType },
              { name: 'key', value: key },
            ],
          };
        }),
        userErrors: [],
      };
    },
    ...orders.roots,
    ...webhooks.roots,
  };

  const graphql = async (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    shopName: string,
    asked: string,
    version: string,
  ) => {
    const headers: Record<string, string> = { 'X-Shopify-API-Version': version };
    const token = req.headers['x-shopify-access-token'];
    // Unknown, revoked and expired tokens alike (apis.md E1).
    const grant = typeof token === 'string' ? ((await auth.grantOf(token)) ?? undefined) : undefined;
    const raw = await readRaw(req);
    if (!grant || grant.shop !== shopName || typeof token !== 'string') {
      return json(
        res,
        401,
        { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' },
        headers,
      );
    }
    let body: { query?: string; variables?: Record<string, unknown> | null; operationName?: string | null };
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      return json(res, 400, { errors: 'Bad Request' }, headers);
    }
    const query = typeof body.query === 'string' ? body.query : '';
    const vars = body.variables && typeof body.variables === 'object' ? body.variables : {};
    const operationName = body.operationName ?? undefined;
    received.push({ asked, served: version, query, variables: vars });
    // Shopify's schema decides first: a document or variables it refuses are answered before anything is spent.
    const prepared = prepareShopifyRequest(query, vars, operationName);
    if (!prepared.ok) {
      calls.push({ field: topLevelField(query) ?? '', throttled: false, cost: 0, at: now() });
      return json(res, 200, { errors: prepared.errors }, headers);
    }
    const field = prepared.fields[0] ?? '';
    // Shopify answers a document using deprecated fields with this header (apis.md A2).
    if (prepared.deprecated.length) {
      Object.assign(headers, {
        'X-Shopify-API-Deprecated-Reason': 'https://shopify.dev/api/usage/versioning#deprecation-practices',
      });
    }
    const missing = prepared.fields.find((f) => f !== '__typename' && !(f in roots));
    if (missing) {
      // A field of Shopify's schema this fake does not model: said plainly rather than answered with made-up data.
      return json(
        res,
        200,
        { errors: [{ message: `The fake Shopify does not answer ${missing}`, extensions: { code: 'NOT_IN_FAKE' } }] },
        headers,
      );
    }
    const cost = queryCost(query, vars, operationName);
    if (cost > MAX_QUERY_COST) {
      calls.push({ field, throttled: false, cost, at: now() });
      return json(
        res,
        200,
        {
          errors: [
            {
              message: `Query cost is ${cost}, which exceeds the single query max cost limit (${MAX_QUERY_COST}).`,
              extensions: {
                code: 'MAX_COST_EXCEEDED',
                cost,
                maxCost: MAX_QUERY_COST,
                documentation: 'https://shopify.dev/api/usage/rate-limits',
              },
            },
          ],
        },
        headers,
      );
    }
    if (throttle > 0) {
      throttle -= 1;
      calls.push({ field, throttled: true, cost, at: now() });
      return json(
        res,
        200,
        {
          errors: [
            {
              message: 'Throttled',
              extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' },
            },
          ],
          extensions: {
            cost: {
              requestedQueryCost: cost,
              actualQueryCost: null,
              throttleStatus: { maximumAvailable: maximum, currentlyAvailable: 0, restoreRate },
            },
          },
        },
        headers,
      );
    }
    const bucket = spend(token, cost);
    calls.push({ field, throttled: !bucket.ok, cost, at: now() });
    if (!bucket.ok) {
      return json(
        res,
        200,
        { errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED' } }], extensions: bucket.extensions },
        headers,
      );
    }
    const ctx: FakeRootContext = {
      shop: shopName,
      scopes: grant.scope.split(',').map((s) => s.trim()),
      protectedData,
      failAfterApply: null,
    };
    const result = await execute({
      schema: shopifyAdminSchema(),
      document: prepared.document,
      rootValue: roots,
      contextValue: ctx,
      variableValues: vars,
      ...(operationName ? { operationName } : {}),
    });
    if (ctx.failAfterApply) return json(res, 500, { errors: ctx.failAfterApply }, headers);
    const errors = (result.errors ?? []).map((e) => e.toJSON());
    return json(
      res,
      200,
      { data: result.data ?? null, ...(errors.length ? { errors } : {}), extensions: bucket.extensions },
      headers,
    );
  };

  const authorize = (res: http.ServerResponse, shop: string, params: URLSearchParams) => {
    const redirectUri = params.get('redirect_uri') ?? '';
    const prefixes = options.redirectUriPrefixes ?? [];
    if (params.get('client_id') !== apiKey) {
      return json(res, 400, { error: 'invalid_request', error_description: 'Unknown client_id' });
    }
    if (!/^https?:\/\//.test(redirectUri) || (prefixes.length && !prefixes.some((p) => redirectUri.startsWith(p)))) {
      return json(res, 400, { error: 'invalid_request', error_description: 'redirect_uri is not allowed' });
    }
    const code = randomBytes(16).toString('hex');
    const scope = params.get('scope') ?? '';
    codes.set(code, { shop, scope, expiresAt: now() + 60_000 });
    const back: Record<string, string> = {
      code,
      host: Buffer.from(`admin.shopify.com/store/${shop.replace('.myshopify.com', '')}`).toString('base64'),
      shop,
      state: params.get('state') ?? '',
      timestamp: String(Math.floor(now() / 1000)),
    };
    back.hmac = queryHmac(back, apiSecret);
    if (tamper) {
      tamper = false;
      back.hmac = `${back.hmac.slice(0, -1)}${back.hmac.endsWith('0') ? '1' : '0'}`;
    }
    const location = `${redirectUri}?${new URLSearchParams(back).toString().replace(/\+/g, '%20')}`;
    res.writeHead(302, { Location: location });
    res.end();
  };

  const accessToken = async (req: http.IncomingMessage, res: http.ServerResponse, shop: string) => {
    const raw = (await readRaw(req)).toString('utf8');
    let body: Record<string, string> = {};
    try {
      body = (req.headers['content-type'] ?? '').includes('json')
        ? JSON.parse(raw || '{}')
        : Object.fromEntries(new URLSearchParams(raw));
    } catch {
      return json(res, 400, { error: 'invalid_request', error_description: 'Malformed body' });
    }
    if (body.client_id !== apiKey || body.client_secret !== apiSecret) {
      return json(res, 400, { error: 'invalid_client', error_description: 'Client authentication failed' });
    }
    if (body.grant_type === 'refresh_token') {
      const refreshed = await auth.refresh(shop, body);
      return json(res, refreshed.status, refreshed.body);
    }
    if (body.grant_type === 'urn:ietf:params:oauth:grant-type:token-exchange') {
      const migrated = await auth.migrate(shop, body);
      return json(res, migrated.status, migrated.body);
    }
    const grant = body.code ? codes.get(body.code) : undefined;
    // Single use: a code is gone once presented, whatever happens next.
    if (body.code) codes.delete(body.code);
    if (!grant || grant.shop !== shop || grant.expiresAt < now()) {
      return json(res, 400, { error: 'invalid_request', error_description: 'The authorization code is invalid' });
    }
    const issued = auth.issueForCode(shop, grant.scope, body);
    return json(res, issued.status, issued.body);
  };

  const storefront = async (shop: string): Promise<StorefrontProduct[]> => {
    const online = publicationId(shop, ONLINE_STORE);
    const products = (await loadProducts(shop)).sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
    return products.map((p) => {
      const byId = new Map(p.media.map((m) => [m.id, m]));
      return {
        id: p.id,
        title: p.title,
        handle: p.handle,
        status: p.status,
        productType: p.productType,
        tags: p.tags,
        updatedAt: p.updatedAt,
        onlineStore: p.status === 'ACTIVE' && p.publications.includes(online),
        options: p.options.map((o) => o.name),
        images: p.media.filter((m) => m.status === 'READY').map((m) => ({ url: mediaUrl(m), alt: m.alt })),
        failedImages: p.media
          .filter((m) => m.status === 'FAILED')
          .map((m) => ({ alt: m.alt, message: m.failure?.message ?? 'failed' })),
        variants: p.variants.map((v) => {
          const media = v.mediaId ? byId.get(v.mediaId) : undefined;
          return {
            title: v.title,
            price: v.price,
            sku: v.sku,
            availableForSale: availableForSale(v),
            image: media?.status === 'READY' ? mediaUrl(media) : null,
          };
        }),
      };
    });
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const parts = url.pathname.split('/').filter(Boolean);
    (async () => {
      if (req.method === 'POST' && parts[0] === 'staged-uploads') {
        // A form post as the storage target takes it: the parameters, then the file last (apis.md A2).
        const key = parts.slice(1).map(decodeURIComponent).join('/');
        const raw = await readRaw(req);
        const form = await new Request('http://fake/upload', {
          method: 'POST',
          headers: { 'content-type': String(req.headers['content-type'] ?? '') },
          body: new Uint8Array(raw),
        })
          .formData()
          .catch(() => null);
        const file = form?.get('file');
        if (!form || form.get('key') !== key || !file || typeof file === 'string') {
          return json(res, 400, { errors: 'The upload needs the target parameters and a file field' });
        }
        const type = String(form.get('Content-Type') ?? file.type ?? 'application/octet-stream');
        await store.putFile(key, Buffer.from(await file.arrayBuffer()), type);
        res.writeHead(201);
        return res.end();
      }
      if (req.method === 'GET' && parts[0] === 'files') {
        const file = await store.getFile(parts.slice(1).map(decodeURIComponent).join('/'));
        if (!file) return json(res, 404, { errors: 'Not Found' });
        res.writeHead(200, { 'Content-Type': file.contentType });
        return res.end(file.bytes);
      }
      const [shop, admin, ...rest] = parts;
      if (!shop || !isValidShopDomain(shop) || admin !== 'admin' || options.unknownShops?.includes(shop)) {
        return json(res, 404, { errors: 'Not Found' });
      }
      const route = rest.join('/');
      if (req.method === 'GET' && route === 'oauth/authorize') return authorize(res, shop, url.searchParams);
      if (req.method === 'POST' && route === 'oauth/access_token') {
        await accessToken(req, res, shop);
        return tokens.flush();
      }
      const gql = /^api\/([^/]+)\/graphql\.json$/.exec(route);
      const served = gql?.[1] ? servedVersion(gql[1], supportedVersions) : null;
      if (req.method === 'POST' && gql?.[1] && served) return graphql(req, res, shop, gql[1], served);
      return json(res, 404, { errors: 'Not Found' });
    })().catch(() => {
      if (!res.headersSent) json(res, 500, { errors: 'Internal Server Error' });
    });
  });

  // Idle keep-alive sockets stay open longer than callers pool them, so a reused socket is never one just closed.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    apiKey,
    apiSecret,
    products: (shop) => loadProducts(shop),
    storefront,
    onlineStorePublicationId: (shop) => publicationId(shop, ONLINE_STORE),
    async addOrder(shop, order) {
      const o = await orders.addTotalOnly(shop, order);
      return {
        id: `gid://shopify/Order/${o.id}`,
        name: o.name,
        createdAt: o.createdAt,
        total: o.total,
        currency: o.currency,
      };
    },
    orders,
    setProtectedCustomerData(access) {
      protectedData = access;
    },
    throttleNext(n) {
      throttle = n;
    },
    failNextProductSet(mode, message = 'Shopify had a problem') {
      failNext = { mode, message };
    },
    failNextMedia(n = 1) {
      failMedia = n;
    },
    tamperNextHmac() {
      tamper = true;
    },
    signWebhook: (body) => webhookHmac(body, apiSecret),
    calls,
    received,
    bucket: { maximum, restoreRate },
    auth,
    webhooks,
    async uninstall(shop) {
      auth.revokeShop(shop);
      await webhooks.emit(shop, 'app/uninstalled', {
        id: 548380009,
        name: shop.replace('.myshopify.com', ''),
        myshopify_domain: shop,
        domain: shop,
      });
      webhooks.dropShop(shop);
    },
    close: async () => {
      await tokens.flush();
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}
