import { type TWorkspaceSettings, ZWorkspaceSettings } from '@podforge/contract';
import { platformLabel } from '@podforge/contract/plain';
import { Loader2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useWorkspaceSettings } from '@/api/settings/get-settings';
import { useUpdateSettings } from '@/api/settings/update-settings';
import { Button } from '@/components/ui/button';
import { inputClass } from '@/components/ui/input';
import { ApiError } from '@/lib/api-client';
import { cn } from '@/lib/utils';

const PLATFORMS = ['shopify', 'etsy', 'woocommerce', 'amazon'] as const;
type Platform = (typeof PLATFORMS)[number];
type FormValues = { targetMargin: string; fees: Record<Platform, { percent: string; fixed: string }> };

const toForm = (s: TWorkspaceSettings): FormValues => ({
  targetMargin: String(s.targetMargin),
  fees: Object.fromEntries(
    PLATFORMS.map((p) => [p, { percent: String(s.storeFees[p].percent), fixed: s.storeFees[p].fixed.toFixed(2) }]),
  ) as FormValues['fees'],
});

/** The workspace's pricing settings: the margin the pricing editor warns below, and each store's estimated fee. */
export function PricingSettings({ enabled = true }: { enabled?: boolean }) {
  const query = useWorkspaceSettings(enabled);
  if (query.isPending)
    return (
      <p className="mt-1 flex items-center gap-2 text-slate-500">
        <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" /> Loading…
      </p>
    );
  if (query.isError)
    return (
      <div className="mt-1 space-y-2" role="alert">
        <p className="text-red-600">Your pricing settings could not be loaded: {query.error.message}</p>
        <Button variant="outline" size="sm" onClick={() => query.refetch()}>
          Retry
        </Button>
      </div>
    );
  // The form starts from what was read; after a save it already shows what was saved.
  return <PricingSettingsForm settings={query.data} />;
}

function PricingSettingsForm({ settings }: { settings: TWorkspaceSettings }) {
  const [form, setForm] = useState(() => toForm(settings));
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const update = useUpdateSettings();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    const num = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));
    const candidate = {
      targetMargin: num(form.targetMargin),
      storeFees: Object.fromEntries(
        PLATFORMS.map((p) => [p, { percent: num(form.fees[p].percent), fixed: num(form.fees[p].fixed) }]),
      ),
    };
    const parsed = ZWorkspaceSettings.pick({ targetMargin: true, storeFees: true }).safeParse(candidate);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const [first, platform, part] = issue?.path ?? [];
      const where =
        first === 'targetMargin'
          ? 'Target margin'
          : `${platformLabel(String(platform))} ${part === 'fixed' ? 'fixed fee' : 'fee %'}`;
      const limits = first === 'targetMargin' ? 'from 0 to 90' : part === 'fixed' ? 'from 0 to 10.00' : 'from 0 to 50';
      setError(`${where} must be a number ${limits}.`);
      return;
    }
    setError(null);
    update.mutate(parsed.data, {
      onSuccess: () => setSaved(true),
      onError: (err) =>
        setError(`Could not save: ${err instanceof ApiError ? (err.serverMessage ?? err.message) : err.message}`),
    });
  };

  const small = cn(inputClass, 'px-2 py-1');
  return (
    <form className="mt-2 space-y-3" onSubmit={submit} noValidate aria-label="Pricing settings">
      <label className="flex items-center justify-between gap-3">
        <span>Target margin (%)</span>
        <input
          className={cn(small, 'w-20')}
          inputMode="decimal"
          value={form.targetMargin}
          onChange={(e) => setForm((f) => ({ ...f, targetMargin: e.target.value }))}
        />
      </label>
      <table className="w-full text-left">
        <caption className="pb-1 text-left text-xs text-slate-500">Estimated store fee per sale</caption>
        <thead className="text-xs text-slate-500">
          <tr>
            <th className="font-medium">Store</th>
            <th className="font-medium">Fee %</th>
            <th className="font-medium">Fixed ($)</th>
          </tr>
        </thead>
        <tbody>
          {PLATFORMS.map((p) => (
            <tr key={p}>
              <th scope="row" className="py-1 pr-2 font-normal">
                {platformLabel(p)}
              </th>
              <td className="py-1 pr-2">
                <input
                  className={small}
                  inputMode="decimal"
                  aria-label={`${platformLabel(p)} fee %`}
                  value={form.fees[p].percent}
                  onChange={(e) =>
                    setForm((f) => ({ ...f, fees: { ...f.fees, [p]: { ...f.fees[p], percent: e.target.value } } }))
                  }
                />
              </td>
              <td className="py-1">
                <input
                  className={small}
                  inputMode="decimal"
                  aria-label={`${platformLabel(p)} fixed fee`}
                  value={form.fees[p].fixed}
                  onChange={(e) =>
                    setForm((f) => ({ ...f, fees: { ...f.fees, [p]: { ...f.fees[p], fixed: e.target.value } } }))
                  }
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {error && (
        <p className="text-red-600" role="alert">
          {error}
        </p>
      )}
      <div className="flex items-center gap-3">
        <Button type="submit" size="sm" disabled={update.isPending}>
          {update.isPending ? 'Saving...' : 'Save pricing'}
        </Button>
        {saved && (
          <span className="text-emerald-700" role="status">
            Saved.
          </span>
        )}
      </div>
    </form>
  );
}
