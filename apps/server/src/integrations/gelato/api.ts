import type { GelatoClient } from './client';

/** The Gelato wire shapes we use (apis-next.md G.2-G.7) and one function per call. */

export type GelatoConn = { client: GelatoClient; apiKey: string };

export type GAddress = {
  companyName?: string;
  firstName: string;
  lastName: string;
  addressLine1: string;
  addressLine2?: string;
  state?: string;
  city: string;
  postCode: string;
  country: string;
  email: string;
  phone?: string;
};

export type GFile = { type: string; url: string };

export type GOrderItem = {
  id: string;
  itemReferenceId: string;
  productUid: string;
  files: GFile[];
  quantity: number;
  fulfillmentStatus: string;
  price?: number;
  currency?: string;
};

export type GPackage = { id: string; orderItemIds: string[]; trackingCode: string; trackingUrl: string };

export type GReceiptItem = {
  type: string;
  title?: string;
  referenceId?: string;
  price: number;
  vat: number;
  priceInclVat: number;
};

export type GReceipt = {
  id: string;
  orderId: string;
  transactionType: 'purchase' | 'refund';
  currency: string;
  items: GReceiptItem[];
  productsPrice: number;
  shippingPrice: number;
  packagingPrice: number;
  discount: number;
  total: number;
  totalVat: number;
  totalInclVat: number;
};

export type GOrder = {
  id: string;
  orderType: 'order' | 'draft';
  orderReferenceId: string;
  customerReferenceId: string;
  fulfillmentStatus: string;
  financialStatus: string;
  currency: string;
  channel: string;
  storeId: null;
  createdAt: string;
  updatedAt: string;
  orderedAt: string | null;
  items: GOrderItem[];
  shippingAddress: GAddress;
  shipment: {
    id: string;
    shipmentMethodName: string;
    shipmentMethodUid: string;
    price: number;
    currency: string;
    minDeliveryDays: number;
    maxDeliveryDays: number;
    minDeliveryDate: string;
    maxDeliveryDate: string;
    fulfillmentCountry: string;
    packagesCount: number;
    packages: GPackage[];
  } | null;
  receipts: GReceipt[];
  connectedOrderIds: string[];
  metadata?: { key: string; value: string }[];
};

export type GOrderCreate = {
  orderType: 'order' | 'draft';
  orderReferenceId: string;
  customerReferenceId: string;
  currency: string;
  items: { itemReferenceId: string; productUid: string; files: GFile[]; quantity: number }[];
  shipmentMethodUid?: string;
  shippingAddress: GAddress;
  metadata?: { key: string; value: string }[];
};

export type GProduct = {
  productUid: string;
  attributes: Record<string, string>;
  weight: { value: number; measureUnit: string };
  dimensions?: Record<string, { value: number; measureUnit: string }>;
  supportedCountries: string[];
  notSupportedCountries?: string[];
  isStockable?: boolean;
  isPrintable?: boolean;
};

export type GPrice = {
  productUid: string;
  country: string;
  quantity: number;
  price: number;
  currency: string;
  pageCount: number | null;
};

export type GShipmentMethod = {
  name: string;
  shipmentMethodUid: string;
  price: number;
  currency: string;
  minDeliveryDays: number;
  maxDeliveryDays: number;
  minDeliveryDate: string;
  maxDeliveryDate: string;
  type: string;
};

export type GQuote = {
  id: string;
  itemReferenceIds: string[];
  fulfillmentCountry: string;
  shipmentMethods: GShipmentMethod[];
  products: { itemReferenceId: string; productUid: string; quantity: number; price: number; currency: string }[];
};

export type GQuoteRequest = {
  orderReferenceId: string;
  customerReferenceId: string;
  currency: string;
  allowMultipleQuotes: boolean;
  recipient: Partial<GAddress> & { country: string };
  products: { itemReferenceId: string; productUid: string; fileUrl?: string; quantity: number }[];
};

const enc = encodeURIComponent;

export const listCatalogs = (c: GelatoConn) =>
  c.client.request<{ catalogUid: string; title: string }[]>(c.apiKey, 'product', 'GET', '/v3/catalogs');

export const searchProducts = (c: GelatoConn, catalogUid: string, offset: number, limit = 100) =>
  c.client.request<{ products: GProduct[] }>(
    c.apiKey,
    'product',
    'POST',
    `/v3/catalogs/${enc(catalogUid)}/products:search`,
    {
      attributeFilters: {},
      limit,
      offset,
    },
  );

export const getProduct = (c: GelatoConn, productUid: string) =>
  c.client.request<GProduct>(c.apiKey, 'product', 'GET', `/v3/products/${enc(productUid)}`);

export const getPrices = (c: GelatoConn, productUid: string, country: string, currency: string) =>
  c.client.request<GPrice[]>(
    c.apiKey,
    'product',
    'GET',
    `/v3/products/${enc(productUid)}/prices?country=${enc(country)}&currency=${enc(currency)}`,
  );

export const quoteOrder = (c: GelatoConn, body: GQuoteRequest) =>
  c.client.request<{ orderReferenceId: string; quotes: GQuote[] }>(c.apiKey, 'order', 'POST', '/v4/orders:quote', body);

export const createOrder = (c: GelatoConn, body: GOrderCreate) =>
  c.client.request<GOrder>(c.apiKey, 'order', 'POST', '/v4/orders', body);

export const getOrder = (c: GelatoConn, id: string) =>
  c.client.request<GOrder>(c.apiKey, 'order', 'GET', `/v4/orders/${enc(id)}`);

export const searchOrders = (c: GelatoConn, orderReferenceIds: string[]) =>
  c.client.request<{ orders: Pick<GOrder, 'id' | 'orderReferenceId' | 'orderType' | 'fulfillmentStatus'>[] }>(
    c.apiKey,
    'order',
    'POST',
    '/v4/orders:search',
    { orderReferenceIds, orderTypes: ['draft', 'order'], limit: 100, offset: 0 },
  );

export const patchOrder = (c: GelatoConn, id: string, body: { orderType?: 'order'; items?: { id: string }[] }) =>
  c.client.request<GOrder>(c.apiKey, 'order', 'PATCH', `/v4/orders/${enc(id)}`, body);

export const deleteOrder = (c: GelatoConn, id: string) =>
  c.client.request<unknown>(c.apiKey, 'order', 'DELETE', `/v4/orders/${enc(id)}`);

export const cancelOrder = (c: GelatoConn, id: string) =>
  c.client.request<unknown>(c.apiKey, 'order', 'POST', `/v4/orders/${enc(id)}:cancel`);
