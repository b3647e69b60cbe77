import type { IncomingOrder } from '../../modules/stores/incoming-order';
import type { PushProduct } from '../../modules/stores/store-publisher';
import type { AmazonOrder } from './client';

/**
 * Podforge's product as Amazon's listing attributes (apis-next.md H.6), and Amazon's order as the StorePlatform
 * port's IncomingOrder. A product with colours or sizes is a variation family: one parent SKU (no offer, the
 * variation theme) and one child per variant (its colour and size, price, merchant-fulfilled stock and handling
 * time, pictures by public URL). Every attribute is an array of objects carrying `marketplace_id`.
 */

export type AmazonListingSettings = {
  brand: string;
  gtinExempt: boolean;
  marketplaceId: string;
  languageTag: string;
  currency: string;
  handlingDays: number;
};

export type FamilyMember = {
  sku: string;
  role: 'parent' | 'child' | 'standalone';
  /** Our variant's id (children and a standalone item). */
  variantId: string | null;
  attributes: Record<string, unknown[]>;
};

/** Print-on-demand is made to order: the quantity offered. */
export const MADE_TO_ORDER_QUANTITY = 999;
/** Amazon SKUs are at most 40 characters. */
export const MAX_SKU_LENGTH = 40;

/** The parent SKU of a product's family: stable for the product, so a retry writes the same one. */
export const parentSkuOf = (productId: string) => `PF-${productId.replace(/-/g, '').slice(0, 16).toUpperCase()}-PARENT`;

export type VariationTheme = 'SIZE/COLOR' | 'COLOR' | 'SIZE';

export function themeOf(product: PushProduct): VariationTheme | null {
  const colors = new Set(product.variants.map((v) => v.color).filter(Boolean));
  const sizes = new Set(product.variants.map((v) => v.size).filter(Boolean));
  if (product.variants.length === 1) return null;
  if (colors.size > 0 && sizes.size > 0) return 'SIZE/COLOR';
  if (colors.size > 0) return 'COLOR';
  if (sizes.size > 0) return 'SIZE';
  return null;
}

const ALPHA: Record<string, string> = {
  XS: 'x_s',
  S: 's',
  M: 'm',
  L: 'l',
  XL: 'x_l',
  '2XL': 'xx_l',
  XXL: 'xx_l',
  '3XL': '3x_l',
  XXXL: '3x_l',
  '4XL': '4x_l',
  '5XL': '5x_l',
};

/** An apparel size as Amazon's alpha size (`as4` system), or null when Amazon has none for it. */
export const apparelSize = (size: string) => ALPHA[size.trim().toUpperCase()] ?? null;

/**
 * The family's SKUs and attributes. `sizeAttribute` is the product type's (`shirt_size` for apparel, `size`
 * otherwise); `imageUrl` gives a picture's public URL.
 */
export function buildFamily(
  product: PushProduct,
  settings: AmazonListingSettings,
  sizeAttribute: 'shirt_size' | 'size',
  imageUrl: (mockupId: string) => string,
  options: { archived?: boolean } = {},
): FamilyMember[] {
  const m = settings.marketplaceId;
  const lang = settings.languageTag;
  const txt = (value: string) => [{ value, language_tag: lang, marketplace_id: m }];
  const common: Record<string, unknown[]> = {
    item_name: txt(product.title),
    brand: txt(settings.brand),
    product_description: txt(product.description),
    bullet_point: [product.description.split(/(?<=[.!?])\s+/)[0] ?? product.title].map((value) => ({
      value: value.slice(0, 500),
      language_tag: lang,
      marketplace_id: m,
    })),
    ...(product.tags.length ? { generic_keywords: txt(product.tags.join(' ').slice(0, 250)) } : {}),
    ...(settings.gtinExempt
      ? { supplier_declared_has_product_identifier_exemption: [{ value: true, marketplace_id: m }] }
      : {}),
  };
  const theme = themeOf(product);
  const parentSku = parentSkuOf(product.id);
  const pictures = (color: string | null) => {
    const own = color ? product.images.filter((i) => i.color === color) : [];
    const rest = product.images.filter((i) => !own.includes(i));
    return [...own, ...rest].slice(0, 9);
  };
  const offer = (price: string) => ({
    condition_type: [{ value: 'new_new', marketplace_id: m }],
    purchasable_offer: [
      {
        currency: settings.currency,
        our_price: [{ schedule: [{ value_with_tax: Number(price) }] }],
        marketplace_id: m,
      },
    ],
    fulfillment_availability: [
      {
        fulfillment_channel_code: 'DEFAULT',
        quantity: options.archived ? 0 : MADE_TO_ORDER_QUANTITY,
        lead_time_to_ship_max_days: settings.handlingDays,
      },
    ],
  });
  const images = (color: string | null) => {
    const [main, ...others] = pictures(color);
    return {
      ...(main ? { main_product_image_locator: [{ media_location: imageUrl(main.mockupId), marketplace_id: m }] } : {}),
      ...Object.fromEntries(
        others.map((p, i) => [
          `other_product_image_locator_${i + 1}`,
          [{ media_location: imageUrl(p.mockupId), marketplace_id: m }],
        ]),
      ),
    };
  };
  const sizeValue = (size: string) =>
    sizeAttribute === 'shirt_size'
      ? [
          {
            size_system: 'as4',
            size_class: 'alpha',
            size: apparelSize(size) ?? size,
            body_type: 'regular',
            height_type: 'regular',
            marketplace_id: m,
          },
        ]
      : txt(size);
  if (!theme) {
    const [v] = product.variants;
    if (!v) return [];
    return [
      {
        sku: v.sku,
        role: 'standalone',
        variantId: v.id,
        attributes: {
          ...common,
          ...(v.color ? { color: txt(v.color) } : {}),
          ...(v.size ? { [sizeAttribute]: sizeValue(v.size) } : {}),
          ...offer(v.price),
          ...images(v.color),
        },
      },
    ];
  }
  const parent: FamilyMember = {
    sku: parentSku,
    role: 'parent',
    variantId: null,
    attributes: {
      ...common,
      parentage_level: [{ value: 'parent', marketplace_id: m }],
      variation_theme: [{ name: theme }],
      ...images(null),
    },
  };
  const children = product.variants.map(
    (v): FamilyMember => ({
      sku: v.sku,
      role: 'child',
      variantId: v.id,
      attributes: {
        ...common,
        parentage_level: [{ value: 'child', marketplace_id: m }],
        child_parent_sku_relationship: [
          { child_relationship_type: 'variation', parent_sku: parentSku, marketplace_id: m },
        ],
        variation_theme: [{ name: theme }],
        ...(theme.includes('COLOR') && v.color ? { color: txt(v.color) } : {}),
        ...(theme.includes('SIZE') && v.size ? { [sizeAttribute]: sizeValue(v.size) } : {}),
        ...offer(v.price),
        ...images(v.color),
      },
    }),
  );
  return [parent, ...children];
}

/** Amazon's v2026 order in the port's shape: shipped-to-be orders are paid; PENDING has no address yet (null). */
export function fromAmazonOrder(order: AmazonOrder): IncomingOrder | null {
  const status = order.fulfillment?.fulfillmentStatus;
  if (!status || status === 'PENDING' || status === 'PENDING_AVAILABILITY') return null;
  const cancelled = status === 'CANCELLED';
  const a = order.recipient?.deliveryAddress;
  const currency =
    order.proceeds?.grandTotal?.currencyCode ?? order.orderItems[0]?.product.price?.unitPrice?.currencyCode ?? 'USD';
  const total =
    order.proceeds?.grandTotal?.amount ??
    order.orderItems
      .reduce((s, i) => s + Number(i.product.price?.unitPrice?.amount ?? 0) * i.quantityOrdered, 0)
      .toFixed(2);
  return {
    remoteOrderId: order.orderId,
    name: order.orderId,
    currency,
    total: Number(total).toFixed(2),
    orderedAt: new Date(order.createdTime),
    cancelled,
    customerId: null,
    address:
      a?.addressLine1 && a.city && a.countryCode && a.postalCode
        ? {
            name: a.name ?? order.buyer?.buyerName ?? '',
            address1: a.addressLine1,
            ...(a.addressLine2 ? { address2: a.addressLine2 } : {}),
            city: a.city,
            ...(a.stateOrRegion ? { provinceCode: a.stateOrRegion } : {}),
            countryCode: a.countryCode,
            zip: a.postalCode,
            ...(a.phone ? { phone: a.phone } : {}),
          }
        : null,
    lines: order.orderItems.map((i) => ({
      remoteLineId: i.orderItemId,
      remoteVariantId: null,
      sku: i.product.sellerSku ?? null,
      title: i.product.title ?? i.product.sellerSku ?? i.orderItemId,
      quantity: i.quantityOrdered,
      price: Number(i.product.price?.unitPrice?.amount ?? 0).toFixed(2),
    })),
  };
}
