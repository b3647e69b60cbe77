import { cn } from '@/lib/utils';
import { NativeSelect } from './native-select';

/** A plain text option (its label is its value) or a label shown for a different value. */
export type FilterOption = string | { value: string; label: string };

/** The filter look: inline and 40 px high, undoing NativeSelect's block, full width and py-2. */
const filterSelectClass =
  'inline-block h-10 w-auto rounded-md border border-slate-300 bg-white px-3 py-0 text-sm focus:outline-none focus:ring-2 focus:ring-brand-500';

/** A labelled native select for a list filter (the product picker's and My Products'). */
export function FilterSelect(props: {
  label: string;
  value: string;
  options: readonly FilterOption[];
  onChange: (value: string) => void;
  className?: string;
}) {
  return (
    <label className="flex items-center gap-2">
      <span className="sr-only">{props.label}</span>
      <NativeSelect
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        className={cn(filterSelectClass, props.className)}
        aria-label={props.label}
      >
        {props.options.map((option) => {
          const { value, label } = typeof option === 'string' ? { value: option, label: option } : option;
          return (
            <option key={value} value={value}>
              {label}
            </option>
          );
        })}
      </NativeSelect>
    </label>
  );
}
