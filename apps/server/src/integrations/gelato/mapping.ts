import type { TOrderStatus } from '@podforge/contract';
import type { GAddress, GOrder, GProduct } from './api';

/** Gelato's words into ours (apis-next.md G.6): statuses, addresses, money and print areas. */

const STATUS: Record<string, TOrderStatus> = {
  created: 'sent',
  uploading: 'sent',
  passed: 'sent',
  pending_approval: 'sent',
  pending_personalization: 'sent',
  digitizing: 'sent',
  not_connected: 'sent',
  in_production: 'in_production',
  printed: 'in_production',
  shipped: 'shipped',
  in_transit: 'shipped',
  // Delivery is read from the shipments (every parcel delivered), as for Printful.
  delivered: 'shipped',
  on_hold: 'on_hold',
  failed: 'failed',
  canceled: 'cancelled',
  returned: 'failed',
};

/** Our status of one Gelato order (a draft stays a draft). */
export const statusOf = (o: Pick<GOrder, 'orderType' | 'fulfillmentStatus'>): 'draft' | TOrderStatus =>
  o.orderType === 'draft' ? 'draft' : (STATUS[o.fulfillmentStatus] ?? 'sent');

const PROGRESS: ('draft' | TOrderStatus)[] = ['draft', 'sent', 'in_production', 'shipped'];

/**
 * Our status of an order Gelato split into parts: a failure, hold or cancellation of any part shows; otherwise the
 * least advanced part (shipped only when every part is).
 */
export function combinedStatus(parts: GOrder[]): 'draft' | TOrderStatus {
  const each = parts.map(statusOf);
  for (const s of ['failed', 'on_hold'] as const) if (each.includes(s)) return s;
  if (each.every((s) => s === 'cancelled')) return 'cancelled';
  const live = each.filter((s) => s !== 'cancelled');
  return live.reduce((min, s) => (PROGRESS.indexOf(s) < PROGRESS.indexOf(min) ? s : min), live[0] ?? 'sent');
}

/** Cost of the parts: their receipts (purchases less refunds), incl. VAT; null when Gelato gave none. */
export function costOf(parts: GOrder[]): { total: string; currency: string } | null {
  const receipts = parts.flatMap((p) => p.receipts ?? []);
  if (receipts.length === 0) return null;
  const currency = receipts[0]?.currency as string;
  if (receipts.some((r) => r.currency !== currency)) return null;
  const cents = receipts.reduce((s, r) => s + Math.round(r.totalInclVat * 100), 0);
  return { total: (cents / 100).toFixed(2), currency };
}

/** Gelato's address limits (first/last name 25, lines 35, city 30, post code 15), `GB` for the UK. */
export function gelatoAddress(
  r: {
    name: string;
    address1: string;
    address2?: string | null | undefined;
    city: string;
    provinceCode?: string | null | undefined;
    countryCode: string;
    zip: string;
    phone?: string | null | undefined;
  },
  email: string,
): GAddress {
  const words = (r.name || 'Customer').trim().split(/\s+/);
  const firstName = words.length > 1 ? words.slice(0, -1).join(' ') : (words[0] as string);
  const lastName = words.length > 1 ? (words[words.length - 1] as string) : '-';
  const country = r.countryCode.toUpperCase() === 'UK' ? 'GB' : r.countryCode.toUpperCase();
  return {
    firstName: firstName.slice(0, 25),
    lastName: lastName.slice(0, 25),
    addressLine1: r.address1.slice(0, 35),
    ...(r.address2 ? { addressLine2: r.address2.slice(0, 35) } : {}),
    city: r.city.slice(0, 30),
    postCode: r.zip.slice(0, 15),
    country,
    ...(r.provinceCode ? { state: r.provinceCode } : {}),
    email,
    ...(r.phone ? { phone: r.phone.slice(0, 25) } : {}),
  };
}

/** Our placements onto Gelato file types ('front' prints as `default` on apparel). */
export const fileTypeOf = (placement: string) =>
  placement === 'front' || placement === 'default' ? 'default' : placement.replace(/_/g, '-');

/** A product's group (the same blank in every size and colour): its uid less size, colour and paper format. */
export const groupOf = (productUid: string) =>
  productUid
    .replace(/_gsi_[^_]+/, '')
    .replace(/_gco_[^_]+/, '')
    .replace(/_pf_[^_]+/, '');

const TITLES: Record<string, string> = { 't-shirts': 'T-shirt', posters: 'Poster' };

/** The seller's words for a product: catalogue, then the attributes that set it apart. */
export function productName(catalogUid: string, p: GProduct): string {
  const a = p.attributes;
  if (catalogUid === 'posters') return `Poster ${a.PaperType ?? ''}`.trim();
  const bits = [a.GarmentQuality, a.GarmentCut, a.GarmentSubcategory].filter(Boolean).join(' ');
  return `${TITLES[catalogUid] ?? catalogUid} ${bits}`.trim();
}

/** The product type words of packages/contract for a Gelato catalogue. */
export const productTypeOf = (catalogUid: string) =>
  catalogUid === 'posters' ? 'poster' : catalogUid === 't-shirts' ? 'tshirt' : catalogUid;

/** Print area in pixels at 300 dpi from the product's dimensions in millimetres (null when Gelato gives none). */
export function printAreaOf(p: GProduct): { widthPx: number; heightPx: number; dpi: number } | null {
  const w = p.dimensions?.Width;
  const h = p.dimensions?.Height;
  if (!w || !h || w.measureUnit !== 'mm' || h.measureUnit !== 'mm') return null;
  return { widthPx: Math.round((w.value / 25.4) * 300), heightPx: Math.round((h.value / 25.4) * 300), dpi: 300 };
}
