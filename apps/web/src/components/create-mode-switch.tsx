import { Link } from 'react-router';
import { cn } from '@/lib/utils';

const MODES = [
  { id: 'quick', label: 'Quick create', hint: 'Four steps from your design', to: '/create-product' },
  { id: 'wizard', label: 'Guided wizard', hint: 'Five steps from a catalogue product', to: '/create' },
] as const;

/**
 * Create Product's two ways in: the quick four-step flow and the guided five-step wizard. A catalogue product picked
 * in one (from the Product Picker) goes along to the other, so both print on the same blank.
 */
export function CreateModeSwitch({
  active,
  picked,
}: {
  active: (typeof MODES)[number]['id'];
  picked?: { product: number; category: number | null } | null;
}) {
  const query = picked
    ? `?product=${picked.product}${picked.category !== null ? `&category=${picked.category}` : ''}`
    : '';
  return (
    <nav aria-label="Ways to create a product" className="inline-flex flex-wrap gap-1 rounded-lg bg-slate-100 p-1">
      {MODES.map((mode) => (
        <Link
          key={mode.id}
          to={mode.id === active ? mode.to : `${mode.to}${query}`}
          title={mode.hint}
          aria-current={mode.id === active ? 'page' : undefined}
          className={cn(
            'rounded-md px-3 py-1.5 text-sm font-medium',
            mode.id === active ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900',
          )}
        >
          {mode.label}
        </Link>
      ))}
    </nav>
  );
}
