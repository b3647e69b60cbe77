import type { TOrderConfirmation } from '@podforge/contract';
import { useEffect, useState } from 'react';
import { useWorkspaceSettings } from '@/api/settings/get-settings';
import { useUpdateSettings } from '@/api/settings/update-settings';
import { Button } from '@/components/ui/button';
import { inputClass } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { ApiError } from '@/lib/api-client';

const MODES: { value: TOrderConfirmation['mode']; label: string }[] = [
  { value: 'automatic', label: 'Automatically' },
  { value: 'manual', label: 'When I approve' },
  { value: 'delay', label: 'After a waiting time' },
];

/** The workspace's rule for sending orders to the printer (nothing is charged before), saved with PATCH /api/settings. */
export function ConfirmationSetting() {
  const { data, isError } = useWorkspaceSettings();
  const save = useUpdateSettings();
  const [mode, setMode] = useState<TOrderConfirmation['mode']>('delay');
  const [minutes, setMinutes] = useState('60');
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    if (!data) return;
    setMode(data.orderConfirmation.mode);
    setMinutes(String(data.orderConfirmation.delayMinutes));
  }, [data]);

  const delay = Number(minutes);
  const invalid = mode === 'delay' && !(Number.isInteger(delay) && delay >= 1 && delay <= 10080);
  const error = save.error instanceof ApiError ? (save.error.serverMessage ?? save.error.message) : null;

  if (isError) {
    return (
      <p role="alert" className="text-sm text-red-600">
        Your order settings could not be loaded.
      </p>
    );
  }
  return (
    <form
      className="flex flex-wrap items-end gap-3"
      aria-label="Order confirmation"
      onSubmit={(e) => {
        e.preventDefault();
        if (invalid) return;
        setSaved(false);
        save.mutate(
          {
            orderConfirmation: {
              mode,
              delayMinutes: mode === 'delay' ? delay : (data?.orderConfirmation.delayMinutes ?? 60),
            },
          },
          { onSuccess: () => setSaved(true) },
        );
      }}
    >
      <label className="text-sm">
        <span className="mb-1 block font-medium">Send orders to the printer</span>
        <NativeSelect
          value={mode}
          onChange={(e) => setMode(e.target.value as TOrderConfirmation['mode'])}
          disabled={!data}
        >
          {MODES.map((m) => (
            <option key={m.value} value={m.value}>
              {m.label}
            </option>
          ))}
        </NativeSelect>
      </label>
      {mode === 'delay' && (
        <label className="text-sm">
          <span className="mb-1 block font-medium">Waiting time (minutes)</span>
          <input
            type="number"
            min={1}
            max={10080}
            className={`${inputClass} w-28`}
            value={minutes}
            aria-invalid={invalid}
            onChange={(e) => setMinutes(e.target.value)}
          />
        </label>
      )}
      <Button type="submit" variant="outline" disabled={!data || invalid || save.isPending}>
        Save
      </Button>
      {invalid && <p className="w-full text-sm text-red-600">The waiting time must be 1 to 10080 minutes.</p>}
      {saved && !save.isPending && <p className="text-sm text-emerald-700">Saved.</p>}
      {error && (
        <p role="alert" className="w-full text-sm text-red-600">
          {error}
        </p>
      )}
    </form>
  );
}
