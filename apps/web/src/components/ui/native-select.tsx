import * as React from 'react';
import { cn } from '@/lib/utils';

export type NativeSelectProps = React.SelectHTMLAttributes<HTMLSelectElement>;

/**
 * A styled native `<select>`: full width, block, with the app's field border. Keeps the browser's own picker and
 * accessibility (name it with a wrapping `<label>` or `aria-label`); `className` is merged, so later classes win.
 */
export const NativeSelect = React.forwardRef<HTMLSelectElement, NativeSelectProps>(({ className, ...props }, ref) => (
  <select
    ref={ref}
    className={cn('block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm', className)}
    {...props}
  />
));
NativeSelect.displayName = 'NativeSelect';
