import type { TIntegration } from '@podforge/contract';
import { platformLabel } from '@podforge/contract/plain';
import type * as React from 'react';

/**
 * The connected stores as checkboxes (name and platform), from which both create flows push a product: the simple
 * flow's Upload to Stores and the wizard's Pricing step. `children` are further list items (a note under the stores).
 */
export function StorePicker({
  stores,
  selected,
  onChange,
  children,
}: {
  stores: readonly TIntegration[];
  selected: readonly string[];
  onChange: (ids: string[]) => void;
  children?: React.ReactNode;
}) {
  const toggle = (id: string) => onChange(selected.includes(id) ? selected.filter((x) => x !== id) : [...selected, id]);
  return (
    <ul className="space-y-2">
      {stores.map((store) => (
        <li key={store.id}>
          <label className="flex items-center gap-3 rounded-lg border border-slate-200 p-3 text-sm hover:bg-slate-50">
            <input
              type="checkbox"
              className="h-4 w-4 accent-brand-600"
              checked={selected.includes(store.id)}
              onChange={() => toggle(store.id)}
            />
            <span className="font-medium">{store.name}</span>
            <span className="text-slate-500">{platformLabel(store.platform)}</span>
          </label>
        </li>
      ))}
      {children}
    </ul>
  );
}
