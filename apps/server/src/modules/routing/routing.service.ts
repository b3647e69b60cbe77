import type { TBlankQuoteQuery, TPrinterQuote, TProductQuotes, TQuotesQuery, TRoutingRule } from '@podforge/contract';
import { badRequest, notFound } from '../../lib/errors';
import { type Blank, matchBlanks, productFamily } from '../printers/blank-match';
import type { FulfilmentProvider, PrinterAccount, QuoteInput } from '../printers/fulfilment-provider';
import type { RoutingDeps } from './routing.deps';
import { productWithVariants, routingRow, saveRouting } from './routing.repository';

/**
 * Quotes from every connected printer for the same blank (matched by type, colour and size), and the workspace's
 * routing rule that picks each order's printer from them: a fixed printer, the cheapest or the fastest to the
 * buyer's country. Every figure is the printer's own answer; a printer that cannot quote says why.
 */

export async function getRule(deps: Pick<RoutingDeps, 'db'>, workspaceId: string): Promise<TRoutingRule> {
  const row = await routingRow(deps.db, workspaceId);
  return { mode: row?.mode ?? 'first', provider: row?.mode === 'fixed' ? (row.provider ?? null) : null };
}

export async function setRule(deps: RoutingDeps, workspaceId: string, rule: TRoutingRule): Promise<TRoutingRule> {
  if (rule.mode === 'fixed' && !deps.printers.get(rule.provider as string)) {
    throw badRequest(`Unknown printer '${rule.provider}'`);
  }
  const values = {
    printerRouting: rule.mode === 'first' ? null : rule.mode,
    printerRoutingProvider: rule.mode === 'fixed' ? rule.provider : null,
    updatedAt: new Date(),
  };
  await saveRouting(deps.db, workspaceId, values);
  return getRule(deps, workspaceId);
}

/** Every printer this workspace can send to now (the built-in sandbox included), with its account. */
async function connectedPrinters(deps: RoutingDeps, workspaceId: string) {
  const out: { printer: FulfilmentProvider; account: PrinterAccount }[] = [];
  for (const printer of deps.printers.all()) {
    const account = await printer.account(workspaceId);
    if (account) out.push({ printer, account });
  }
  return out;
}

type Want = { blanks: Blank[]; quantities: number[]; recipient: QuoteInput['recipient']; currency?: string };

/** One printer's quote for the blanks, or why it has none. */
async function quoteAt(
  deps: RoutingDeps,
  workspaceId: string,
  { printer, account }: { printer: FulfilmentProvider; account: PrinterAccount },
  want: Want,
): Promise<TPrinterQuote> {
  const base = { provider: printer.id, name: printer.name };
  const match = await matchBlanks(printer, workspaceId, want.blanks);
  if (!match.ok) return { ...base, ok: false, reason: `Cannot make it: ${match.reason}` };
  return askQuote(deps, printer, account, {
    recipient: want.recipient,
    ...(want.currency ? { currency: want.currency } : {}),
    items: match.items.map((i, n) => ({ ...i, quantity: want.quantities[n] ?? 1 })),
  });
}

/** A printer's quote in our words, or why it has none (its error as the seller reads it). */
async function askQuote(
  deps: RoutingDeps,
  printer: FulfilmentProvider,
  account: PrinterAccount,
  input: QuoteInput,
): Promise<TPrinterQuote> {
  const base = { provider: printer.id, name: printer.name };
  try {
    return { ...base, ok: true, ...(await printer.quote(account, input)) };
  } catch (error) {
    const text = deps.printers.explain(error)?.text ?? (error as Error).message;
    return { ...base, ok: false, reason: `No quote: ${text}` };
  }
}

async function quoteAll(deps: RoutingDeps, workspaceId: string, want: Want): Promise<TPrinterQuote[]> {
  const printers = await connectedPrinters(deps, workspaceId);
  return Promise.all(printers.map((p) => quoteAt(deps, workspaceId, p, want)));
}

export async function productQuotes(
  deps: RoutingDeps,
  workspaceId: string,
  productId: string,
  query: TQuotesQuery,
): Promise<TProductQuotes> {
  const found = await productWithVariants(deps.db, workspaceId, productId);
  if (!found) throw notFound('Product');
  const { product, variants } = found;
  const variant = query.variantId ? variants.find((v) => v.id === query.variantId) : variants[0];
  if (!variant) throw notFound('Variant');
  const quotes = await quoteAll(deps, workspaceId, {
    blanks: [
      {
        productType: product.productType,
        color: variant.color,
        size: variant.size,
        family: productFamily(product),
        catalogProductId: product.catalogProductId,
        catalogVariantId: variant.catalogVariantId,
      },
    ],
    quantities: [query.quantity],
    recipient: {
      countryCode: query.country,
      ...(query.state ? { provinceCode: query.state } : {}),
      ...(query.zip ? { zip: query.zip } : {}),
    },
  });
  return { country: query.country, variantId: variant.id, quantity: query.quantity, quotes };
}

/**
 * One catalogue variant quoted by the printer an order of it would go to (the network's own account, else its
 * sandbox): the price editor's shipping line before the product is saved. No printer of the network: a reason.
 */
export async function blankQuote(
  deps: RoutingDeps,
  workspaceId: string,
  query: TBlankQuoteQuery,
): Promise<TPrinterQuote> {
  const found = await deps.printers.forWorkspace(workspaceId, query.network);
  if (!found) {
    return {
      ok: false,
      provider: query.network,
      name: query.network,
      reason: 'No printer of this network is connected',
    };
  }
  return askQuote(deps, found.provider, found.account, {
    recipient: { countryCode: query.country },
    items: [
      { catalogProductId: query.catalogProductId, catalogVariantId: query.catalogVariantId, quantity: query.quantity },
    ],
  });
}

type Quoted = Extract<TPrinterQuote, { ok: true }>;

const line = (q: Quoted) =>
  `${q.name} ${q.total} ${q.currency} (products ${q.products} + shipping ${q.shipping}` +
  (q.maxDeliveryDays !== null ? `, ${q.minDeliveryDays}–${q.maxDeliveryDays} days)` : ')');

/**
 * The printer the workspace's rule picks for an order, and why (in the seller's words); null under the `first`
 * rule (the first connected printer, as before any rule). A rule that cannot be followed answers a problem.
 */
export async function routeOrder(
  deps: RoutingDeps,
  workspaceId: string,
  want: Want & { currency: string },
): Promise<{ ok: true; provider: string; reason: string } | { ok: false; problem: string } | null> {
  const rule = await getRule(deps, workspaceId);
  if (rule.mode === 'first') return null;
  if (rule.mode === 'fixed') {
    const printer = deps.printers.get(rule.provider as string);
    if (!printer || !(await printer.account(workspaceId))) {
      return {
        ok: false,
        problem: `The routing rule sends orders to ${printer?.name ?? rule.provider}, which is not connected`,
      };
    }
    return { ok: true, provider: printer.id, reason: `Routing rule: always ${printer.name}` };
  }
  const quotes = await quoteAll(deps, workspaceId, want);
  const quoted = quotes.filter((q): q is Quoted => q.ok);
  if (quoted.length === 0) {
    return {
      ok: false,
      problem: `No printer could quote this order: ${quotes.map((q) => `${q.name}: ${q.ok ? '' : q.reason}`).join('; ')}`,
    };
  }
  // Figures in two currencies are not compared (no exchange rate is invented): the store's currency first.
  const currency = quoted.some((q) => q.currency === want.currency) ? want.currency : (quoted[0] as Quoted).currency;
  const comparable = quoted.filter((q) => q.currency === currency);
  const byTotal = (a: Quoted, b: Quoted) => Number(a.total) - Number(b.total);
  const ranked =
    rule.mode === 'cheapest'
      ? [...comparable].sort(byTotal)
      : [...comparable].sort(
          (a, b) =>
            (a.maxDeliveryDays ?? Number.POSITIVE_INFINITY) - (b.maxDeliveryDays ?? Number.POSITIVE_INFINITY) ||
            byTotal(a, b),
        );
  const best = ranked[0] as Quoted;
  const others = [
    ...ranked.slice(1).map(line),
    ...quoted.filter((q) => q.currency !== currency).map((q) => `${q.name} not compared (quoted in ${q.currency})`),
    ...quotes.filter((q) => !q.ok).map((q) => `${q.name}: ${q.ok ? '' : q.reason}`),
  ];
  const rank = rule.mode === 'cheapest' ? 'Cheapest' : 'Fastest';
  const reason = `${rank} to ${want.recipient.countryCode}: ${line(best)}${others.length ? `; then ${others.join('; ')}` : ''}`;
  return { ok: true, provider: best.provider, reason: reason.slice(0, 1000) };
}
