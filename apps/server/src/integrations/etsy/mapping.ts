import { type IncomingOrder, shippingAddress } from '../../modules/stores/incoming-order';
import { type EtsyReceipt, moneyString } from './client';

const CANCELLED = ['canceled', 'fully refunded'];
const PAID = ['paid', 'completed', 'partially refunded'];

/** The receipt as the pipeline's order; null when it is not one Podforge acts on (not paid, not cancelled). */
export function fromEtsyReceipt(r: EtsyReceipt): (IncomingOrder & { paid: boolean }) | null {
  const cancelled = CANCELLED.includes(r.status);
  const paid = r.is_paid && PAID.includes(r.status);
  if (!cancelled && !paid) return null;
  return {
    paid,
    remoteOrderId: String(r.receipt_id),
    name: `#${r.receipt_id}`,
    currency: r.grandtotal.currency_code,
    total: moneyString(r.grandtotal),
    orderedAt: new Date(r.create_timestamp * 1000),
    cancelled,
    customerId: r.buyer_user_id ? String(r.buyer_user_id) : null,
    address: shippingAddress({
      name: r.name,
      address1: r.first_line,
      address2: r.second_line,
      city: r.city,
      provinceCode: r.state,
      countryCode: r.country_iso,
      zip: r.zip,
    }),
    lines: (r.transactions ?? []).map((t) => ({
      remoteLineId: String(t.transaction_id),
      remoteVariantId: t.product_id ? String(t.product_id) : null,
      remoteProductId: t.listing_id ? String(t.listing_id) : undefined,
      sku: t.sku || null,
      title: t.title ?? '',
      quantity: t.quantity,
      price: moneyString(t.price),
    })),
  };
}
