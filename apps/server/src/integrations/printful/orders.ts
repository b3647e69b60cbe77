import { createHmac } from 'node:crypto';
import { type PrintfulClient, PrintfulError } from './client';

/**
 * Printful v2 orders and webhooks (apis.md E6, reference/printful-v2-openapi.json) through the client's paced
 * request(). An order is created as a draft (nothing charged) and confirmed separately; `external_id` is the store
 * order, so `findOrder('@external')` tells whether an earlier attempt created it already.
 */

export type PrintfulRecipient = {
  name: string;
  address1: string;
  address2?: string;
  city: string;
  state_code?: string;
  country_code: string;
  zip: string;
  phone?: string;
};

export type PrintfulOrderInput = {
  external_id: string;
  shipping: 'STANDARD';
  recipient: PrintfulRecipient;
  order_items: {
    source: 'catalog';
    catalog_variant_id: number;
    quantity: number;
    retail_price: string;
    name: string;
    external_id: string;
    placements: { placement: string; technique: string; layers: { type: 'file'; url: string }[] }[];
  }[];
};

export type PrintfulOrder = {
  id: number;
  external_id: string;
  status: string;
  recipient?: { name?: string; zip?: string };
  order_items?: { id?: number; external_id?: string | null; catalog_variant_id?: number; quantity?: number }[];
  /** OpenAPI Costs: every amount null while `calculation_status` is 'calculating'. */
  costs?: { currency: string | null; total: string | null; calculation_status?: string } | null;
};

export type PrintfulShipment = {
  id: number;
  carrier: string | null;
  service: string | null;
  tracking_number?: string | null;
  tracking_url: string | null;
  shipment_status: string;
  delivery_status: string | null;
  delivered_at?: string | null;
  /** OpenAPI ShipmentItem: the order's items this parcel carries (our `external_id` of each), with how many. */
  shipment_items?: { order_item_id: number; order_item_external_id?: string | null; quantity: number }[];
};

/** Who calls: the client, the token, and for an account-level token the store (X-PF-Store-Id). */
export type PrintfulConn = { client: PrintfulClient; token: string; storeId?: string | undefined };

export const PRINTFUL_WEBHOOK_EVENTS = [
  'order_created',
  'order_updated',
  'order_failed',
  'order_canceled',
  'order_put_hold',
  'order_put_hold_approval',
  'order_remove_hold',
  'shipment_sent',
] as const;

export async function findOrder(c: PrintfulConn, ref: string): Promise<PrintfulOrder | null> {
  try {
    return (
      await c.client.request<{ data: PrintfulOrder }>('GET', `/v2/orders/${encodeURIComponent(ref)}`, c.token, {
        storeId: c.storeId,
      })
    ).data;
  } catch (error) {
    if (error instanceof PrintfulError && error.status === 404) return null;
    throw error;
  }
}

export async function createOrder(c: PrintfulConn, input: PrintfulOrderInput): Promise<PrintfulOrder> {
  return (
    await c.client.request<{ data: PrintfulOrder }>('POST', '/v2/orders', c.token, { storeId: c.storeId, body: input })
  ).data;
}

export async function confirmOrder(c: PrintfulConn, id: string): Promise<PrintfulOrder> {
  return (
    await c.client.request<{ data: PrintfulOrder }>('POST', `/v2/orders/${id}/confirmation`, c.token, {
      storeId: c.storeId,
    })
  ).data;
}

/** v2 deletes an order never charged (draft, failed); a confirmed one is cancelled with v1's DELETE. */
export async function deleteOrder(c: PrintfulConn, id: string): Promise<void> {
  await c.client.request('DELETE', `/v2/orders/${id}`, c.token, { storeId: c.storeId });
}
export async function cancelOrder(c: PrintfulConn, id: string): Promise<void> {
  await c.client.request('DELETE', `/orders/${id}`, c.token, { storeId: c.storeId });
}

export async function shipments(c: PrintfulConn, id: string): Promise<PrintfulShipment[]> {
  return (
    await c.client.request<{ data: PrintfulShipment[] }>('GET', `/v2/orders/${id}/shipments`, c.token, {
      storeId: c.storeId,
    })
  ).data;
}

/** Sets the store's one webhook configuration; answers the secret key events are signed with. */
export async function setWebhooks(c: PrintfulConn, url: string): Promise<string> {
  const body = { default_url: url, events: PRINTFUL_WEBHOOK_EVENTS.map((type) => ({ type })) };
  const answer = await c.client.request<{ result?: { secret_key?: string }; data?: { secret_key?: string } }>(
    'POST',
    '/v2/webhooks',
    c.token,
    { storeId: c.storeId, body },
  );
  const secret = answer.result?.secret_key ?? answer.data?.secret_key;
  if (!secret) throw new PrintfulError(502, 'Printful did not return a webhook secret');
  return secret;
}

/**
 * The HMAC key of a webhook configuration's `secret_key` as Printful issues it: a hex string, decoded to its bytes
 * (apis.md B6); null when the secret is not hex, which no Printful configuration answers.
 */
export function printfulWebhookKey(secretKey: string): Buffer | null {
  return /^(?:[0-9a-f]{2})+$/i.test(secretKey) ? Buffer.from(secretKey, 'hex') : null;
}

/** `x-pf-webhook-signature`: hex HMAC-SHA256 of the raw body with the hex-decoded secret key. */
export function signPrintfulWebhook(body: string | Buffer, secretKey: string): string {
  return createHmac('sha256', printfulWebhookKey(secretKey) ?? Buffer.alloc(0))
    .update(body)
    .digest('hex');
}

export type PrintfulShippingRate = {
  shipping: string;
  shipping_method_name: string;
  rate: string;
  currency: string;
  min_delivery_days?: number;
  max_delivery_days?: number;
};

/** POST /v2/shipping-rates: what shipping these catalogue items to this recipient costs, per method. */
export async function shippingRates(
  c: PrintfulConn,
  body: {
    recipient: { address1: string; city: string; country_code: string; state_code?: string; zip?: string };
    order_items: { source: 'catalog'; catalog_variant_id: number; quantity: number }[];
    currency?: string;
  },
): Promise<PrintfulShippingRate[]> {
  return (
    await c.client.request<{ data: PrintfulShippingRate[] }>('POST', '/v2/shipping-rates', c.token, {
      storeId: c.storeId,
      body,
    })
  ).data;
}
