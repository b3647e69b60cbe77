import type { GProduct, GShipmentMethod } from './api';

/**
 * The fake Gelato's catalogue: two catalogues (classic unisex t-shirts, posters) of productUids in Gelato's
 * attribute encoding (apis-next.md G.2), quantity-tier prices per country, production hubs and shipment methods.
 * The figures are the fake's own (it is a test double), not Gelato's price list.
 */

export const FAKE_CATALOGS = [
  { catalogUid: 't-shirts', title: 'T-shirts' },
  { catalogUid: 'posters', title: 'Posters' },
];

const EU = ['DE', 'FR', 'NL', 'ES', 'IT', 'SE', 'DK', 'IE', 'AT', 'BE'];
const TEE_COUNTRIES = ['US', 'CA', 'GB', ...EU];
const POSTER_COUNTRIES = ['US', 'CA', 'GB', 'AU', 'JP', ...EU];

type Seed = { product: GProduct; catalogUid: string; eur: number; hub: (country: string) => string };

const TEE_SIZES = ['s', 'm', 'l', 'xl'];
const TEE_COLORS = ['white', 'black'];

const seeds: Seed[] = [];
for (const color of TEE_COLORS) {
  for (const size of TEE_SIZES) {
    seeds.push({
      catalogUid: 't-shirts',
      eur: 9.5 + (size === 'xl' ? 1 : 0) + (color === 'black' ? 0.5 : 0),
      hub: (c) => (c === 'US' || c === 'CA' ? 'US' : c === 'GB' ? 'GB' : 'DE'),
      product: {
        productUid: `apparel_product_gca_t-shirt_gsc_crewneck_gcu_unisex_gqa_classic_gsi_${size}_gco_${color}_gpr_4-0`,
        attributes: {
          GarmentCategory: 't-shirt',
          GarmentSubcategory: 'crewneck',
          GarmentCut: 'unisex',
          GarmentQuality: 'classic',
          GarmentSize: size.toUpperCase(),
          GarmentColor: color,
          GarmentPrint: '4-0',
        },
        weight: { value: 180 + TEE_SIZES.indexOf(size) * 15, measureUnit: 'grams' },
        // The front print area of the garment (the file Gelato prints from).
        dimensions: { Width: { value: 304.8, measureUnit: 'mm' }, Height: { value: 406.4, measureUnit: 'mm' } },
        supportedCountries: TEE_COUNTRIES,
        notSupportedCountries: [],
        isStockable: false,
        isPrintable: true,
      },
    });
  }
}
for (const [format, w, h, eur] of [
  ['a4', 210, 297, 6.2],
  ['a3', 297, 420, 8.9],
] as const) {
  seeds.push({
    catalogUid: 'posters',
    eur,
    // Posters are printed in Europe except for the UK: an order of a tee and a poster to the US is split in two.
    hub: (c) => (c === 'GB' ? 'GB' : 'DE'),
    product: {
      productUid: `flat_product_pf_${format}_pt_200-gsm-uncoated_cl_4-0_ver`,
      attributes: {
        ProductType: 'flat',
        PaperFormat: format.toUpperCase(),
        PaperType: '200-gsm-uncoated',
        ColorType: '4-0',
        Orientation: 'ver',
      },
      weight: { value: format === 'a3' ? 60 : 30, measureUnit: 'grams' },
      dimensions: { Width: { value: w, measureUnit: 'mm' }, Height: { value: h, measureUnit: 'mm' } },
      supportedCountries: POSTER_COUNTRIES,
      notSupportedCountries: [],
      isStockable: false,
      isPrintable: true,
    },
  });
}

export const FAKE_SEEDS = seeds;

export const seedOf = (productUid: string) => seeds.find((s) => s.product.productUid === productUid) ?? null;

/** The fake's own conversion (a test double's table; Gelato bills in the order's currency). */
export const FAKE_RATES: Record<string, number> = { EUR: 1, USD: 1.08, GBP: 0.86 };

export const fakeCurrency = (requested: string | undefined) => (requested && FAKE_RATES[requested] ? requested : 'EUR');

export const inCurrency = (eur: number, currency: string) => Math.round(eur * (FAKE_RATES[currency] ?? 1) * 100) / 100;

/** Unit price by quantity tier: 1, 10+, 50+. */
export function unitPriceEur(seed: Seed, quantity: number): number {
  const discount = quantity >= 50 ? 0.1 : quantity >= 10 ? 0.05 : 0;
  return Math.round(seed.eur * (1 - discount) * 100) / 100;
}

const CARRIER: Record<string, string> = { US: 'USPS Ground Advantage', GB: 'Royal Mail Tracked 48', DE: 'DHL Parcel' };

const addDays = (now: number, days: number) => new Date(now + days * 86_400_000).toISOString().slice(0, 10);

/** Shipment methods from a hub to a country, cheapest first; prices in EUR before conversion. */
export function methodsFrom(hub: string, country: string, currency: string, now: number): GShipmentMethod[] {
  const domestic = hub === country || (hub === 'DE' && EU.includes(country));
  const normal = domestic ? { eur: 3.99, min: 3, max: 5 } : { eur: 7.99, min: 6, max: 10 };
  const express = domestic ? { eur: 12.99, min: 1, max: 2 } : { eur: 24.99, min: 2, max: 4 };
  return [
    {
      name: CARRIER[hub] ?? 'Local Post',
      shipmentMethodUid: `${hub.toLowerCase()}_normal`,
      type: 'normal',
      price: inCurrency(normal.eur, currency),
      currency,
      minDeliveryDays: normal.min,
      maxDeliveryDays: normal.max,
      minDeliveryDate: addDays(now, normal.min),
      maxDeliveryDate: addDays(now, normal.max),
    },
    {
      name: `${CARRIER[hub] ?? 'Local Post'} Express`,
      shipmentMethodUid: `${hub.toLowerCase()}_express`,
      type: 'express',
      price: inCurrency(express.eur, currency),
      currency,
      minDeliveryDays: express.min,
      maxDeliveryDays: express.max,
      minDeliveryDate: addDays(now, express.min),
      maxDeliveryDate: addDays(now, express.max),
    },
  ];
}

/** VAT the fake charges: 20% within Europe, none elsewhere. */
export const vatRate = (country: string) => (country === 'GB' || EU.includes(country) ? 0.2 : 0);
