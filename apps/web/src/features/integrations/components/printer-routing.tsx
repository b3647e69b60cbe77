import type { TRoutingRule } from '@podforge/contract';
import { PRINTER_LABELS, PRINTER_PROVIDERS, ROUTING_MODES } from '@podforge/contract/plain';
import { Card } from '@/components/ui/card';
import { NativeSelect } from '@/components/ui/native-select';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api-client';
import { useRoutingRule, useSetRoutingRule } from '../api/gelato';

const LABELS: Record<TRoutingRule['mode'], string> = {
  first: 'The first connected printer',
  fixed: 'Always one printer',
  cheapest: 'The cheapest to the buyer’s country',
  fastest: 'The fastest to the buyer’s country',
};

/** Which printer takes each order: the workspace's routing rule (quotes from each printer decide cheapest/fastest). */
export function PrinterRouting() {
  const { data: rule } = useRoutingRule();
  const save = useSetRoutingRule();
  const set = (next: TRoutingRule) =>
    save.mutate(next, {
      onSuccess: () => toast({ title: 'Routing Saved', description: LABELS[next.mode], variant: 'success' }),
      onError: (error) =>
        toast({
          title: 'Routing Not Saved',
          description: error instanceof ApiError ? (error.serverMessage ?? error.message) : 'Please try again.',
          variant: 'destructive',
        }),
    });
  return (
    <Card className="mt-4 space-y-3 p-5" data-testid="printer-routing">
      <div>
        <h3 className="font-semibold">Order routing</h3>
        <p className="text-sm text-slate-500">
          Which connected printer prints each order. Cheapest and fastest compare the printers' own quotes for the same
          blank; each order shows the printer chosen and why.
        </p>
      </div>
      <div className="grid gap-3 md:grid-cols-2">
        <label className="block text-sm">
          <span className="text-slate-700">Send each order to</span>
          <NativeSelect
            aria-label="Send each order to"
            value={rule?.mode ?? 'first'}
            disabled={!rule || save.isPending}
            onChange={(e) => {
              const mode = e.target.value as TRoutingRule['mode'];
              set({ mode, provider: mode === 'fixed' ? (rule?.provider ?? 'printful') : null });
            }}
          >
            {ROUTING_MODES.map((m) => (
              <option key={m} value={m}>
                {LABELS[m]}
              </option>
            ))}
          </NativeSelect>
        </label>
        {rule?.mode === 'fixed' && (
          <label className="block text-sm">
            <span className="text-slate-700">Printer</span>
            <NativeSelect
              aria-label="Printer"
              value={rule.provider ?? 'printful'}
              disabled={save.isPending}
              onChange={(e) => set({ mode: 'fixed', provider: e.target.value })}
            >
              {PRINTER_PROVIDERS.map((id) => (
                <option key={id} value={id}>
                  {PRINTER_LABELS[id]}
                </option>
              ))}
            </NativeSelect>
          </label>
        )}
      </div>
    </Card>
  );
}
