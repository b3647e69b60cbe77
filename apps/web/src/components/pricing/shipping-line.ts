import { FULFILMENT_NETWORKS, type TFulfilmentNetwork } from '@podforge/contract/plain';
import { useState } from 'react';
import { type QuotedBlank, useBlankQuote } from '@/api/printers/blank-quote';
import { ApiError } from '@/lib/api-client';

/**
 * The shipping the price editor subtracts: the printer's own quote for one item of the first priced variant to the
 * buyer's country (the order's printer charges the same for that sale), or why there is none.
 */
export type ShippingLine = {
  country: string;
  onCountryChange: (country: string) => void;
} & (
  | { state: 'quoted'; amount: number; currency: string; printer: string }
  | { state: 'pending' }
  | { state: 'unknown'; reason: string }
);

/** The blank a product's first catalogue variant is, at its printer network; null when it has none. */
export function quotedBlank(
  network: string | null | undefined,
  catalogProductId: number | null | undefined,
  catalogVariantIds: readonly (number | null | undefined)[],
): QuotedBlank | null {
  const variantId = catalogVariantIds.find((id): id is number => typeof id === 'number');
  const known = FULFILMENT_NETWORKS.find((n) => n === (network ?? 'printful'));
  if (!known || typeof catalogProductId !== 'number' || variantId === undefined) return null;
  return { network: known as TFulfilmentNetwork, catalogProductId, catalogVariantId: variantId };
}

/** `currency`: the catalogue's (base costs and prices); a quote in another is not subtracted (no rate is invented). */
export function useShippingLine(blank: QuotedBlank | null, currency?: string): ShippingLine {
  const [country, setCountry] = useState('US');
  const code = country.trim().toUpperCase();
  const quote = useBlankQuote(blank, code);
  const base = { country, onCountryChange: setCountry };
  if (!blank) return { ...base, state: 'unknown', reason: 'this product has no catalogue blank to quote' };
  if (!/^[A-Z]{2}$/.test(code)) return { ...base, state: 'unknown', reason: 'enter a two-letter country code' };
  if (quote.isPending) return { ...base, state: 'pending' };
  if (quote.isError) {
    const error = quote.error;
    return {
      ...base,
      state: 'unknown',
      reason: error instanceof ApiError ? (error.serverMessage ?? error.message) : error.message,
    };
  }
  const q = quote.data;
  if (!q.ok) return { ...base, state: 'unknown', reason: `${q.name}: ${q.reason}` };
  if (currency && q.currency !== currency) {
    return {
      ...base,
      state: 'unknown',
      reason: `${q.name} quotes shipping in ${q.currency}, prices are in ${currency}`,
    };
  }
  return { ...base, state: 'quoted', amount: Number(q.shipping), currency: q.currency, printer: q.name };
}
