import { describeUserErrors, type ShopifyClient, ShopifyError, type ShopifyUserError } from './client';

/**
 * Orders and fulfilment through the Admin GraphQL API (apis.md E5), with the client's graphql(): the recent orders
 * with their lines and shipping address (Sync), an order's fulfillment orders, and `fulfillmentCreate` with the
 * carrier, tracking number and URL (the customer is notified).
 */

export type GqlOrder = {
  id: string;
  legacyResourceId?: string;
  name: string;
  createdAt: string;
  cancelledAt: string | null;
  displayFinancialStatus: string | null;
  currencyCode: string;
  totalPriceSet: { shopMoney: { amount: string; currencyCode: string } };
  /** Absent when Shopify withheld it (protected customer data not approved). */
  customer?: { id: string } | null;
  shippingAddress?: {
    name: string | null;
    address1: string | null;
    address2: string | null;
    city: string | null;
    provinceCode: string | null;
    countryCodeV2: string | null;
    zip: string | null;
    phone: string | null;
  } | null;
  lineItems: {
    nodes: {
      id: string;
      title: string;
      sku: string | null;
      quantity: number;
      variant: { id: string } | null;
      originalUnitPriceSet: { shopMoney: { amount: string } };
    }[];
  };
};

/** Orders created in the last this-many days are what Sync reads when no start is given. */
export const SYNC_READ_DAYS = 60;
/** A bound on the pages one read follows (30 orders each), so a shop with a huge backlog cannot hold Sync forever. */
const MAX_ORDER_PAGES = 50;

/** Protected customer data Shopify withheld from a read: the customer (level 1), the shipping address (level 2). */
export type WithheldField = 'customer' | 'shippingAddress';

const ORDER_FIELDS = `id legacyResourceId name createdAt cancelledAt displayFinancialStatus currencyCode
      totalPriceSet { shopMoney { amount currencyCode } }`;
const LINE_FIELDS = `lineItems(first: 25) { nodes { id title sku quantity variant { id } originalUnitPriceSet { shopMoney { amount } } } }`;
const ordersQuery = (operation: string, protectedFields: string) => `${operation}($first: Int!, $after: String) {
  orders(first: $first, after: $after, sortKey: CREATED_AT, reverse: true) {
    nodes {
      ${ORDER_FIELDS}
      ${protectedFields}
      ${LINE_FIELDS}
    }
    pageInfo { hasNextPage endCursor }
  }
}`;
const ORDERS_QUERY = ordersQuery(
  'query orders',
  `customer { id }
      shippingAddress { name address1 address2 city provinceCode countryCodeV2 zip phone }`,
);
/** The same read without the fields Shopify withheld: the orders still come in (their lines and totals). */
const ORDERS_WITHOUT_ADDRESS_QUERY = ordersQuery('query ordersWithoutAddress', 'customer { id }');
const ORDERS_WITHOUT_CUSTOMER_QUERY = ordersQuery('query ordersWithoutCustomerData', '');

/**
 * Which protected fields a refusal is about: an ACCESS_DENIED whose every error sits on an order's `customer` or
 * `shippingAddress` (Shopify's answer to an app it has not approved for protected customer data); null for any
 * other error.
 */
export function withheldBy(error: unknown): WithheldField[] | null {
  if (!(error instanceof ShopifyError) || error.code !== 'ACCESS_DENIED' || error.paths.length === 0) return null;
  const fields = new Set<WithheldField>();
  for (const path of error.paths) {
    const field = path.find((p): p is WithheldField => p === 'customer' || p === 'shippingAddress');
    if (!field) return null;
    fields.add(field);
  }
  return [...fields];
}

/**
 * The shop's orders created at or after `since` (default: the last SYNC_READ_DAYS days), newest first: page after
 * page with the cursor until a page reaches an older order or there is none left. When Shopify withholds the
 * customer or the shipping address (the app is not approved for protected customer data), the orders are read
 * without them and `withheld` says which: the caller tells the seller, the orders still arrive.
 */
export async function recentOrdersWithLines(
  client: ShopifyClient,
  shop: string,
  token: string,
  since: Date = new Date(Date.now() - SYNC_READ_DAYS * 24 * 3600_000),
  // 30 orders of up to 25 lines request about 840 points: under the 1000-point single query limit (apis.md A3).
  first = 30,
): Promise<{ orders: GqlOrder[]; withheld: WithheldField[] }> {
  const read: GqlOrder[] = [];
  let after: string | null = null;
  let withheld: WithheldField[] = [];
  const query = () =>
    withheld.includes('customer')
      ? ORDERS_WITHOUT_CUSTOMER_QUERY
      : withheld.includes('shippingAddress')
        ? ORDERS_WITHOUT_ADDRESS_QUERY
        : ORDERS_QUERY;
  for (let page = 0; page < MAX_ORDER_PAGES; page++) {
    type Page = { orders: { nodes: GqlOrder[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } };
    let data: Page;
    try {
      data = await client.graphql<Page>(shop, token, query(), { first, after });
    } catch (error) {
      const fields = withheldBy(error);
      if (!fields || fields.every((f) => withheld.includes(f))) throw error;
      withheld = [...new Set([...withheld, ...fields])];
      page -= 1;
      continue;
    }
    const { nodes, pageInfo } = data.orders;
    read.push(...nodes.filter((o) => new Date(o.createdAt) >= since));
    const oldest = nodes.at(-1);
    if (!pageInfo.hasNextPage || !pageInfo.endCursor || !oldest || new Date(oldest.createdAt) < since) break;
    after = pageInfo.endCursor;
  }
  return { orders: read, withheld };
}

/** A fulfillment order as sendTracking reads it: where it ships from, what it can do, its lines still to fulfil. */
export type RemoteFulfillmentOrder = {
  id: string;
  status: string;
  supportedActions: { action: string }[];
  assignedLocation: { location: { id: string } | null } | null;
  lineItems: { nodes: { id: string; remainingQuantity: number; lineItem: { id: string } }[] };
};

/** An order's fulfillment orders (one per location it ships from) and the fulfilments made, with their numbers. */
export async function fulfillmentOrders(
  client: ShopifyClient,
  shop: string,
  token: string,
  orderId: string,
): Promise<{
  fulfillmentOrders: RemoteFulfillmentOrder[];
  fulfillments: { id: string; trackingInfo: { number: string | null }[] }[];
}> {
  const gid = orderId.startsWith('gid://') ? orderId : `gid://shopify/Order/${orderId}`;
  const data = await client.graphql<{
    order: {
      fulfillmentOrders: { nodes: RemoteFulfillmentOrder[] };
      fulfillments: { id: string; trackingInfo: { number: string | null }[] }[];
    } | null;
  }>(
    shop,
    token,
    `query order($id: ID!) { order(id: $id) {
  fulfillmentOrders(first: 10) { nodes {
    id status supportedActions { action } assignedLocation { location { id } }
    lineItems(first: 50) { nodes { id remainingQuantity lineItem { id } } }
  } }
  fulfillments(first: 20) { id trackingInfo(first: 5) { number } }
} }`,
    { id: gid },
  );
  if (!data.order) throw new ShopifyError(404, `Shopify has no order ${orderId}`);
  return { fulfillmentOrders: data.order.fulfillmentOrders.nodes, fulfillments: data.order.fulfillments };
}

/**
 * One fulfilment (one location's fulfillment orders: Shopify takes no more in a call) of the given fulfillment
 * order lines and quantities, with carrier, number and URL; the buyer is notified.
 */
export async function createFulfillment(
  client: ShopifyClient,
  shop: string,
  token: string,
  input: {
    lines: { fulfillmentOrderId: string; fulfillmentOrderLineItems: { id: string; quantity: number }[] }[];
    company: string | null;
    number: string | null;
    url: string | null;
  },
): Promise<string> {
  const data = await client.graphql<{
    fulfillmentCreate: { fulfillment: { id: string } | null; userErrors: ShopifyUserError[] };
  }>(
    shop,
    token,
    `mutation fulfillmentCreate($fulfillment: FulfillmentInput!) {
  fulfillmentCreate(fulfillment: $fulfillment) { fulfillment { id status } userErrors { field message } }
}`,
    {
      fulfillment: {
        lineItemsByFulfillmentOrder: input.lines,
        trackingInfo: { company: input.company, number: input.number, url: input.url },
        notifyCustomer: true,
      },
    },
  );
  const result = data.fulfillmentCreate;
  if (result.userErrors.length) {
    throw new ShopifyError(422, `Shopify refused the fulfilment: ${describeUserErrors(result.userErrors)}`);
  }
  if (!result.fulfillment) throw new ShopifyError(502, 'Shopify did not return the fulfilment');
  return result.fulfillment.id;
}
