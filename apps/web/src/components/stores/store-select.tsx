import type { TIntegration } from '@podforge/contract';
import { platformLabel } from '@podforge/contract/plain';
import { useId } from 'react';
import { NativeSelect } from '@/components/ui/native-select';
import { cn } from '@/lib/utils';

/** 'Store': one of the connected stores, named with its platform (the schedule form, Update in store). */
export function StoreSelect({
  stores,
  value,
  onChange,
  className,
}: {
  stores: readonly TIntegration[];
  value: string;
  onChange: (storeId: string) => void;
  className?: string;
}) {
  const id = useId();
  return (
    <label className={cn('block space-y-1 font-medium', className)} htmlFor={id}>
      <span>Store</span>
      <NativeSelect id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        {stores.map((s) => (
          <option key={s.id} value={s.id}>
            {s.name} ({platformLabel(s.platform)})
          </option>
        ))}
      </NativeSelect>
    </label>
  );
}
