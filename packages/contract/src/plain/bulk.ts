import { priceForMargin, priceProblem } from './pricing';

/** The most designs, blanks and products one bulk run makes. */
export const BULK_DESIGNS_MAX = 100;
export const BULK_BLANKS_MAX = 10;
export const BULK_COLORS_MAX = 20;
/** The most stores one bulk run pushes each product to. */
export const BULK_STORES_MAX = 10;

/** How a bulk run prices every variant from its base cost. */
export type TBulkPricing = { markupPercent: number } | { marginPercent: number } | { fixed: number };

const cents = (amount: number) => Math.round(amount * 100);

/**
 * A variant's price by a bulk rule: base cost plus a markup (rounded up to the cent), the lowest price keeping a
 * margin after the store's fee (`priceForMargin`, rounded up to .99), or one fixed price. The caller refuses a price
 * `priceProblem` names (below cost), so a rule never sells at a loss.
 */
export function bulkPrice(
  rule: TBulkPricing,
  baseCost: number,
  fee: { percent: number; fixed: number },
): { price: number; problem: string | null } {
  let price: number;
  if ('fixed' in rule) price = rule.fixed;
  else if ('markupPercent' in rule) price = Math.ceil(cents(baseCost) * (1 + rule.markupPercent / 100) - 1e-6) / 100;
  else price = priceForMargin(baseCost, rule.marginPercent, fee);
  return { price, problem: priceProblem(price, baseCost) };
}
