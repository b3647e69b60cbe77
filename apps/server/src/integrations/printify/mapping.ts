import type { TOrderStatus } from '@podforge/contract';
import type { PfyAddress, PfyLineItemInput, PfyOrder, PfyOrderInput } from './api';

/**
 * Printify's words into Podforge's and back (apis-next.md F.6, F.7): order statuses, money (integer minor units,
 * no currency: the caller names it), the order input from ours, webhook envelopes into printer events.
 */

/** Printify's order status -> ours; 'draft' while on hold before it is sent to production (nothing charged). */
export function statusOf(status: string): 'draft' | TOrderStatus {
  switch (status) {
    case 'on-hold':
    case 'pending':
      return 'draft';
    case 'payment-not-received':
    case 'has-issues':
      return 'on_hold';
    case 'sending-to-production':
      return 'sent';
    case 'in-production':
    case 'partially-fulfilled':
      return 'in_production';
    case 'fulfilled':
      return 'shipped';
    case 'canceled':
    case 'cancelled':
      return 'cancelled';
    default:
      return 'sent';
  }
}

/** Why an order is held, in the seller's words (null when it is not held). */
export function holdReason(status: string): string | null {
  if (status === 'payment-not-received') return 'On hold: Printify could not charge your payment method';
  if (status === 'has-issues') return 'On hold: Printify needs action on this order (image, address or stock)';
  return null;
}

/** Integer minor units -> a decimal string ('1050' -> '10.50'), computed in integers. */
export const centsToDecimal = (cents: number) => {
  const n = Math.round(cents);
  const sign = n < 0 ? '-' : '';
  const abs = Math.abs(n);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
};

/** A decimal string -> integer minor units ('24.00' -> 2400). */
export const decimalToCents = (amount: string) => {
  const [whole = '0', frac = ''] = amount.trim().split('.');
  return Number(whole) * 100 + Number(`${frac}00`.slice(0, 2)) * (whole.startsWith('-') ? -1 : 1);
};

/** What the order costs: every line's cost and shipping, and the tax (cents). */
export const orderCostCents = (o: PfyOrder) =>
  o.line_items.reduce((n, li) => n + (li.cost ?? 0) + (li.shipping_cost ?? 0), 0) + (o.total_tax ?? 0);

/** A full name into Printify's first and last name (a single word is both the first name and, as Printify needs one, the last). */
export function splitName(name: string): { first_name: string; last_name: string } {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return { first_name: 'Customer', last_name: 'Customer' };
  if (words.length === 1) return { first_name: words[0] as string, last_name: words[0] as string };
  return { first_name: words.slice(0, -1).join(' '), last_name: words[words.length - 1] as string };
}

export type OrderRecipient = {
  name: string;
  address1: string;
  address2?: string | null;
  city: string;
  provinceCode?: string | null;
  countryCode: string;
  zip: string;
  phone?: string | null;
};

export function addressTo(r: OrderRecipient): PfyAddress {
  return {
    ...splitName(r.name || 'Customer'),
    ...(r.phone ? { phone: r.phone } : {}),
    country: r.countryCode,
    region: r.provinceCode ?? '',
    address1: r.address1,
    ...(r.address2 ? { address2: r.address2 } : {}),
    city: r.city,
    zip: r.zip,
  };
}

/** Our order as Printify's: each line on the fly (blueprint, provider, variant, the print file per position by URL). */
export function orderInput(
  input: { externalId: string; label?: string; recipient: OrderRecipient },
  lines: {
    blueprintId: number;
    printProviderId: number;
    variantId: number;
    quantity: number;
    files: { placement: string; url: string }[];
  }[],
): PfyOrderInput {
  return {
    external_id: input.externalId,
    label: (input.label ?? input.externalId).slice(0, 50),
    line_items: lines.map(
      (l): PfyLineItemInput => ({
        print_provider_id: l.printProviderId,
        blueprint_id: l.blueprintId,
        variant_id: l.variantId,
        quantity: l.quantity,
        print_areas: Object.fromEntries(
          l.files.map((f) => [f.placement, [{ src: f.url, x: 0.5, y: 0.5, scale: 1, angle: 0 }]]),
        ),
      }),
    ),
    // Standard shipping; Printify does not notify the buyer (the store sends its own shipping mail).
    shipping_method: 1,
    send_shipping_notification: false,
    address_to: addressTo(input.recipient),
  };
}

/** Printify's webhook envelope (apis-next.md F.7). */
export type PrintifyEnvelope = {
  id?: string;
  type?: string;
  created_at?: string;
  resource?: {
    id?: string;
    type?: string;
    data?: {
      status?: string;
      carrier?: { code?: string; tracking_number?: string; tracking_url?: string };
      shipped_at?: string;
      delivered_at?: string;
    } | null;
  };
};

export type ReadEvent = {
  order: { id: string };
  to?: TOrderStatus;
  failureReason?: string | null;
  shipment?: { id?: string; trackingNumber?: string };
};

/** An order webhook in our words; null for what we do not follow (products, shops, other resources). */
export function eventOf(body: PrintifyEnvelope): ReadEvent | null {
  const r = body.resource;
  if (r?.type !== 'order' || !r.id) return null;
  const order = { id: String(r.id) };
  const tracking = r.data?.carrier?.tracking_number;
  switch (body.type) {
    case 'order:sent-to-production':
      return { order, to: 'sent', failureReason: null };
    case 'order:shipment:created':
    case 'order:shipment:delivered':
      return { order, to: 'shipped', ...(tracking ? { shipment: { id: tracking, trackingNumber: tracking } } : {}) };
    case 'order:updated':
    case 'order:created': {
      const status = r.data?.status;
      if (!status) return null;
      const to = statusOf(status);
      if (to === 'draft') return null;
      if (to === 'on_hold') return { order, to, failureReason: holdReason(status) };
      return to === 'shipped' ? { order, to } : { order, to, failureReason: null };
    }
    default:
      return null;
  }
}
