import type { TStoreFee } from '@podforge/contract';
import { variantEconomics } from '@podforge/contract/plain';
import { type FormEvent, useState } from 'react';
import { useProductQuotes } from '@/api/products/product-quotes';
import { Button } from '@/components/ui/button';
import { inputClass } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { ApiError } from '@/lib/api-client';
import { money } from '@/lib/variant-pricing';

/** The sale each quote is weighed against: the first variant's price and the store fee on it. */
export type QuotedSale = { price: number; fee: TStoreFee; storeLabel: string };

/** What the sale leaves at this printer, by the price editor's and Orders' one formula; prices are in USD. */
function quoteProfit(sale: QuotedSale, q: { currency: string; products: string; shipping: string }): string {
  if (q.currency !== 'USD') return `Not compared (quoted in ${q.currency})`;
  return money(variantEconomics(sale.price, Number(q.products), sale.fee, Number(q.shipping)).profit);
}

/**
 * 'Compare printers': one unit of the product's first variant quoted by every connected printer for a buyer's
 * country, with each printer's own cost, shipping and delivery time; a printer that cannot make or quote it says why.
 */
export function PrinterQuotes({ productId, sale }: { productId: string; sale: QuotedSale }) {
  const [country, setCountry] = useState('US');
  const [asked, setAsked] = useState<string | null>(null);
  const { data, isFetching, error } = useProductQuotes(productId, asked);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAsked(country.trim().toUpperCase());
  };
  return (
    <section aria-label="Compare printers" className="space-y-3">
      <form className="flex items-end gap-2" onSubmit={submit}>
        <label className="block text-sm">
          <span className="text-slate-700">Buyer's country</span>
          <input
            className={`${inputClass} w-24`}
            value={country}
            maxLength={2}
            onChange={(e) => setCountry(e.target.value)}
            aria-describedby="quotes-country-hint"
          />
        </label>
        <Button type="submit" variant="outline" disabled={isFetching || !/^[A-Za-z]{2}$/.test(country.trim())}>
          {isFetching ? 'Asking printers...' : 'Compare printers'}
        </Button>
      </form>
      <p id="quotes-country-hint" className="text-xs text-slate-500">
        Two letters, e.g. US, GB, DE. Figures are each printer's own quote, in the currency it answers in. Profit is a
        sale at {money(sale.price)} less the printer's total and the estimated {sale.storeLabel} fee.
      </p>
      {isFetching && !data ? (
        <Skeleton className="h-16" />
      ) : error ? (
        <p role="alert" className="text-sm text-red-600">
          {error instanceof ApiError ? (error.serverMessage ?? error.message) : 'The printers could not be asked.'}
        </p>
      ) : data ? (
        <table className="w-full text-left text-sm" data-testid="printer-quotes">
          <thead className="border-b border-slate-200 text-slate-500">
            <tr>
              <th className="py-1.5 font-medium">Printer</th>
              <th className="py-1.5 font-medium">Product</th>
              <th className="py-1.5 font-medium">Shipping</th>
              <th className="py-1.5 font-medium">Total</th>
              <th className="py-1.5 font-medium">Profit</th>
              <th className="py-1.5 font-medium">Delivery</th>
            </tr>
          </thead>
          <tbody>
            {data.quotes.map((q) =>
              q.ok ? (
                <tr key={q.provider} className="border-b border-slate-100">
                  <td className="py-1.5">{q.name}</td>
                  <td className="py-1.5">
                    {q.products} {q.currency}
                  </td>
                  <td className="py-1.5">
                    {q.shipping} {q.currency}
                  </td>
                  <td className="py-1.5 font-medium">
                    {q.total} {q.currency}
                  </td>
                  <td className="py-1.5" data-testid="quote-profit">
                    {quoteProfit(sale, q)}
                  </td>
                  <td className="py-1.5">
                    {q.maxDeliveryDays === null ? 'Not given' : `${q.minDeliveryDays}–${q.maxDeliveryDays} days`}
                  </td>
                </tr>
              ) : (
                <tr key={q.provider} className="border-b border-slate-100">
                  <td className="py-1.5">{q.name}</td>
                  <td className="py-1.5 text-slate-500" colSpan={5}>
                    {q.reason}
                  </td>
                </tr>
              ),
            )}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
