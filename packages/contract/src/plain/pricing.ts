import type { TStoreFee } from '../pricing';

/**
 * Money rules both sides use: what a sale leaves after the store's fee and the fulfilment cost, and prices set from
 * a margin. Amounts are computed in cents, so sums never drift; results are numbers with 2 decimals.
 */

const cents = (amount: number) => Math.round(amount * 100);
const fromCents = (c: number) => c / 100;

/**
 * Estimated fees per platform, the default of the workspace setting: Shopify Basic's online card rate (2.9% +
 * 0.30), Etsy's 6.5% transaction fee plus its 3% + 0.25 payment processing and 0.20 listing fee, WooCommerce with
 * a typical card processor (2.9% + 0.30), Amazon's 15% referral fee. Sellers on other plans set their own.
 */
export const DEFAULT_STORE_FEES: Record<'shopify' | 'etsy' | 'woocommerce' | 'amazon', TStoreFee> = {
  shopify: { percent: 2.9, fixed: 0.3 },
  etsy: { percent: 9.5, fixed: 0.45 },
  woocommerce: { percent: 2.9, fixed: 0.3 },
  amazon: { percent: 15, fixed: 0 },
};

/** The margin below which the pricing editor warns, by default (percent of the price). */
export const DEFAULT_TARGET_MARGIN = 30;

export type VariantEconomics = {
  /** The store's fee on one sale. */
  fee: number;
  /** Price minus base cost minus shipping minus fee. */
  profit: number;
  /** Profit as a percentage of the price (0 when the price is 0). */
  margin: number;
};

/**
 * The one profit formula (#28), used by the price editor, Orders, the Dashboard and quotes: the price less what the
 * printer charges (the items' base cost and the shipping, as quoted; or the order's bill, shipping included) less the
 * store's fee on that price.
 */
export function variantEconomics(price: number, baseCost: number, fee: TStoreFee, shipping = 0): VariantEconomics {
  const priceC = cents(price);
  const feeC = Math.round((priceC * fee.percent) / 100) + cents(fee.fixed);
  const profitC = priceC - cents(baseCost) - cents(shipping) - feeC;
  return {
    fee: fromCents(feeC),
    profit: fromCents(profitC),
    margin: priceC > 0 ? Math.round((profitC / priceC) * 1000) / 10 : 0,
  };
}

/** Rounds a price up to the next .99 (12.10 -> 12.99, 12.99 -> 12.99, 13.00 -> 13.99). */
export function roundUpTo99(price: number): number {
  const c = cents(price);
  const whole = Math.floor(c / 100);
  const rounded = c % 100 === 99 ? c : whole * 100 + 99;
  return fromCents(rounded < c ? rounded + 100 : rounded);
}

/**
 * The lowest price whose margin after the store's fee is at least `marginPercent`:
 * price * (1 - fee% - margin%) = baseCost + fixed fee. Optionally rounded up to .99.
 */
export function priceForMargin(baseCost: number, marginPercent: number, fee: TStoreFee, round99 = true): number {
  const keep = 1 - fee.percent / 100 - marginPercent / 100;
  if (keep <= 0) throw new Error('margin and fee leave nothing of the price');
  // Whole cents, rounded up; kept in cents so `raw * 100` never meets a float like 1234.0000001 and rounds up twice.
  const rawC = Math.ceil((cents(baseCost) + cents(fee.fixed)) / keep);
  return round99 ? roundUpTo99(fromCents(rawC)) : fromCents(rawC);
}

/** A price the server refuses: at or below 0, or below what the variant costs to make. */
export function priceProblem(price: number, baseCost: number | null): string | null {
  if (!(price > 0)) return 'must be above 0';
  if (baseCost !== null && cents(price) < cents(baseCost)) {
    return `is below its base cost of ${baseCost.toFixed(2)}`;
  }
  return null;
}

/** One sale as Orders and the Dashboard count it: what the buyer paid, and what the printer charged once known. */
export type SaleFigures = { revenue: number; cost: number | null; currency: string; costCurrency: string | null };

/**
 * A sale's store fee and profit by the one formula (`variantEconomics`): null profit until the printer's charge is
 * known, or when it is in another currency than the sale (subtracting it would need an exchange rate).
 */
export function saleEconomics(sale: SaleFigures, fee: TStoreFee): { fee: number; profit: number | null } {
  const economics = variantEconomics(sale.revenue, sale.cost ?? 0, fee);
  const comparable = sale.cost !== null && (sale.costCurrency ?? sale.currency) === sale.currency;
  return { fee: economics.fee, profit: comparable ? economics.profit : null };
}
