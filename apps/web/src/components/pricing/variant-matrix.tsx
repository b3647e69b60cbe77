import { PRODUCT_VARIANTS_MAX } from '@podforge/contract/plain';
import { Check } from 'lucide-react';
import { useState } from 'react';
import { cn } from '@/lib/utils';
import { type CatalogVariant, catalogColors, catalogSizes, money } from '@/lib/variant-pricing';

type Props = {
  /** The catalogue product's colour x size variants. */
  variants: readonly CatalogVariant[];
  /** The catalogue variant ids the product offers. */
  enabledIds: readonly number[];
  onChange: (enabledIds: number[]) => void;
};

export const AT_LEAST_ONE_VARIANT = 'Keep at least one variant: a product needs something to sell.';
export const TOO_MANY_VARIANTS = `A product can have at most ${PRODUCT_VARIANTS_MAX} variants.`;

/** A colour's swatch: its catalogue hex, outlined so white shows on white. */
export function Swatch({ hex, className }: { hex: string | null | undefined; className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={cn('inline-block h-4 w-4 shrink-0 rounded-full border border-slate-300', className)}
      style={{ backgroundColor: hex ?? 'transparent' }}
    />
  );
}

/**
 * The catalogue product's colours (rows) by sizes (columns): each cell a catalogue variant, with its base cost,
 * toggled on or off; a row's or column's header toggles all of it. At least one variant stays enabled.
 */
export function VariantMatrix({ variants, enabledIds, onChange }: Props) {
  const [message, setMessage] = useState<string | null>(null);
  const colors = catalogColors(variants);
  const sizes = catalogSizes(variants);
  const enabled = new Set(enabledIds);
  const byKey = new Map(variants.map((v) => [`${v.color}\u0000${v.size}`, v]));
  const cell = (color: string, size: string) => byKey.get(`${color}\u0000${size}`);

  const apply = (next: Set<number>) => {
    if (next.size === 0) return setMessage(AT_LEAST_ONE_VARIANT);
    if (next.size > PRODUCT_VARIANTS_MAX) return setMessage(TOO_MANY_VARIANTS);
    setMessage(null);
    // Catalogue order, so the list and what is sent do not depend on the order of the clicks.
    onChange(variants.filter((v) => next.has(v.id)).map((v) => v.id));
  };
  const toggleAll = (group: CatalogVariant[]) => {
    const next = new Set(enabled);
    const allOn = group.every((v) => enabled.has(v.id));
    for (const v of group) {
      if (allOn) next.delete(v.id);
      else next.add(v.id);
    }
    apply(next);
  };
  const toggle = (v: CatalogVariant) => {
    const next = new Set(enabled);
    if (next.has(v.id)) next.delete(v.id);
    else next.add(v.id);
    apply(next);
  };

  return (
    <div className="space-y-2">
      <div className="overflow-x-auto">
        <table className="w-full border-separate border-spacing-1 text-sm" aria-label="Colours and sizes">
          <thead>
            <tr>
              <th scope="col" className="text-left font-medium text-slate-500">
                Colour
              </th>
              {sizes.map((size) => {
                const column = variants.filter((v) => v.size === size);
                const allOn = column.every((v) => enabled.has(v.id));
                return (
                  <th key={size} scope="col" className="min-w-16">
                    <button
                      type="button"
                      aria-pressed={allOn}
                      aria-label={`All ${size}`}
                      onClick={() => toggleAll(column)}
                      className={cn(
                        'w-full rounded px-2 py-1 font-medium',
                        allOn ? 'bg-brand-100 text-brand-800' : 'text-slate-600 hover:bg-slate-100',
                      )}
                    >
                      {size}
                    </button>
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {colors.map((color) => {
              const row = variants.filter((v) => v.color === color.name);
              const allOn = row.every((v) => enabled.has(v.id));
              return (
                <tr key={color.name}>
                  <th scope="row" className="text-left font-normal">
                    <button
                      type="button"
                      aria-pressed={allOn}
                      aria-label={`All ${color.name}`}
                      onClick={() => toggleAll(row)}
                      className={cn(
                        'flex w-full min-w-28 items-center gap-2 rounded px-2 py-1 text-left',
                        allOn ? 'bg-brand-100 text-brand-800' : 'hover:bg-slate-100',
                      )}
                    >
                      <Swatch hex={color.hex} />
                      <span>{color.name}</span>
                    </button>
                  </th>
                  {sizes.map((size) => {
                    const v = cell(color.name, size);
                    if (!v)
                      return (
                        <td key={size} className="text-center text-slate-300" title="Not made in this colour">
                          —
                        </td>
                      );
                    const on = enabled.has(v.id);
                    return (
                      <td key={size}>
                        <button
                          type="button"
                          aria-pressed={on}
                          aria-label={`${color.name} / ${size}`}
                          data-testid="matrix-cell"
                          onClick={() => toggle(v)}
                          className={cn(
                            'flex w-full flex-col items-center rounded border px-1 py-1 text-xs tabular-nums',
                            on
                              ? 'border-brand-600 bg-brand-50 text-brand-900'
                              : 'border-slate-200 text-slate-500 hover:bg-slate-50',
                          )}
                        >
                          {on ? <Check className="h-3 w-3" aria-hidden="true" /> : <span className="h-3" />}
                          {money(v.baseCost)}
                        </button>
                      </td>
                    );
                  })}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <p className="text-xs text-slate-500" data-testid="matrix-summary">
        {enabled.size} of {variants.length} variants enabled · each cell shows the base cost
      </p>
      {message && (
        <p className="text-sm text-red-600" role="alert">
          {message}
        </p>
      )}
    </div>
  );
}
