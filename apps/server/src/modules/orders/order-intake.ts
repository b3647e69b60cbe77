import { and, eq, inArray, or } from 'drizzle-orm';
import { z } from 'zod';
import { integrations, orderLines, orders, productVariants, publications } from '../../db/schema';
import type { GqlOrder } from '../../integrations/shopify/orders-client';
import { enqueue } from './order-jobs';
import type { OrdersDeps } from './orders.deps';
import type { ShippingAddress } from './shipping-address';

/**
 * Store orders in: one shape for what a webhook (REST order resource) and Sync (GraphQL) carry, and the one
 * operation that stores it. Each line is matched to our variant by the store's variant id (recorded at push),
 * else by SKU; a line that is neither is kept as 'not from Podforge'. The shipping address is encrypted at rest.
 */

export type IncomingOrder = {
  remoteOrderId: string;
  name: string;
  currency: string;
  total: string;
  orderedAt: Date;
  cancelled: boolean;
  customerId: string | null;
  address: ShippingAddress | null;
  lines: {
    remoteLineId: string;
    remoteVariantId: string | null;
    sku: string | null;
    title: string;
    quantity: number;
    price: string;
  }[];
};

type IntegrationRow = typeof integrations.$inferSelect;
const numericId = (id: string | number) => String(id).split('/').pop() ?? String(id);
const opt = (v: string | null | undefined) => (v ? v : undefined);

const ZRestOrder = z.object({
  id: z.union([z.number(), z.string()]),
  name: z.string().default(''),
  created_at: z.string().optional(),
  cancelled_at: z.string().nullable().optional(),
  currency: z.string().default('USD'),
  total_price: z.union([z.string(), z.number()]),
  customer: z
    .object({ id: z.union([z.number(), z.string()]) })
    .nullable()
    .optional(),
  shipping_address: z
    .object({
      name: z.string().nullable().optional(),
      address1: z.string().nullable().optional(),
      address2: z.string().nullable().optional(),
      city: z.string().nullable().optional(),
      province_code: z.string().nullable().optional(),
      country_code: z.string().nullable().optional(),
      zip: z.string().nullable().optional(),
      phone: z.string().nullable().optional(),
    })
    .nullable()
    .optional(),
  line_items: z
    .array(
      z.object({
        id: z.union([z.number(), z.string()]),
        variant_id: z.union([z.number(), z.string()]).nullable().optional(),
        sku: z.string().nullable().optional(),
        title: z.string().default(''),
        quantity: z.number().int(),
        price: z.union([z.string(), z.number()]),
      }),
    )
    .default([]),
});

const address = (a: {
  name?: string | null | undefined;
  address1?: string | null | undefined;
  address2?: string | null | undefined;
  city?: string | null | undefined;
  provinceCode?: string | null | undefined;
  countryCode?: string | null | undefined;
  zip?: string | null | undefined;
  phone?: string | null | undefined;
}): ShippingAddress | null =>
  a.address1 && a.city && a.countryCode
    ? {
        name: a.name ?? '',
        address1: a.address1,
        address2: opt(a.address2),
        city: a.city,
        provinceCode: opt(a.provinceCode),
        countryCode: a.countryCode,
        zip: a.zip ?? '',
        phone: opt(a.phone),
      }
    : null;

/** The `orders/paid` (or `orders/cancelled`) payload; null when it is not an order. */
export function fromWebhookPayload(payload: unknown): IncomingOrder | null {
  const parsed = ZRestOrder.safeParse(payload);
  if (!parsed.success) return null;
  const o = parsed.data;
  const a = o.shipping_address;
  return {
    remoteOrderId: numericId(o.id),
    name: o.name || `#${numericId(o.id)}`,
    currency: o.currency,
    total: Number(o.total_price).toFixed(2),
    orderedAt: o.created_at ? new Date(o.created_at) : new Date(),
    cancelled: Boolean(o.cancelled_at),
    customerId: o.customer ? numericId(o.customer.id) : null,
    address: a ? address({ ...a, provinceCode: a.province_code, countryCode: a.country_code }) : null,
    lines: o.line_items.map((l) => ({
      remoteLineId: numericId(l.id),
      remoteVariantId: l.variant_id ? numericId(l.variant_id) : null,
      sku: l.sku || null,
      title: l.title,
      quantity: l.quantity,
      price: Number(l.price).toFixed(2),
    })),
  };
}

export function fromGqlOrder(o: GqlOrder): IncomingOrder {
  const a = o.shippingAddress;
  return {
    remoteOrderId: o.legacyResourceId ?? numericId(o.id),
    name: o.name,
    currency: o.totalPriceSet.shopMoney.currencyCode ?? o.currencyCode,
    total: Number(o.totalPriceSet.shopMoney.amount).toFixed(2),
    orderedAt: new Date(o.createdAt),
    cancelled: Boolean(o.cancelledAt),
    customerId: o.customer ? numericId(o.customer.id) : null,
    address: a ? address({ ...a, countryCode: a.countryCodeV2 }) : null,
    lines: o.lineItems.nodes.map((l) => ({
      remoteLineId: numericId(l.id),
      remoteVariantId: l.variant ? numericId(l.variant.id) : null,
      sku: l.sku || null,
      title: l.title,
      quantity: l.quantity,
      price: Number(l.originalUnitPriceSet.shopMoney.amount).toFixed(2),
    })),
  };
}

/** Our variants for these lines: by the store's variant id (publications), else by SKU. */
async function matchLines(deps: OrdersDeps, store: IntegrationRow, lines: IncomingOrder['lines']) {
  const pubs = await deps.db
    .select({ remoteVariants: publications.remoteVariants })
    .from(publications)
    .where(and(eq(publications.workspaceId, store.workspaceId), eq(publications.integrationId, store.id)));
  const byRemote = new Map<string, string>();
  for (const p of pubs) for (const [remote, ours] of Object.entries(p.remoteVariants ?? {})) byRemote.set(remote, ours);
  const skus = lines.map((l) => l.sku).filter((s): s is string => Boolean(s));
  const remoteIds = lines.map((l) => (l.remoteVariantId ? byRemote.get(l.remoteVariantId) : undefined));
  const ids = remoteIds.filter((s): s is string => Boolean(s));
  const variants =
    skus.length || ids.length
      ? await deps.db
          .select({ id: productVariants.id, productId: productVariants.productId, sku: productVariants.sku })
          .from(productVariants)
          .where(
            and(
              eq(productVariants.workspaceId, store.workspaceId),
              or(
                skus.length ? inArray(productVariants.sku, skus) : undefined,
                ids.length ? inArray(productVariants.id, ids) : undefined,
              ),
            ),
          )
      : [];
  return lines.map((l, i) => {
    const remote = remoteIds[i];
    return (
      (remote ? variants.find((v) => v.id === remote) : undefined) ??
      (l.sku ? variants.find((v) => v.sku === l.sku) : undefined) ??
      null
    );
  });
}

export type IntakeResult = { orderId: string; created: boolean; ours: boolean; status: string };

/**
 * Stores a store order once (unique per store and remote order): a second delivery or a Sync of the same order
 * changes nothing. Answers the order and whether it has lines of ours to send to the printer.
 */
export async function ingestShopifyOrder(
  deps: OrdersDeps,
  store: IntegrationRow,
  incoming: IncomingOrder,
): Promise<IntakeResult> {
  const matched = await matchLines(deps, store, incoming.lines);
  const ours = matched.some(Boolean);
  const status = !ours ? 'external' : incoming.cancelled ? 'cancelled' : 'received';
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(orders)
      .values({
        workspaceId: store.workspaceId,
        integrationId: store.id,
        remoteOrderId: incoming.remoteOrderId,
        name: incoming.name,
        currency: incoming.currency,
        revenue: incoming.total,
        status,
        shippingAddressEnc: incoming.address ? deps.cipher.encrypt(JSON.stringify(incoming.address)) : null,
        remoteCustomerId: incoming.customerId,
        orderedAt: incoming.orderedAt,
      })
      .onConflictDoNothing({ target: [orders.integrationId, orders.remoteOrderId] })
      .returning({ id: orders.id });
    if (!row) {
      const [existing] = await tx
        .select({ id: orders.id, status: orders.status })
        .from(orders)
        .where(and(eq(orders.integrationId, store.id), eq(orders.remoteOrderId, incoming.remoteOrderId)));
      if (!existing) throw new Error('order vanished');
      return { orderId: existing.id, created: false, ours: existing.status !== 'external', status: existing.status };
    }
    if (incoming.lines.length) {
      await tx.insert(orderLines).values(
        incoming.lines.map((l, i) => ({
          workspaceId: store.workspaceId,
          orderId: row.id,
          position: i,
          remoteLineId: l.remoteLineId,
          remoteVariantId: l.remoteVariantId,
          sku: l.sku,
          title: l.title,
          quantity: l.quantity,
          price: l.price,
          productId: matched[i]?.productId ?? null,
          variantId: matched[i]?.id ?? null,
        })),
      );
    }
    return { orderId: row.id, created: true, ours, status };
  });
}

/** The shops' integrations a webhook is for (every workspace that connected this shop in this mode). */
export async function storesForShop(deps: OrdersDeps, shop: string): Promise<IntegrationRow[]> {
  return deps.db
    .select()
    .from(integrations)
    .where(
      and(
        eq(integrations.platform, 'shopify'),
        eq(integrations.externalId, shop),
        eq(integrations.sandbox, deps.shopify.sandboxMode),
      ),
    );
}

/**
 * A store order in, as every platform takes it: stored once, and sent to the printer when it is new or its first
 * submission never got queued (a crash); the job id makes that once.
 */
export async function receiveStoreOrder(
  deps: OrdersDeps,
  store: IntegrationRow,
  incoming: IncomingOrder,
): Promise<IntakeResult> {
  const result = await ingestShopifyOrder(deps, store, incoming);
  if (result.status === 'received') await enqueue.submit(deps, result.orderId);
  return result;
}

/** A store's cancellation of an order we hold: what has not gone into production is cancelled. */
export async function cancelStoreOrder(deps: OrdersDeps, storeId: string, remoteOrderId: string, why: string) {
  const [order] = await deps.db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.integrationId, storeId), eq(orders.remoteOrderId, remoteOrderId)));
  if (order) await enqueue.cancel(deps, order.id, why);
}
