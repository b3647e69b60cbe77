import type { TStoreFee } from '@podforge/contract';
import { priceForMargin, priceProblem, variantEconomics } from '@podforge/contract/plain';
import { AlertTriangle } from 'lucide-react';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { inputClass } from '@/components/ui/input';
import { cn } from '@/lib/utils';
import { money, parsePriceText } from '@/lib/variant-pricing';
import type { ShippingLine } from './shipping-line';
import { Swatch } from './variant-matrix';

export type PricingRow = {
  /** Stable key: the catalogue variant id, or the option name of a free-text variant. */
  id: string;
  label: string;
  colorHex?: string | null;
  /** What making it costs; null when unknown (an older free-text variant): profit and margin cannot be shown. */
  baseCost: number | null;
  price: number;
};

type Props = {
  rows: readonly PricingRow[];
  onPriceChange: (id: string, price: number) => void;
  /** Every price at once ('Set prices from margin'). */
  onPricesChange: (prices: Record<string, number>) => void;
  fee: TStoreFee;
  /** The store the fee is estimated for ('Shopify'). */
  platformLabel: string;
  /** The workspace's target margin (percent): rows below it are warned about. */
  targetMargin: number;
  /** The printer's shipping as quoted (`useShippingLine`): subtracted from every row's profit, as an order is. */
  shipping: ShippingLine;
};

const percent = (n: number) => `${n.toFixed(1)}%`;

/**
 * Per enabled variant: base cost, the printer's shipping (as quoted), price, the store's estimated fee, profit and
 * margin after all three (the contract's `variantEconomics`, the formula an order's profit is counted by); a warning
 * below the workspace's target margin and the server's refusals (price 0, below base cost) before they happen. One
 * action prices every variant from a margin, rounded up to .99.
 */
export function PricingEditor({
  rows,
  onPriceChange,
  onPricesChange,
  fee,
  platformLabel,
  targetMargin,
  shipping,
}: Props) {
  const [marginText, setMarginText] = useState(String(targetMargin));
  const [marginError, setMarginError] = useState<string | null>(null);
  const id = useId();
  const shippingAmount = shipping.state === 'quoted' ? shipping.amount : null;

  const setFromMargin = () => {
    const margin = Number(marginText);
    if (!marginText.trim() || !Number.isFinite(margin) || margin < 0 || margin >= 100) {
      setMarginError('Enter a margin from 0 to 99 percent.');
      return;
    }
    if (shippingAmount === null) {
      setMarginError('Prices from a margin need the shipping quote first (see Shipping above).');
      return;
    }
    const prices: Record<string, number> = {};
    try {
      for (const row of rows) {
        if (row.baseCost !== null) prices[row.id] = priceForMargin(row.baseCost + shippingAmount, margin, fee);
      }
    } catch {
      setMarginError(`A ${margin}% margin and the ${platformLabel} fee of ${fee.percent}% leave nothing of the price.`);
      return;
    }
    setMarginError(null);
    onPricesChange(prices);
  };

  return (
    <div className="space-y-4">
      <p className="text-xs text-slate-500">
        Estimated {platformLabel} fee per sale: {fee.percent}% + {money(fee.fixed)}. Target margin {targetMargin}%
        (workspace settings).
      </p>
      <ShippingNote shipping={shipping} />
      <div
        className={cn(
          'hidden gap-3 border-b border-slate-200 pb-1 text-xs font-medium text-slate-500 sm:grid',
          GRID_COLUMNS,
        )}
        aria-hidden="true"
      >
        <span>Variant</span>
        <span>Base cost</span>
        <span>Shipping</span>
        <span>Price</span>
        <span>Store fee</span>
        <span>Profit</span>
        <span>Margin</span>
      </div>
      <ul className="space-y-3 sm:space-y-1" aria-label="Variant prices">
        {rows.map((row) => (
          <PricingRowView
            key={row.id}
            row={row}
            fee={fee}
            shipping={shippingAmount}
            targetMargin={targetMargin}
            onPrice={(price) => onPriceChange(row.id, price)}
          />
        ))}
      </ul>
      {/* Not a <form>: the editor sits inside forms (Edit Product), and forms must not nest. */}
      <fieldset
        className="flex flex-wrap items-end gap-3 rounded-lg bg-slate-50 p-3"
        aria-label="Set prices from margin"
      >
        <label className="block space-y-1 text-sm font-medium" htmlFor={`${id}-margin`}>
          <span>Margin (%)</span>
          <input
            id={`${id}-margin`}
            className={cn(inputClass, 'w-24')}
            inputMode="decimal"
            value={marginText}
            onChange={(e) => setMarginText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key !== 'Enter') return;
              e.preventDefault();
              setFromMargin();
            }}
          />
        </label>
        <Button variant="outline" onClick={setFromMargin}>
          Set prices from margin
        </Button>
        <p className="basis-full text-xs text-slate-500">
          Every price becomes the lowest that keeps this margin after the base cost, the shipping and the{' '}
          {platformLabel} fee, rounded up to .99.
        </p>
        {marginError && (
          <p className="basis-full text-sm text-red-600" role="alert">
            {marginError}
          </p>
        )}
      </fieldset>
    </div>
  );
}

const GRID_COLUMNS = 'sm:grid-cols-[minmax(7rem,1.6fr)_repeat(6,minmax(0,1fr))]';

/** Where the shipping comes from (printer, one item, country), with the country to quote for; or why it is missing. */
function ShippingNote({ shipping }: { shipping: ShippingLine }) {
  const id = useId();
  return (
    <div className="flex flex-wrap items-center gap-2 text-xs text-slate-500" data-testid="shipping-note">
      <label htmlFor={id}>Shipping to</label>
      <input
        id={id}
        className={cn(inputClass, 'w-14 px-2 py-1 uppercase')}
        maxLength={2}
        value={shipping.country}
        onChange={(e) => shipping.onCountryChange(e.target.value)}
      />
      {shipping.state === 'quoted' ? (
        <span>
          {money(shipping.amount)} for one item, {shipping.printer}'s quote: subtracted from each profit, as an order's
          printer bill is.
        </span>
      ) : shipping.state === 'pending' ? (
        <span>Asking the printer for shipping…</span>
      ) : (
        <span className="text-amber-700" role="status">
          No shipping quote ({shipping.reason}): profit and margin wait for it.
        </span>
      )}
    </div>
  );
}

function PricingRowView({
  row,
  fee,
  shipping,
  targetMargin,
  onPrice,
}: {
  row: PricingRow;
  fee: TStoreFee;
  /** The quoted shipping of one item; null while unknown (profit and margin are not promised without it). */
  shipping: number | null;
  targetMargin: number;
  onPrice: (price: number) => void;
}) {
  const economics = variantEconomics(row.price, row.baseCost ?? 0, fee, shipping ?? 0);
  const problem = priceProblem(row.price, row.baseCost);
  const known = row.baseCost !== null && shipping !== null;
  const lowMargin = !problem && known && economics.margin < targetMargin;
  return (
    <li
      className={cn(
        'grid grid-cols-2 items-center gap-x-3 gap-y-1 rounded-lg border border-slate-200 p-3 sm:rounded-none sm:border-0 sm:border-b sm:border-slate-100 sm:px-0 sm:py-2',
        GRID_COLUMNS,
      )}
      data-testid="pricing-row"
    >
      <span className="col-span-2 flex min-w-0 items-center gap-2 font-medium sm:col-span-1">
        {row.colorHex !== undefined && <Swatch hex={row.colorHex} />}
        <span className="break-words">{row.label}</span>
      </span>
      <Cell label="Base cost">
        <span data-testid="base-cost">{row.baseCost === null ? '—' : money(row.baseCost)}</span>
      </Cell>
      <Cell label="Shipping">
        <span data-testid="shipping">{shipping === null ? '—' : money(shipping)}</span>
      </Cell>
      <Cell label="Price">
        <PriceInput label={`Price of ${row.label}`} value={row.price} invalid={problem !== null} onChange={onPrice} />
      </Cell>
      <Cell label="Store fee">
        <span data-testid="store-fee">{money(economics.fee)}</span>
      </Cell>
      <Cell label="Profit">
        <span data-testid="profit" className={cn(known && economics.profit < 0 && 'text-red-600')}>
          {known ? money(economics.profit) : '—'}
        </span>
      </Cell>
      <Cell label="Margin">
        <span data-testid="margin" className={cn(lowMargin && 'text-amber-700', problem && 'text-red-600')}>
          {known ? percent(economics.margin) : '—'}
        </span>
      </Cell>
      {problem ? (
        <p className="col-span-2 text-sm text-red-600 sm:col-span-7" data-testid="price-problem">
          Price {problem}: stores would refuse it.
        </p>
      ) : lowMargin ? (
        <p
          className="col-span-2 flex items-center gap-1 text-sm text-amber-700 sm:col-span-7"
          data-testid="margin-warning"
        >
          <AlertTriangle className="h-4 w-4 shrink-0" aria-hidden="true" /> Below your {targetMargin}% target margin.
        </p>
      ) : null}
    </li>
  );
}

function Cell({ label, children }: { label: string; children: ReactNode }) {
  return (
    <span className="flex min-w-0 flex-col text-sm tabular-nums">
      <span className="text-xs text-slate-500 sm:hidden">{label}</span>
      {children}
    </span>
  );
}

/** A price field: what is typed stays as typed; a new value from outside (Set prices from margin) replaces it. */
export function PriceInput({
  label,
  value,
  invalid,
  onChange,
}: {
  label: string;
  value: number;
  invalid?: boolean;
  onChange: (price: number) => void;
}) {
  const [text, setText] = useState(value.toFixed(2));
  useEffect(() => {
    setText((current) => (parsePriceText(current) === value ? current : value.toFixed(2)));
  }, [value]);
  return (
    <input
      className={cn(inputClass, 'min-w-0 px-2 py-1 tabular-nums')}
      aria-label={label}
      aria-invalid={invalid || undefined}
      inputMode="decimal"
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        onChange(parsePriceText(e.target.value));
      }}
      onBlur={() => setText(parsePriceText(text).toFixed(2))}
    />
  );
}
