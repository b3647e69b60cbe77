import { type PrintifyClient, PrintifyError } from './client';

/**
 * Printify v1 calls and shapes (apis-next.md F.3-F.7) over the client's paced request(). Money is integer minor
 * units with no currency anywhere. Every shop path is `/v1/shops/{shop_id}/...`.
 */

/** Who calls: the client, the token and the shop orders and products belong to. */
export type PrintifyConn = { client: PrintifyClient; token: string; shopId: string };

export type PfyShop = { id: number; title: string; sales_channel: string };
export type PfyBlueprint = {
  id: number;
  title: string;
  brand: string;
  model: string;
  description?: string;
  images: string[];
};
export type PfyProviderRef = { id: number; title: string };
export type PfyVariant = {
  id: number;
  title: string;
  options: { color?: string; size?: string } & Record<string, string | undefined>;
  placeholders: { position: string; height: number; width: number }[];
};
export type PfyUpload = {
  id: string;
  file_name: string;
  height: number;
  width: number;
  size: number;
  mime_type: string;
  preview_url: string;
  upload_time: string;
};
export type PfyProductVariant = {
  id: number;
  sku?: string;
  cost: number;
  price: number;
  title: string;
  is_enabled: boolean;
  is_available: boolean;
};
export type PfyPrintArea = {
  variant_ids: number[];
  placeholders: { position: string; images: { id: string; x: number; y: number; scale: number; angle: number }[] }[];
};
export type PfyProduct = {
  id: string;
  title: string;
  description: string;
  tags: string[];
  variants: PfyProductVariant[];
  blueprint_id: number;
  print_provider_id: number;
  print_areas: PfyPrintArea[];
};
export type PfyProductInput = {
  title: string;
  description: string;
  blueprint_id: number;
  print_provider_id: number;
  variants: { id: number; price: number; is_enabled?: boolean; sku?: string }[];
  print_areas: PfyPrintArea[];
};
export type PfyAddress = {
  first_name: string;
  last_name: string;
  email?: string;
  phone?: string;
  country: string;
  region: string;
  address1: string;
  address2?: string;
  city: string;
  zip: string;
};
export type PfyLineItemInput = {
  print_provider_id: number;
  blueprint_id: number;
  variant_id: number;
  quantity: number;
  print_areas: Record<string, { src: string; x: number; y: number; scale: number; angle: number }[] | string>;
};
export type PfyOrderInput = {
  external_id: string;
  label?: string;
  line_items: PfyLineItemInput[];
  shipping_method: 1 | 2 | 3 | 4;
  send_shipping_notification: boolean;
  address_to: PfyAddress;
};
export type PfyShipment = { carrier: string; number: string; url: string; delivered_at: string | null };
export type PfyOrder = {
  id: string;
  address_to?: Partial<PfyAddress>;
  line_items: {
    product_id?: string;
    quantity: number;
    variant_id: number;
    print_provider_id: number;
    blueprint_id?: number;
    cost: number;
    shipping_cost: number;
    status: string;
  }[];
  metadata: { order_type: string; shop_order_id: string | number; shop_order_label?: string };
  total_price: number;
  total_shipping: number;
  total_tax: number;
  status: string;
  shipping_method: number;
  shipments: PfyShipment[];
  created_at: string;
  sent_to_production_at?: string | null;
  fulfilled_at?: string | null;
};
export type PfyPage<T> = {
  current_page: number;
  data: T[];
  last_page: number;
  per_page: number;
  total: number;
  next_page_url: string | null;
};
export type PfyWebhook = { id: string; topic: string; url: string; shop_id: string };

/** The topics Podforge follows: an order's status, its shipments. */
export const PRINTIFY_ORDER_TOPICS = [
  'order:updated',
  'order:sent-to-production',
  'order:shipment:created',
  'order:shipment:delivered',
] as const;

const shop = (c: PrintifyConn) => `/v1/shops/${encodeURIComponent(c.shopId)}`;

export const listShops = (client: PrintifyClient, token: string) => client.get<PfyShop[]>('/v1/shops.json', token);

export const listBlueprints = (client: PrintifyClient, token: string) =>
  client.get<PfyBlueprint[]>('/v1/catalog/blueprints.json', token);
export const getBlueprint = (client: PrintifyClient, token: string, bp: number) =>
  client.get<PfyBlueprint>(`/v1/catalog/blueprints/${bp}.json`, token);
export const listProviders = (client: PrintifyClient, token: string, bp: number) =>
  client.get<PfyProviderRef[]>(`/v1/catalog/blueprints/${bp}/print_providers.json`, token);
export const listVariants = (client: PrintifyClient, token: string, bp: number, pp: number) =>
  client.get<{ id: number; title: string; variants: PfyVariant[] }>(
    `/v1/catalog/blueprints/${bp}/print_providers/${pp}/variants.json`,
    token,
  );

/** Uploads are content-addressed at Printify: the same bytes answer the same id. */
export const uploadImage = (
  c: { client: PrintifyClient; token: string },
  file: { fileName: string } & ({ url: string } | { contents: string }),
) =>
  c.client.request<PfyUpload>('POST', '/v1/uploads/images.json', c.token, {
    body: { file_name: file.fileName, ...('url' in file ? { url: file.url } : { contents: file.contents }) },
  });

/** Shipping per method in cents for these lines to this address (`POST …/orders/shipping.json`, apis-next.md F). */
export const shippingCosts = (
  c: PrintifyConn,
  body: {
    line_items: { blueprint_id: number; print_provider_id: number; variant_id: number; quantity: number }[];
    address_to: PfyAddress;
  },
) =>
  c.client.request<{
    standard?: number;
    express?: number;
    priority?: number;
    printify_express?: number;
    economy?: number;
  }>('POST', `${shop(c)}/orders/shipping.json`, c.token, { body });

export const createProduct = (c: PrintifyConn, input: PfyProductInput) =>
  c.client.request<PfyProduct>('POST', `${shop(c)}/products.json`, c.token, { body: input });
export const getProduct = (c: PrintifyConn, id: string) =>
  c.client.get<PfyProduct>(`${shop(c)}/products/${encodeURIComponent(id)}.json`, c.token);
/**
 * Printify's update rule: the print areas must cover every variant of the product (else 8251) and every variant
 * entry needs its price (8150); variants merge by id (leaving one out does not disable it). So an update sends the
 * whole matrix as it stands, with the changes applied.
 */
export async function updateProduct(
  c: PrintifyConn,
  id: string,
  change: { title?: string; description?: string; prices?: Map<number, number>; enabled?: Set<number> },
): Promise<PfyProduct> {
  const current = await getProduct(c, id);
  const all = current.variants.map((v) => v.id);
  const body = {
    ...(change.title !== undefined ? { title: change.title } : {}),
    ...(change.description !== undefined ? { description: change.description } : {}),
    variants: current.variants.map((v) => ({
      id: v.id,
      price: change.prices?.get(v.id) ?? v.price,
      is_enabled: change.enabled ? change.enabled.has(v.id) : v.is_enabled,
    })),
    // One area over every variant, with the images the product has (the first area's placeholders).
    print_areas: [{ variant_ids: all, placeholders: current.print_areas[0]?.placeholders ?? [] }],
  };
  return c.client.request<PfyProduct>('PUT', `${shop(c)}/products/${encodeURIComponent(id)}.json`, c.token, { body });
}
export const deleteProduct = (c: PrintifyConn, id: string) =>
  c.client.request<unknown>('DELETE', `${shop(c)}/products/${encodeURIComponent(id)}.json`, c.token);

export const createOrder = (c: PrintifyConn, input: PfyOrderInput) =>
  c.client.request<{ id: string }>('POST', `${shop(c)}/orders.json`, c.token, { body: input });

export async function getOrder(c: PrintifyConn, id: string): Promise<PfyOrder | null> {
  try {
    return await c.client.get<PfyOrder>(`${shop(c)}/orders/${encodeURIComponent(id)}.json`, c.token);
  } catch (error) {
    if (error instanceof PrintifyError && (error.status === 404 || error.status === 400)) return null;
    throw error;
  }
}

export const listOrders = (c: PrintifyConn, page: number) =>
  c.client.get<PfyPage<PfyOrder>>(`${shop(c)}/orders.json`, c.token, { page: String(page), limit: '50' });

/**
 * Printify does not deduplicate on `external_id` and cannot filter its orders list by it: the shop's newest orders
 * are read (newest first) until one carries ours as `metadata.shop_order_id` (the earliest of them, when there are
 * several). A retry follows a lost answer within
 * minutes, so the order is among the newest; `pages` bounds the read.
 */
export async function findOrderByExternalId(c: PrintifyConn, externalId: string, pages = 10): Promise<PfyOrder | null> {
  // Someone may have made another order under the same id later (Printify takes it): the earliest is ours.
  let earliest: PfyOrder | null = null;
  for (let page = 1; page <= pages; page++) {
    const body = await listOrders(c, page);
    const found = body.data.filter((o) => String(o.metadata?.shop_order_id ?? '') === externalId);
    const last = found[found.length - 1];
    if (last) {
      earliest = last;
      // Older ones may go on to the next page only when this page ends with one of them.
      if (body.data[body.data.length - 1] !== last) return earliest;
    } else if (earliest) {
      return earliest;
    }
    if (!body.next_page_url || page >= body.last_page) return earliest;
  }
  return earliest;
}

export const sendToProduction = (c: PrintifyConn, id: string) =>
  c.client.request<PfyOrder>('POST', `${shop(c)}/orders/${encodeURIComponent(id)}/send_to_production.json`, c.token);
export const cancelOrder = (c: PrintifyConn, id: string) =>
  c.client.request<PfyOrder>('POST', `${shop(c)}/orders/${encodeURIComponent(id)}/cancel.json`, c.token);

export const listWebhooks = (c: PrintifyConn) => c.client.get<PfyWebhook[]>(`${shop(c)}/webhooks.json`, c.token);
export const createWebhook = (c: PrintifyConn, topic: string, url: string, secret: string) =>
  c.client.request<PfyWebhook>('POST', `${shop(c)}/webhooks.json`, c.token, { body: { topic, url, secret } });
/** Printify deletes a webhook only when `host` names its URL's host. */
export const deleteWebhook = (c: PrintifyConn, hook: PfyWebhook) =>
  c.client.request<unknown>('DELETE', `${shop(c)}/webhooks/${encodeURIComponent(hook.id)}.json`, c.token, {
    query: { host: new URL(hook.url).host },
  });
