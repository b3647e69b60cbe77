import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { etsyTextProblems } from '@podforge/contract';
import { OpenApiRequestValidator } from '../openapi/request-validator';

/**
 * A local Etsy (apis.md C and E7, checklist D): OAuth 2 with PKCE (`/oauth/connect`, `/v3/public/oauth/token`) and
 * the Open API v3 calls Podforge makes: the user and shop, shipping and processing profiles, production partners,
 * the seller taxonomy, draft listings, images, inventory, variation images, activation and deletion.
 *
 * Strict where Etsy is: `x-api-key` must be `keystring:shared_secret`, the PKCE verifier must match the challenge,
 * access tokens expire after an hour on the fake's clock and refresh tokens rotate, calls are limited per second
 * and per day (429 with `retry-after`), titles and tags follow Etsy's character rules, inventory values must fit
 * the listing's properties (each value with its `value_ids`), and a physical draft cannot be activated without a
 * picture and a return policy of the shop (each shop starts with one; `removeReturnPolicies` for one without). A switch makes the next create
 * answer 500 after making the listing (etsy/open-api#162).
 *
 * Orders: a shop's receipts (getShopReceipts with its filters, sort and pagination; getShopReceipt) and
 * createReceiptShipment, each behind its OAuth scope (`transactions_r`, `transactions_w`: a token without it is
 * answered 403, as Etsy answers a call outside the granted scopes). A token carries the scopes its authorization
 * asked for; one kept from before the fake knew scopes has the four a listing push asked for then. `placeReceipt`
 * is a buyer paying for SKUs of the shop's listings (the sandbox's 'Place a test order').
 *
 * Its state is one JSON value (`snapshot()`), handed to `persist` after every change, so the built-in sandbox can
 * keep it in the database; picture bytes go to `images` (the sandbox's storage) under their id.
 */

export type EtsyFakeState = {
  nextId: number;
  /** `login`: who signed in at the approval (the built-in sandbox names its workspace's seller); absent for the first. */
  users: { user_id: number; shop_id: number; shop_name: string; login?: string }[];
  shops: Record<
    string,
    {
      shipping_profiles: { shipping_profile_id: number; title: string }[];
      processing_profiles: { readiness_state_id: number; readiness_state: string; min: number; max: number }[];
      production_partners: { production_partner_id: number; partner_name: string; location: string }[];
      /** The shop's return policies (absent in a state saved before the fake kept them: none). */
      return_policies?: FakeReturnPolicy[];
    }
  >;
  listings: Record<string, FakeListing>;
  tokens: Record<string, { user_id: number; expires_at: number; scopes?: string[] }>;
  refresh_tokens: Record<string, { user_id: number; scopes?: string[] }>;
  /** Receipts by id (absent in a state saved before the fake kept orders). */
  receipts?: Record<string, FakeReceipt>;
};

/** Etsy's ShopReturnPolicy. */
export type FakeReturnPolicy = {
  return_policy_id: number;
  accepts_returns: boolean;
  accepts_exchanges: boolean;
  return_deadline: number | null;
};

type FakeMoney = { amount: number; divisor: number; currency_code: string };
export type FakeReceipt = {
  receipt_id: number;
  shop_id: number;
  seller_user_id: number;
  buyer_user_id: number;
  name: string;
  first_line: string;
  second_line: string | null;
  city: string;
  state: string | null;
  zip: string;
  country_iso: string;
  status: 'paid' | 'completed' | 'open' | 'payment processing' | 'canceled' | 'fully refunded' | 'partially refunded';
  is_paid: boolean;
  is_shipped: boolean;
  create_timestamp: number;
  update_timestamp: number;
  grandtotal: FakeMoney;
  subtotal: FakeMoney;
  total_price: FakeMoney;
  total_shipping_cost: FakeMoney;
  transactions: {
    transaction_id: number;
    title: string;
    listing_id: number;
    product_id: number;
    sku: string;
    quantity: number;
    price: FakeMoney;
  }[];
  shipments: {
    receipt_shipping_id: number;
    shipment_notification_timestamp: number;
    carrier_name: string;
    tracking_code: string;
  }[];
};

/** The scopes a token kept from before the fake recorded them was granted: what the connect asked for then. */
export const LEGACY_ETSY_SCOPES = ['listings_r', 'listings_w', 'listings_d', 'shops_r'];

export type ReceiptAddress = {
  name: string;
  first_line: string;
  second_line?: string | null;
  city: string;
  state?: string | null;
  zip: string;
  country_iso: string;
};

export type FakeListing = {
  listing_id: number;
  shop_id: number;
  user_id: number;
  title: string;
  description: string;
  state: 'draft' | 'active' | 'inactive';
  price: number;
  quantity: number;
  who_made: string;
  when_made: string;
  taxonomy_id: number;
  shipping_profile_id: number | null;
  readiness_state_id: number | null;
  /** Absent in a state saved before the fake kept it. */
  return_policy_id?: number | null;
  production_partner_ids: number[];
  tags: string[];
  created_timestamp: number;
  updated_timestamp: number;
  images: { listing_image_id: number; rank: number }[];
  inventory: FakeInventory | null;
  variation_images: { property_id: number; value_id: number; image_id: number }[];
};

type PropertyValue = { property_id: number; property_name: string; value_ids: number[]; values: string[] };
type FakeInventory = {
  products: {
    product_id: number;
    sku: string;
    property_values: PropertyValue[];
    offerings: { offering_id: number; price: number; quantity: number; is_enabled: boolean }[];
  }[];
  price_on_property: number[];
  quantity_on_property: number[];
  sku_on_property: number[];
};

export type FakeEtsyOptions = {
  keystring?: string;
  sharedSecret?: string;
  now?: () => number;
  state?: EtsyFakeState | null;
  persist?: (state: EtsyFakeState) => Promise<void>;
  /** Picture bytes by image id; in memory when absent. */
  images?: { put(id: number, bytes: Buffer): Promise<void>; get(id: number): Promise<Buffer | null> };
  /** Calls per second and per rolling day per app (Etsy's defaults: 10 and 10,000). */
  limits?: { perSecond: number; perDay: number };
  /** Callback URLs must start with one of these; any when empty. */
  redirectUriPrefixes?: string[];
};

export type FakeEtsy = {
  url: string;
  keystring: string;
  sharedSecret: string;
  snapshot(): EtsyFakeState;
  listings(shopId?: number): FakeListing[];
  /** The next create makes the listing, then answers 500 (as Etsy sometimes does). */
  failNextCreateAfterCreating(): void;
  /** The shop has no return policy (as one set up before Etsy asked for them). */
  removeReturnPolicies(shopId: number): void;
  /** The next `n` API calls answer 429 with `retry-after: seconds`. */
  rateLimitNext(n: number, seconds?: number): void;
  /** The next authorization approves as this user (a second shop); the default user otherwise. */
  approveNextAs(user: { user_id: number; shop_id: number; shop_name: string }): void;
  /**
   * A buyer's order in a shop: one transaction per line, each a product (by SKU) of an active listing of the shop,
   * at its offering's price; paid unless `paid: false` (then 'payment processing').
   */
  placeReceipt(
    shopId: number,
    order: { lines: { sku: string; quantity: number }[]; address: ReceiptAddress; paid?: boolean },
  ): Promise<FakeReceipt>;
  /** The buyer's payment arrives for a receipt placed unpaid. */
  payReceipt(receiptId: number): Promise<FakeReceipt>;
  /** The seller cancels a receipt on Etsy. */
  cancelReceipt(receiptId: number): Promise<FakeReceipt>;
  /** A listing the seller made on Etsy by hand (not through Podforge): active, one product with this SKU and price. */
  addHandmadeListing(shopId: number, listing: { title: string; sku: string; price: number }): Promise<number>;
  receipts(shopId?: number): FakeReceipt[];
  /** API calls in order: method and path (without the query). */
  calls: { method: string; path: string; status: number }[];
  close(): Promise<void>;
};

type FakeTaxonomyNode = { id: number; name: string; children?: FakeTaxonomyNode[] };

/**
 * The seller taxonomy nodes the fake knows: a small part of Etsy's tree, same shape (every node with its level,
 * parent and `full_path_taxonomy_ids`). As in Etsy's tree, several nodes share a name ('T-shirts' sits under Women's
 * Clothing and under Gender-Neutral Adult Clothing), so a lookup by name alone picks whichever comes first. The ids
 * 374 > 465 > 478 > 482 (Clothing > Gender-Neutral Adult Clothing > Tops & Tees > T-shirts) and 559 (Women's
 * Clothing > Tops & Tees > T-shirts) are Etsy's as others measured them; the rest, and the order, are the fake's own.
 */
export const FAKE_TAXONOMY: FakeTaxonomyNode[] = [
  {
    id: 374,
    name: 'Clothing',
    children: [
      {
        id: 9101,
        name: "Women's Clothing",
        children: [{ id: 9102, name: 'Tops & Tees', children: [{ id: 559, name: 'T-shirts' }] }],
      },
      {
        id: 465,
        name: 'Gender-Neutral Adult Clothing',
        children: [
          {
            id: 9103,
            name: 'Hoodies & Sweatshirts',
            children: [{ id: 9104, name: 'Hoodies' }],
          },
          {
            id: 478,
            name: 'Tops & Tees',
            children: [
              { id: 482, name: 'T-shirts' },
              { id: 9105, name: 'Tank Tops' },
            ],
          },
        ],
      },
    ],
  },
  {
    id: 2,
    name: 'Home & Living',
    children: [
      { id: 2001, name: 'Mugs' },
      { id: 2002, name: 'Posters & Prints' },
    ],
  },
  {
    id: 3,
    name: 'Accessories',
    children: [
      { id: 3001, name: 'Phone Cases' },
      { id: 3002, name: 'Tote Bags' },
      { id: 3003, name: 'Stickers' },
    ],
  },
];
type TaxonomyView = {
  id: number;
  level: number;
  name: string;
  parent_id: number | null;
  children: TaxonomyView[];
  full_path_taxonomy_ids: number[];
};
const taxonomyView = (nodes: FakeTaxonomyNode[], parents: number[]): TaxonomyView[] =>
  nodes.map((n) => ({
    id: n.id,
    level: parents.length,
    name: n.name,
    parent_id: parents.at(-1) ?? null,
    children: taxonomyView(n.children ?? [], [...parents, n.id]),
    full_path_taxonomy_ids: [...parents, n.id],
  }));
const allIds = (nodes: FakeTaxonomyNode[]): number[] => nodes.flatMap((n) => [n.id, ...allIds(n.children ?? [])]);
const TAXONOMY_IDS = new Set(allIds(FAKE_TAXONOMY));
const WHO_MADE = new Set(['i_did', 'someone_else', 'collective']);
const WHEN_MADE = new Set(['made_to_order', '2020_2025', '2010_2019', '2000_2009', 'before_2006']);
/** Etsy's own property for colour, and the two custom properties a seller names. */
const KNOWN_PROPERTIES = new Set([200, 513, 514]);

export function emptyEtsyState(): EtsyFakeState {
  return {
    nextId: 1_000_000,
    users: [{ user_id: 5001, shop_id: 7001, shop_name: 'PodforgeSandboxShop' }],
    shops: {},
    listings: {},
    tokens: {},
    refresh_tokens: {},
  };
}

const send = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(body === undefined ? '' : JSON.stringify(body));
};

/** A request's body, read once (the OpenAPI check reads it before the route does). */
const bodies = new WeakMap<http.IncomingMessage, Promise<Buffer>>();
const readRaw = (req: http.IncomingMessage) => {
  const known = bodies.get(req);
  if (known) return known;
  const read = new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
  bodies.set(req, read);
  return read;
};

/**
 * Etsy's Open API v3 (the request side of the operations our client calls, vendored in assets/reference from Etsy's
 * OAS 3.0.0), compiled once per process on the first call. Etsy takes JSON and form bodies alike (the fake's
 * parseBody), so a body is checked against the operation's schema whichever of the two it is.
 */
let requests: OpenApiRequestValidator | null = null;
const etsyRequests = () => {
  requests ??= OpenApiRequestValidator.fromAsset('etsy-v3.requests.json', { contentTypes: 'lenient' });
  return requests;
};

/** The body as the OpenAPI check reads it: JSON, form fields, or a multipart form's fields (a file as its name). */
async function bodyToCheck(req: http.IncomingMessage, url: URL): Promise<unknown> {
  const method = req.method ?? 'GET';
  if (method !== 'POST' && method !== 'PUT' && method !== 'PATCH') return undefined;
  const raw = await readRaw(req);
  if (raw.length === 0) return undefined;
  const type = String(req.headers['content-type'] ?? '');
  if (type.includes('application/json')) {
    try {
      return JSON.parse(raw.toString('utf8'));
    } catch {
      throw new Refusal(400, 'The request body is not valid JSON');
    }
  }
  if (type.includes('multipart/form-data')) {
    const form = await new Request(url, { method, headers: { 'content-type': type }, body: new Uint8Array(raw) })
      .formData()
      .catch(() => null);
    if (!form) throw new Refusal(400, 'The multipart body could not be read');
    const fields = new URLSearchParams();
    for (const [key, value] of form.entries()) fields.append(key, typeof value === 'string' ? value : value.name);
    return fields;
  }
  return new URLSearchParams(raw.toString('utf8'));
}

const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');
const money = (n: number) => ({ amount: Math.round(n * 100), divisor: 100, currency_code: 'USD' });

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function startFakeEtsy(options: FakeEtsyOptions = {}): Promise<FakeEtsy> {
  const keystring = options.keystring ?? 'fakeetsykeystring';
  const sharedSecret = options.sharedSecret ?? 'fakeetsysecret';
  const now = options.now ?? Date.now;
  const limits = options.limits ?? { perSecond: 10, perDay: 10_000 };
  const state: EtsyFakeState = options.state ? structuredClone(options.state) : emptyEtsyState();
  const memoryImages = new Map<number, Buffer>();
  const images = options.images ?? {
    put: async (id: number, bytes: Buffer) => void memoryImages.set(id, bytes),
    get: async (id: number) => memoryImages.get(id) ?? null,
  };
  const codes = new Map<
    string,
    {
      user: EtsyFakeState['users'][number];
      challenge: string;
      redirectUri: string;
      expiresAt: number;
      scopes: string[];
    }
  >();
  state.receipts ??= {};
  const receipts = state.receipts;
  const calls: FakeEtsy['calls'] = [];
  const second = { at: 0, count: 0 };
  const day: number[] = [];
  let forced429 = { n: 0, seconds: 1 };
  let failCreate = false;
  let nextUser: EtsyFakeState['users'][number] | null = null;
  let base = '';

  const id = () => ++state.nextId;
  const sellerFor = (login: string) => {
    const known = state.users.find((u) => u.login === login);
    if (known) return known;
    const user = { user_id: id(), shop_id: id(), shop_name: 'PodforgeSandboxShop', login };
    state.users.push(user);
    return user;
  };
  const persist = async () => options.persist?.(structuredClone(state));

  const shopOf = (shopId: number) => {
    const key = String(shopId);
    let shop = state.shops[key];
    if (!shop) {
      shop = {
        shipping_profiles: [{ shipping_profile_id: shopId * 10 + 1, title: 'Standard (ships from the print partner)' }],
        processing_profiles: [
          { readiness_state_id: shopId * 10 + 2, readiness_state: 'made_to_order', min: 2, max: 5 },
        ],
        production_partners: [
          { production_partner_id: shopId * 10 + 3, partner_name: 'Printful', location: 'Charlotte, NC' },
        ],
      };
      state.shops[key] = shop;
    }
    // A shop has the return policy its setup asked for (a state saved before the fake kept them gets it too);
    // `removeReturnPolicies` makes one without.
    if (!shop.return_policies)
      shop.return_policies = [
        { return_policy_id: shopId * 10 + 4, accepts_returns: true, accepts_exchanges: true, return_deadline: 30 },
      ];
    return shop;
  };
  /** A return policy of the shop, or Etsy's 400. */
  const policyOf = (shop: EtsyFakeState['shops'][string], policyId: number) => {
    const policy = (shop.return_policies ?? []).find((x) => x.return_policy_id === policyId);
    if (!policy) throw new Refusal(400, `return_policy_id ${policyId} is not a return policy of this shop`);
    return policy;
  };
  const RETURN_DEADLINES = new Set([7, 14, 21, 30, 45, 60, 90]);
  const yes = (v: unknown) => v === true || v === 'true' || v === '1';

  const listingView = (l: FakeListing) => ({
    listing_id: l.listing_id,
    user_id: l.user_id,
    shop_id: l.shop_id,
    title: l.title,
    description: l.description,
    state: l.state,
    quantity: l.quantity,
    price: money(l.price),
    url: `https://www.etsy.com/listing/${l.listing_id}`,
    who_made: l.who_made,
    when_made: l.when_made,
    taxonomy_id: l.taxonomy_id,
    shipping_profile_id: l.shipping_profile_id,
    readiness_state_id: l.readiness_state_id,
    return_policy_id: l.return_policy_id ?? null,
    production_partners: l.production_partner_ids.map((p) => ({ production_partner_id: p })),
    tags: l.tags,
    skus: l.inventory ? l.inventory.products.map((p) => p.sku).filter(Boolean) : [],
    created_timestamp: l.created_timestamp,
    updated_timestamp: l.updated_timestamp,
  });
  const imageView = (listingId: number, i: { listing_image_id: number; rank: number }) => ({
    listing_id: listingId,
    listing_image_id: i.listing_image_id,
    rank: i.rank,
    url_fullxfull: `${base}/images/${i.listing_image_id}.png`,
  });
  const inventoryView = (inv: FakeInventory) => ({
    products: inv.products.map((p) => ({
      product_id: p.product_id,
      sku: p.sku,
      is_deleted: false,
      property_values: p.property_values.map((v) => ({ ...v, scale_id: null })),
      offerings: p.offerings.map((o) => ({ ...o, is_deleted: false, price: money(o.price) })),
    })),
    price_on_property: inv.price_on_property,
    quantity_on_property: inv.quantity_on_property,
    sku_on_property: inv.sku_on_property,
  });

  /**
   * Form or JSON bodies, as Etsy accepts both. A list field (tags, production_partner_ids) is one comma-separated
   * value: a repeated form key keeps only its last value, as Etsy does (etsy/open-api#291), and `tags[]` is not a
   * field Etsy knows.
   */
  const parseBody = async (req: http.IncomingMessage, raw: Buffer): Promise<Record<string, unknown>> => {
    const type = String(req.headers['content-type'] ?? '');
    if (type.includes('application/json')) {
      try {
        return JSON.parse(raw.toString('utf8') || '{}') as Record<string, unknown>;
      } catch {
        throw new Refusal(400, 'The request body is not valid JSON');
      }
    }
    const form = new URLSearchParams(raw.toString('utf8'));
    const out: Record<string, unknown> = {};
    for (const key of new Set(form.keys())) out[key] = form.getAll(key).at(-1);
    return out;
  };
  const list = (v: unknown): string[] =>
    Array.isArray(v)
      ? v.map(String)
      : typeof v === 'string'
        ? v
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : [];

  const authUser = (req: http.IncomingMessage) => {
    const header = String(req.headers.authorization ?? '');
    const token = header.startsWith('Bearer ') ? header.slice(7) : '';
    const entry = state.tokens[token];
    if (!entry) throw new Refusal(401, 'invalid_token');
    if (entry.expires_at <= now()) throw new Refusal(401, 'access token is expired');
    const user = state.users.find((u) => u.user_id === entry.user_id);
    if (!user) throw new Refusal(401, 'invalid_token');
    return user;
  };

  /** A call outside the token's granted scopes: 403, as Etsy answers it. */
  const requireScope = (req: http.IncomingMessage, scope: string) => {
    const header = String(req.headers.authorization ?? '');
    const entry = state.tokens[header.startsWith('Bearer ') ? header.slice(7) : ''];
    const granted = entry?.scopes ?? LEGACY_ETSY_SCOPES;
    if (!granted.includes(scope)) throw new Refusal(403, `Missing required scope: ${scope}`);
  };

  const checkApiKey = (req: http.IncomingMessage) => {
    const key = String(req.headers['x-api-key'] ?? '');
    if (key === keystring) throw new Refusal(403, 'Shared secret is required in x-api-key header.');
    if (key !== `${keystring}:${sharedSecret}`) {
      throw new Refusal(403, "Invalid API key: should be in the format 'keystring:shared_secret'.");
    }
  };

  /** Per-second and rolling per-day budgets; null when the call may go ahead, else the seconds to wait. */
  const spend = (): number | null => {
    if (forced429.n > 0) {
      forced429.n -= 1;
      return forced429.seconds;
    }
    const t = now();
    const sec = Math.floor(t / 1000);
    if (second.at !== sec) {
      second.at = sec;
      second.count = 0;
    }
    while (day.length > 0 && (day[0] ?? 0) <= t - 86_400_000) day.shift();
    if (day.length >= limits.perDay) return Math.ceil(((day[0] ?? t) + 86_400_000 - t) / 1000);
    if (second.count >= limits.perSecond) return 1;
    second.count += 1;
    day.push(t);
    return null;
  };

  const ownListing = (user: EtsyFakeState['users'][number], listingId: string): FakeListing => {
    const l = state.listings[listingId];
    if (!l || l.user_id !== user.user_id) throw new Refusal(404, `Listing ${listingId} not found`);
    return l;
  };

  const validateText = (title: string, tags: string[]) => {
    if (title.length > 140) throw new Refusal(400, 'title must be 140 characters or fewer');
    if (tags.length > 13) throw new Refusal(400, 'Too many tags: 13 at most');
    const long = tags.find((t) => t.length > 20);
    if (long) throw new Refusal(400, `Tag "${long}" is longer than 20 characters`);
    const problems = etsyTextProblems({ title, tags });
    if (problems.length > 0) throw new Refusal(400, problems.join(' '));
  };

  async function createListing(user: EtsyFakeState['users'][number], shopId: number, body: Record<string, unknown>) {
    if (shopId !== user.shop_id) throw new Refusal(403, 'You do not own this shop');
    const shop = shopOf(shopId);
    for (const field of ['quantity', 'title', 'description', 'price', 'who_made', 'when_made', 'taxonomy_id']) {
      if (body[field] === undefined || body[field] === '')
        throw new Refusal(400, `Missing required parameter: ${field}`);
    }
    const title = String(body.title);
    const tags = list(body.tags);
    validateText(title, tags);
    const price = Number(body.price);
    if (!(price > 0)) throw new Refusal(400, 'price must be a positive number');
    const quantity = Number(body.quantity);
    if (!Number.isInteger(quantity) || quantity < 1 || quantity > 999) throw new Refusal(400, 'quantity must be 1-999');
    if (!WHO_MADE.has(String(body.who_made))) throw new Refusal(400, 'who_made is not a valid value');
    if (!WHEN_MADE.has(String(body.when_made))) throw new Refusal(400, 'when_made is not a valid value');
    if (!TAXONOMY_IDS.has(Number(body.taxonomy_id))) throw new Refusal(400, 'taxonomy_id is not a valid taxonomy');
    const type = String(body.type ?? 'physical');
    const shipping = body.shipping_profile_id === undefined ? null : Number(body.shipping_profile_id);
    const readiness = body.readiness_state_id === undefined ? null : Number(body.readiness_state_id);
    if (type === 'physical') {
      if (!shop.shipping_profiles.some((p) => p.shipping_profile_id === shipping))
        throw new Refusal(400, 'A physical listing needs a shipping_profile_id of this shop');
      if (!shop.processing_profiles.some((p) => p.readiness_state_id === readiness))
        throw new Refusal(400, 'A physical listing needs a readiness_state_id (processing profile) of this shop');
    }
    const returnPolicy = body.return_policy_id === undefined ? null : Number(body.return_policy_id);
    if (returnPolicy !== null) policyOf(shop, returnPolicy);
    const partners = list(body.production_partner_ids).map(Number);
    if (partners.some((p) => !shop.production_partners.some((x) => x.production_partner_id === p)))
      throw new Refusal(400, 'production_partner_ids must be production partners of this shop');
    const t = Math.floor(now() / 1000);
    const listing: FakeListing = {
      listing_id: id(),
      shop_id: shopId,
      user_id: user.user_id,
      title,
      description: String(body.description),
      state: 'draft',
      price,
      quantity,
      who_made: String(body.who_made),
      when_made: String(body.when_made),
      taxonomy_id: Number(body.taxonomy_id),
      shipping_profile_id: shipping,
      readiness_state_id: readiness,
      return_policy_id: returnPolicy,
      production_partner_ids: partners,
      tags,
      created_timestamp: t,
      updated_timestamp: t,
      images: [],
      inventory: null,
      variation_images: [],
    };
    state.listings[String(listing.listing_id)] = listing;
    return listing;
  }

  function updateInventory(listing: FakeListing, body: Record<string, unknown>) {
    const products = Array.isArray(body.products) ? (body.products as Record<string, unknown>[]) : null;
    if (!products || products.length === 0) throw new Refusal(400, 'products must be a non-empty array');
    const shop = shopOf(listing.shop_id);
    const valueIds = new Map<string, number>();
    for (const p of listing.inventory?.products ?? [])
      for (const v of p.property_values)
        for (const [i, x] of v.values.entries()) valueIds.set(`${v.property_id}:${x}`, v.value_ids[i] ?? 0);
    let shape: string | null = null;
    const combos = new Set<string>();
    const out: FakeInventory['products'] = products.map((p, index) => {
      const values = Array.isArray(p.property_values) ? (p.property_values as Record<string, unknown>[]) : [];
      if (values.length > 2) throw new Refusal(400, `products[${index}]: at most two properties`);
      const pvs: PropertyValue[] = values.map((v) => {
        const propertyId = Number(v.property_id);
        if (!KNOWN_PROPERTIES.has(propertyId)) throw new Refusal(400, `property_id ${v.property_id} is not valid`);
        // The Open API marks value_ids required (an empty array for a custom value Etsy numbers itself).
        if (!Array.isArray(v.value_ids)) throw new Refusal(400, `products[${index}]: property_values need value_ids`);
        const names = list(v.values);
        if (names.length !== 1) throw new Refusal(400, `products[${index}]: each property has one value`);
        if (names.some((n) => /[()]/.test(n))) throw new Refusal(400, 'property values cannot contain ( or )');
        const key = `${propertyId}:${names[0]}`;
        if (!valueIds.has(key)) valueIds.set(key, id());
        return {
          property_id: propertyId,
          property_name: String(v.property_name ?? (propertyId === 200 ? 'Primary color' : 'Custom property')),
          value_ids: [valueIds.get(key) ?? 0],
          values: names,
        };
      });
      const thisShape = pvs.map((v) => v.property_id).join(',');
      if (shape !== null && shape !== thisShape) throw new Refusal(400, 'Every product must have the same properties');
      shape = thisShape;
      const combo = pvs.map((v) => v.values[0]).join('|');
      if (combos.has(combo)) throw new Refusal(400, `Duplicate product for ${combo}`);
      combos.add(combo);
      const offerings = Array.isArray(p.offerings) ? (p.offerings as Record<string, unknown>[]) : [];
      if (offerings.length !== 1) throw new Refusal(400, `products[${index}]: one offering per product`);
      return {
        product_id: id(),
        sku: String(p.sku ?? ''),
        property_values: pvs,
        offerings: offerings.map((o) => {
          const price = Number(o.price);
          const quantity = Number(o.quantity);
          if (!(price >= 0.2 && price <= 50_000))
            throw new Refusal(400, `products[${index}]: price must be 0.20-50000`);
          if (!Number.isInteger(quantity) || quantity < 0 || quantity > 999)
            throw new Refusal(400, `products[${index}]: quantity must be 0-999`);
          if (
            o.readiness_state_id !== undefined &&
            !shop.processing_profiles.some((x) => x.readiness_state_id === Number(o.readiness_state_id))
          )
            throw new Refusal(400, 'readiness_state_id is not a processing profile of this shop');
          return { offering_id: id(), price, quantity, is_enabled: o.is_enabled !== false };
        }),
      };
    });
    const onProperty = (v: unknown) => list(v).map(Number);
    listing.inventory = {
      products: out,
      price_on_property: onProperty(body.price_on_property),
      quantity_on_property: onProperty(body.quantity_on_property),
      sku_on_property: onProperty(body.sku_on_property),
    };
    listing.variation_images = [];
    listing.updated_timestamp = Math.floor(now() / 1000);
  }

  const receiptView = (r: FakeReceipt) => ({
    ...structuredClone(r),
    created_timestamp: r.create_timestamp,
    updated_timestamp: r.update_timestamp,
    formatted_address: [r.name, r.first_line, r.second_line, `${r.city} ${r.state ?? ''} ${r.zip}`, r.country_iso]
      .filter(Boolean)
      .join('\n'),
  });

  const bool = (v: string | null, name: string): boolean | null => {
    if (v === null) return null;
    if (v === 'true' || v === '1') return true;
    if (v === 'false' || v === '0') return false;
    throw new Refusal(400, `${name} must be true or false`);
  };
  const int = (v: string | null, name: string, min: number, max = Number.MAX_SAFE_INTEGER): number | null => {
    if (v === null) return null;
    const n = Number(v);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new Refusal(400, `${name} must be an integer of ${min}-${max}`);
    return n;
  };
  const CANCELED: FakeReceipt['status'][] = ['canceled', 'fully refunded'];

  /** getShopReceipts: the filters, sort (created, updated, receipt_id; desc by default) and offset pagination. */
  function listReceipts(shopId: number, q: URLSearchParams) {
    const limit = int(q.get('limit'), 'limit', 1, 100) ?? 25;
    const offset = int(q.get('offset'), 'offset', 0) ?? 0;
    const minCreated = int(q.get('min_created'), 'min_created', 946684800);
    const maxCreated = int(q.get('max_created'), 'max_created', 946684800);
    const minModified = int(q.get('min_last_modified'), 'min_last_modified', 946684800);
    const maxModified = int(q.get('max_last_modified'), 'max_last_modified', 946684800);
    const paid = bool(q.get('was_paid'), 'was_paid');
    const shipped = bool(q.get('was_shipped'), 'was_shipped');
    const canceled = bool(q.get('was_canceled'), 'was_canceled');
    const sortOn = q.get('sort_on') ?? 'created';
    if (!['created', 'updated', 'receipt_id'].includes(sortOn))
      throw new Refusal(400, 'sort_on must be created, updated or receipt_id');
    const order = q.get('sort_order') ?? 'desc';
    if (!['asc', 'ascending', 'up', 'desc', 'descending', 'down'].includes(order))
      throw new Refusal(400, 'sort_order must be asc or desc');
    const key = (r: FakeReceipt) =>
      sortOn === 'updated' ? r.update_timestamp : sortOn === 'receipt_id' ? r.receipt_id : r.create_timestamp;
    const up = ['asc', 'ascending', 'up'].includes(order);
    const all = Object.values(receipts)
      .filter(
        (r) =>
          r.shop_id === shopId &&
          (minCreated === null || r.create_timestamp >= minCreated) &&
          (maxCreated === null || r.create_timestamp <= maxCreated) &&
          (minModified === null || r.update_timestamp >= minModified) &&
          (maxModified === null || r.update_timestamp <= maxModified) &&
          (paid === null || r.is_paid === paid) &&
          (shipped === null || r.is_shipped === shipped) &&
          (canceled === null || CANCELED.includes(r.status) === canceled),
      )
      .sort((a, b) => (key(a) - key(b) || a.receipt_id - b.receipt_id) * (up ? 1 : -1));
    return { count: all.length, results: all.slice(offset, offset + limit).map(receiptView) };
  }

  /**
   * createReceiptShipment: each success adds a shipment (and would email the buyer). Within the United States on an
   * order over $10 a tracking code and carrier are required; without them the receipt is only marked shipped.
   */
  function addShipment(receipt: FakeReceipt, body: Record<string, unknown>) {
    if (CANCELED.includes(receipt.status)) throw new Refusal(409, 'Cannot add tracking to a canceled receipt');
    const code = typeof body.tracking_code === 'string' ? body.tracking_code.trim() : '';
    const carrier = typeof body.carrier_name === 'string' ? body.carrier_name.trim() : '';
    if (Boolean(code) !== Boolean(carrier))
      throw new Refusal(400, 'tracking_code and carrier_name must be sent together');
    const over10 = receipt.grandtotal.amount / receipt.grandtotal.divisor > 10;
    if (!code && receipt.country_iso === 'US' && over10)
      throw new Refusal(400, 'tracking_code and carrier_name are required for this order');
    const t = Math.floor(now() / 1000);
    if (code)
      receipt.shipments.push({
        receipt_shipping_id: id(),
        shipment_notification_timestamp: t,
        carrier_name: carrier,
        tracking_code: code,
      });
    receipt.is_shipped = true;
    if (receipt.status === 'paid') receipt.status = 'completed';
    receipt.update_timestamp = t;
  }

  const receiptOf = (receiptId: number) => {
    const r = receipts[String(receiptId)];
    if (!r) throw new Error(`No receipt ${receiptId}`);
    return r;
  };

  async function placeReceipt(
    shopId: number,
    order: { lines: { sku: string; quantity: number }[]; address: ReceiptAddress; paid?: boolean },
  ): Promise<FakeReceipt> {
    const user = state.users.find((u) => u.shop_id === shopId);
    if (!user) throw new Refusal(404, `No shop ${shopId}`);
    if (order.lines.length === 0) throw new Refusal(400, 'An order needs at least one line');
    const transactions = order.lines.map((line) => {
      for (const l of Object.values(state.listings)) {
        if (l.shop_id !== shopId || l.state !== 'active') continue;
        const product = l.inventory?.products.find((p) => p.sku === line.sku);
        const offering = product?.offerings[0];
        if (product && offering)
          return {
            transaction_id: id(),
            title: l.title,
            listing_id: l.listing_id,
            product_id: product.product_id,
            sku: product.sku,
            quantity: line.quantity,
            price: money(offering.price),
          };
      }
      throw new Refusal(400, `SKU ${line.sku} is not sold in an active listing of shop ${shopId}`);
    });
    const totalCents = transactions.reduce((sum, x) => sum + x.price.amount * x.quantity, 0);
    const total = { amount: totalCents, divisor: 100, currency_code: 'USD' };
    const t = Math.floor(now() / 1000);
    const paid = order.paid !== false;
    const receipt: FakeReceipt = {
      receipt_id: id(),
      shop_id: shopId,
      seller_user_id: user.user_id,
      buyer_user_id: 9_000_000 + (state.nextId % 1000),
      name: order.address.name,
      first_line: order.address.first_line,
      second_line: order.address.second_line ?? null,
      city: order.address.city,
      state: order.address.state ?? null,
      zip: order.address.zip,
      country_iso: order.address.country_iso,
      status: paid ? 'paid' : 'payment processing',
      is_paid: paid,
      is_shipped: false,
      create_timestamp: t,
      update_timestamp: t,
      grandtotal: total,
      subtotal: total,
      total_price: total,
      total_shipping_cost: money(0),
      transactions,
      shipments: [],
    };
    receipts[String(receipt.receipt_id)] = receipt;
    await persist();
    return structuredClone(receipt);
  }

  async function route(req: http.IncomingMessage, url: URL, res: http.ServerResponse) {
    const path = url.pathname;
    const method = req.method ?? 'GET';

    if (method === 'GET' && path === '/oauth/connect') {
      const q = url.searchParams;
      const redirectUri = q.get('redirect_uri') ?? '';
      if (q.get('client_id') !== keystring) throw new Refusal(400, 'Unknown client_id');
      if (q.get('response_type') !== 'code') throw new Refusal(400, 'response_type must be code');
      if (!q.get('state')) throw new Refusal(400, 'state is required');
      if (q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge'))
        throw new Refusal(400, 'PKCE is required: code_challenge with code_challenge_method=S256');
      const prefixes = options.redirectUriPrefixes ?? [];
      if (
        !/^https?:\/\//.test(redirectUri) ||
        (prefixes.length > 0 && !prefixes.some((p) => redirectUri.startsWith(p)))
      )
        throw new Refusal(400, 'redirect_uri is not registered for this app');
      // Etsy's signed-in user: named by `login` (the built-in sandbox's relay gives each workspace its own seller
      // and shop, made at its first approval), else the first one.
      const login = q.get('login');
      const user = nextUser ?? (login ? sellerFor(login) : state.users[0]);
      nextUser = null;
      if (!user) throw new Refusal(500, 'No user');
      if (!state.users.some((u) => u.user_id === user.user_id)) state.users.push(user);
      const code = randomBytes(24).toString('base64url');
      const scopes = (q.get('scope') ?? '').split(' ').filter(Boolean);
      codes.set(code, {
        user,
        challenge: q.get('code_challenge') ?? '',
        redirectUri,
        expiresAt: now() + 60_000,
        scopes,
      });
      const back = new URL(redirectUri);
      back.searchParams.set('code', code);
      back.searchParams.set('state', q.get('state') ?? '');
      res.writeHead(302, { Location: back.toString() });
      res.end();
      return;
    }

    if (method === 'POST' && path === '/v3/public/oauth/token') {
      const body = await parseBody(req, await readRaw(req));
      if (body.client_id !== keystring) return send(res, 401, { error: 'invalid_client' });
      const issue = (userId: number, scopes: string[]) => {
        const access = `${userId}.${randomBytes(24).toString('base64url')}`;
        const refresh = `${userId}.${randomBytes(24).toString('base64url')}`;
        state.tokens[access] = { user_id: userId, expires_at: now() + 3600_000, scopes };
        state.refresh_tokens[refresh] = { user_id: userId, scopes };
        return { access_token: access, token_type: 'Bearer', expires_in: 3600, refresh_token: refresh };
      };
      if (body.grant_type === 'authorization_code') {
        const entry = codes.get(String(body.code ?? ''));
        codes.delete(String(body.code ?? ''));
        if (!entry || entry.expiresAt < now())
          return send(res, 400, { error: 'invalid_grant', error_description: 'code is invalid or expired' });
        if (entry.redirectUri !== body.redirect_uri)
          return send(res, 400, { error: 'invalid_grant', error_description: 'redirect_uri does not match' });
        if (typeof body.code_verifier !== 'string' || s256(body.code_verifier) !== entry.challenge)
          return send(res, 400, { error: 'invalid_grant', error_description: 'code_verifier is invalid' });
        const answer = issue(entry.user.user_id, entry.scopes);
        await persist();
        return send(res, 200, answer);
      }
      if (body.grant_type === 'refresh_token') {
        const old = String(body.refresh_token ?? '');
        const entry = state.refresh_tokens[old];
        if (!entry) return send(res, 400, { error: 'invalid_grant', error_description: 'refresh_token is invalid' });
        delete state.refresh_tokens[old];
        const answer = issue(entry.user_id, entry.scopes ?? LEGACY_ETSY_SCOPES);
        await persist();
        return send(res, 200, answer);
      }
      return send(res, 400, { error: 'unsupported_grant_type' });
    }

    const image = /^\/images\/(\d+)\.png$/.exec(path);
    if (method === 'GET' && image) {
      const bytes = await images.get(Number(image[1]));
      if (!bytes) return send(res, 404, { error: 'Not found' });
      res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': String(bytes.length) });
      res.end(bytes);
      return;
    }

    if (!path.startsWith('/v3/application/')) throw new Refusal(404, 'Not found');
    checkApiKey(req);
    const wait = spend();
    if (wait !== null) return send(res, 429, { error: 'Too many requests' }, { 'retry-after': String(wait) });
    const user = authUser(req);
    const problem = etsyRequests().check({
      method,
      pathname: path,
      query: url.searchParams,
      headers: req.headers,
      body: await bodyToCheck(req, url),
      contentType: String(req.headers['content-type'] ?? ''),
    });
    if (problem) throw new Refusal(400, problem.errors.join('; '));
    const p = path.slice('/v3/application'.length);
    let m: RegExpExecArray | null;

    if (method === 'GET' && p === '/users/me') return send(res, 200, { user_id: user.user_id, shop_id: user.shop_id });
    if (method === 'GET' && p === '/seller-taxonomy/nodes') {
      const nodes = taxonomyView(FAKE_TAXONOMY, []);
      return send(res, 200, { count: nodes.length, results: nodes });
    }
    m = /^\/shops\/(\d+)(\/.*)?$/.exec(p);
    if (m) {
      const shopId = Number(m[1]);
      const rest = m[2] ?? '';
      if (shopId !== user.shop_id) throw new Refusal(403, 'You do not have access to this shop');
      const shop = shopOf(shopId);
      if (method === 'GET' && rest === '')
        return send(res, 200, {
          shop_id: shopId,
          shop_name: user.shop_name,
          user_id: user.user_id,
          currency_code: 'USD',
          url: `https://www.etsy.com/shop/${user.shop_name}`,
        });
      if (method === 'GET' && rest === '/shipping-profiles')
        return send(res, 200, { count: shop.shipping_profiles.length, results: shop.shipping_profiles });
      if (method === 'GET' && rest === '/readiness-state-definitions')
        return send(res, 200, {
          count: shop.processing_profiles.length,
          results: shop.processing_profiles.map((x) => ({
            shop_id: shopId,
            readiness_state_id: x.readiness_state_id,
            readiness_state: x.readiness_state,
            min_processing_days: x.min,
            max_processing_days: x.max,
          })),
        });
      // getShopReturnPolicies / createShopReturnPolicy (Open API v3, `shops_r` / `shops_w`).
      if (rest === '/policies/return' && method === 'GET') {
        const results = (shop.return_policies ?? []).map((x) => ({ ...x, shop_id: shopId }));
        return send(res, 200, { count: results.length, results });
      }
      if (rest === '/policies/return' && method === 'POST') {
        requireScope(req, 'shops_w');
        const body = await parseBody(req, await readRaw(req));
        for (const field of ['accepts_returns', 'accepts_exchanges'])
          if (body[field] === undefined) throw new Refusal(400, `Missing required parameter: ${field}`);
        const accepts = yes(body.accepts_returns) || yes(body.accepts_exchanges);
        const deadline = body.return_deadline === undefined ? null : Number(body.return_deadline);
        if (accepts && (deadline === null || !RETURN_DEADLINES.has(deadline)))
          throw new Refusal(400, 'return_deadline must be one of 7, 14, 21, 30, 45, 60, 90 when returns are accepted');
        const policy: FakeReturnPolicy = {
          return_policy_id: id(),
          accepts_returns: yes(body.accepts_returns),
          accepts_exchanges: yes(body.accepts_exchanges),
          return_deadline: accepts ? deadline : null,
        };
        shop.return_policies = [...(shop.return_policies ?? []), policy];
        await persist();
        return send(res, 201, { ...policy, shop_id: shopId });
      }
      if (method === 'GET' && rest === '/production-partners')
        return send(res, 200, { count: shop.production_partners.length, results: shop.production_partners });
      if (method === 'GET' && rest === '/receipts') {
        requireScope(req, 'transactions_r');
        return send(res, 200, listReceipts(shopId, url.searchParams));
      }
      const rm = /^\/receipts\/(\d+)(\/tracking)?$/.exec(rest);
      if (rm) {
        const receipt = receipts[rm[1] ?? ''];
        if (method === 'GET' && !rm[2]) {
          requireScope(req, 'transactions_r');
          if (!receipt || receipt.shop_id !== shopId) throw new Refusal(404, `Receipt ${rm[1]} not found`);
          return send(res, 200, receiptView(receipt));
        }
        if (method === 'POST' && rm[2]) {
          requireScope(req, 'transactions_w');
          if (!receipt || receipt.shop_id !== shopId) throw new Refusal(404, `Receipt ${rm[1]} not found`);
          const body = await parseBody(req, await readRaw(req));
          addShipment(receipt, body);
          await persist();
          return send(res, 200, receiptView(receipt));
        }
      }
      if (method === 'POST' && rest === '/listings') {
        const body = await parseBody(req, await readRaw(req));
        const listing = await createListing(user, shopId, body);
        await persist();
        if (failCreate) {
          failCreate = false;
          return send(res, 500, { error: 'An internal error occurred' });
        }
        return send(res, 201, listingView(listing));
      }
      if (method === 'GET' && rest === '/listings') {
        const wanted = url.searchParams.get('state') ?? 'active';
        const limit = Math.min(Number(url.searchParams.get('limit') ?? 25), 100);
        const offset = Number(url.searchParams.get('offset') ?? 0);
        const all = Object.values(state.listings).filter((l) => l.shop_id === shopId && l.state === wanted);
        return send(res, 200, { count: all.length, results: all.slice(offset, offset + limit).map(listingView) });
      }
      const lm = /^\/listings\/(\d+)(\/.*)?$/.exec(rest);
      if (lm) {
        const listing = ownListing(user, lm[1] ?? '');
        const sub = lm[2] ?? '';
        if (method === 'PATCH' && sub === '') {
          const body = await parseBody(req, await readRaw(req));
          const title = body.title === undefined ? listing.title : String(body.title);
          const tags = body.tags === undefined ? listing.tags : list(body.tags);
          validateText(title, tags);
          if (body.state !== undefined) {
            const next = String(body.state);
            if (next !== 'active' && next !== 'inactive') throw new Refusal(400, 'state must be active or inactive');
            if (next === 'active' && listing.images.length === 0)
              throw new Refusal(400, 'A listing needs at least one image before it can be activated');
            const policy =
              body.return_policy_id === undefined ? listing.return_policy_id : Number(body.return_policy_id);
            // Etsy: a physical listing needs a return policy to be active (EU shops excepted; the fake's are not EU).
            if (next === 'active' && listing.shipping_profile_id !== null && !policy)
              throw new Refusal(400, 'A physical listing needs a return_policy_id before it can be activated');
            listing.state = next;
          }
          if (body.return_policy_id !== undefined)
            listing.return_policy_id = policyOf(
              shopOf(listing.shop_id),
              Number(body.return_policy_id),
            ).return_policy_id;
          listing.title = title;
          listing.tags = tags;
          if (body.description !== undefined) listing.description = String(body.description);
          if (body.taxonomy_id !== undefined) {
            if (!TAXONOMY_IDS.has(Number(body.taxonomy_id))) throw new Refusal(400, 'taxonomy_id is not valid');
            listing.taxonomy_id = Number(body.taxonomy_id);
          }
          listing.updated_timestamp = Math.floor(now() / 1000);
          await persist();
          return send(res, 200, listingView(listing));
        }
        if (method === 'POST' && sub === '/images') {
          const form = await new Request('http://fake/', {
            method: 'POST',
            headers: { 'content-type': String(req.headers['content-type'] ?? '') },
            body: new Uint8Array(await readRaw(req)),
          })
            .formData()
            .catch(() => null);
          const file = form?.get('image');
          if (!form || !file || typeof file === 'string') throw new Refusal(400, 'image is required (multipart)');
          if (listing.images.length >= 10) throw new Refusal(400, 'A listing has at most 10 images');
          const bytes = Buffer.from(await file.arrayBuffer());
          if (bytes.length < 8 || bytes.readUInt32BE(0) !== 0x89504e47) throw new Refusal(400, 'image must be a PNG');
          const rank = Number(form.get('rank') ?? listing.images.length + 1);
          const imageId = id();
          await images.put(imageId, bytes);
          for (const i of listing.images) if (i.rank >= rank) i.rank += 1;
          listing.images.push({ listing_image_id: imageId, rank });
          listing.images.sort((a, b) => a.rank - b.rank);
          listing.images.forEach((i, n) => {
            i.rank = n + 1;
          });
          await persist();
          const stored = listing.images.find((i) => i.listing_image_id === imageId);
          return send(res, 201, imageView(listing.listing_id, stored ?? { listing_image_id: imageId, rank }));
        }
        const im = /^\/images\/(\d+)$/.exec(sub);
        if (method === 'DELETE' && im) {
          const imageId = Number(im[1]);
          if (!listing.images.some((i) => i.listing_image_id === imageId)) throw new Refusal(404, 'Image not found');
          // As measured on Etsy: a listing keeps at least one picture.
          if (listing.images.length === 1)
            throw new Refusal(
              400,
              'Listings must have at least 1 image. Please add another ListingImage before trying to delete.',
            );
          listing.images = listing.images.filter((i) => i.listing_image_id !== imageId);
          listing.variation_images = listing.variation_images.filter((v) => v.image_id !== imageId);
          listing.images.forEach((i, n) => {
            i.rank = n + 1;
          });
          await persist();
          return send(res, 204, undefined);
        }
        // getListingVariationImages is shop-scoped (the unscoped path is 404 on Etsy) and names each value.
        if (method === 'GET' && sub === '/variation-images') {
          const names = new Map<string, string>();
          for (const x of listing.inventory?.products ?? [])
            for (const v of x.property_values)
              for (const [i, valueId] of v.value_ids.entries())
                names.set(`${v.property_id}:${valueId}`, v.values[i] ?? '');
          const results = listing.variation_images.map((v) => ({
            ...v,
            value: names.get(`${v.property_id}:${v.value_id}`) ?? '',
          }));
          return send(res, 200, { count: results.length, results });
        }
        if (method === 'POST' && sub === '/variation-images') {
          const body = await parseBody(req, await readRaw(req));
          const entries = Array.isArray(body.variation_images)
            ? (body.variation_images as Record<string, unknown>[])
            : [];
          const known = new Set(
            (listing.inventory?.products ?? []).flatMap((x) =>
              x.property_values.map((v) => `${v.property_id}:${v.value_ids[0]}`),
            ),
          );
          const out = entries.map((e) => {
            const entry = {
              property_id: Number(e.property_id),
              value_id: Number(e.value_id),
              image_id: Number(e.image_id),
            };
            if (!known.has(`${entry.property_id}:${entry.value_id}`))
              throw new Refusal(400, `value_id ${entry.value_id} is not a value of property ${entry.property_id}`);
            if (!listing.images.some((i) => i.listing_image_id === entry.image_id))
              throw new Refusal(400, `image_id ${entry.image_id} is not an image of this listing`);
            return entry;
          });
          if (new Set(out.map((o) => o.property_id)).size > 1)
            throw new Refusal(400, 'Variation images are for one property only');
          listing.variation_images = out;
          await persist();
          return send(res, 200, { count: out.length, results: out });
        }
      }
    }
    m = /^\/listings\/(\d+)(\/.*)?$/.exec(p);
    if (m) {
      const listing = ownListing(user, m[1] ?? '');
      const sub = m[2] ?? '';
      if (method === 'GET' && sub === '') return send(res, 200, listingView(listing));
      if (method === 'DELETE' && sub === '') {
        delete state.listings[String(listing.listing_id)];
        await persist();
        return send(res, 204, undefined);
      }
      if (method === 'GET' && sub === '/images')
        return send(res, 200, {
          count: listing.images.length,
          results: listing.images.map((i) => imageView(listing.listing_id, i)),
        });
      if (method === 'GET' && sub === '/inventory') {
        if (!listing.inventory)
          return send(res, 200, { products: [], price_on_property: [], quantity_on_property: [], sku_on_property: [] });
        return send(res, 200, inventoryView(listing.inventory));
      }
      if (method === 'PUT' && sub === '/inventory') {
        const body = await parseBody(req, await readRaw(req));
        updateInventory(listing, body);
        await persist();
        return send(res, 200, inventoryView(listing.inventory as FakeInventory));
      }
    }
    throw new Refusal(404, `No route for ${method} ${path}`);
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', base || 'http://127.0.0.1');
    route(req, url, res)
      .catch((error: unknown) => {
        if (error instanceof Refusal) return send(res, error.status, { error: error.message });
        return send(res, 500, { error: String(error) });
      })
      .finally(() => {
        if (url.pathname.startsWith('/v3/application/'))
          calls.push({ method: req.method ?? 'GET', path: url.pathname, status: res.statusCode });
      });
  });
  // Idle connections stay open until the client drops them: on a loaded machine a server-side timeout raced
  // clients reusing the socket (ECONNRESET).
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    keystring,
    sharedSecret,
    snapshot: () => structuredClone(state),
    listings: (shopId) => Object.values(state.listings).filter((l) => shopId === undefined || l.shop_id === shopId),
    removeReturnPolicies: (shopId: number) => {
      shopOf(shopId).return_policies = [];
    },
    failNextCreateAfterCreating: () => {
      failCreate = true;
    },
    rateLimitNext: (n, seconds = 1) => {
      forced429 = { n, seconds };
    },
    approveNextAs: (user) => {
      nextUser = user;
    },
    placeReceipt,
    payReceipt: async (receiptId) => {
      const r = receiptOf(receiptId);
      r.is_paid = true;
      r.status = 'paid';
      r.update_timestamp = Math.floor(now() / 1000);
      await persist();
      return structuredClone(r);
    },
    cancelReceipt: async (receiptId) => {
      const r = receiptOf(receiptId);
      r.status = 'canceled';
      r.update_timestamp = Math.floor(now() / 1000);
      await persist();
      return structuredClone(r);
    },
    addHandmadeListing: async (shopId, listing) => {
      const user = state.users.find((u) => u.shop_id === shopId);
      if (!user) throw new Error(`No shop ${shopId}`);
      const t = Math.floor(now() / 1000);
      const listingId = id();
      state.listings[String(listingId)] = {
        listing_id: listingId,
        shop_id: shopId,
        user_id: user.user_id,
        title: listing.title,
        description: listing.title,
        state: 'active',
        price: listing.price,
        quantity: 1,
        who_made: 'i_did',
        when_made: 'made_to_order',
        taxonomy_id: 2001,
        shipping_profile_id: null,
        readiness_state_id: null,
        production_partner_ids: [],
        tags: [],
        created_timestamp: t,
        updated_timestamp: t,
        images: [],
        inventory: {
          products: [
            {
              product_id: id(),
              sku: listing.sku,
              property_values: [],
              offerings: [{ offering_id: id(), price: listing.price, quantity: 1, is_enabled: true }],
            },
          ],
          price_on_property: [],
          quantity_on_property: [],
          sku_on_property: [],
        },
        variation_images: [],
      };
      await persist();
      return listingId;
    },
    receipts: (shopId) =>
      Object.values(receipts)
        .filter((r) => shopId === undefined || r.shop_id === shopId)
        .map((r) => structuredClone(r)),
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
