import type { TProduct } from '@podforge/contract';
import { CheckCircle2, Loader2, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { useConnectedStores } from '@/api/integrations/get-integrations';
import { useUpdateInStore } from '@/api/products/update-in-store';
import { StoreSelect } from '@/components/stores/store-select';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { failureReason } from './push-feedback';

/**
 * A live product's place in its store: 'Changes not in store' after an edit, and 'Update in store', which updates
 * the same remote product (a live product is never uploaded a second time). `compact`: the row of My Products,
 * which says 'Store copy out of date' itself and needs only the button (and the store choice).
 */
export function StoreUpdate({
  product,
  compact = false,
}: {
  product: Pick<TProduct, 'id' | 'title' | 'changesNotInStore'>;
  compact?: boolean;
}) {
  const integrations = useConnectedStores();
  const { stores } = integrations;
  const [chosen, setChosen] = useState<string | null>(null);
  const storeId = chosen ?? stores[0]?.id ?? null;
  const store = stores.find((s) => s.id === storeId) ?? null;
  const updateInStore = useUpdateInStore();
  const [done, setDone] = useState<string | null>(null);

  if (!product.changesNotInStore)
    return (
      <p
        className="flex items-center gap-1.5 rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800"
        data-testid="store-in-sync"
      >
        <CheckCircle2 className="h-4 w-4" aria-hidden="true" />
        {done ?? 'Live: the store has every saved change.'}
      </p>
    );

  const onUpdate = () => {
    if (!store) return;
    setDone(null);
    updateInStore.mutate(
      { productId: product.id, integrationId: store.id },
      {
        onSuccess: () => {
          const text = `Updated in ${store.name}.`;
          setDone(text);
          toast({ title: 'Store Updated', description: `${product.title}: ${text}`, variant: 'success' });
        },
      },
    );
  };

  const reason = updateInStore.isError
    ? (failureReason(updateInStore.error) ?? 'The store did not answer. Please try again.')
    : null;

  return (
    <section
      className={compact ? 'space-y-2 text-sm' : 'space-y-3 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm'}
      aria-label={compact ? `Store copy of ${product.title}` : 'Store'}
      data-testid="store-update"
    >
      {!compact && (
        <>
          <p className="font-medium text-amber-900">Changes not in store</p>
          <p className="text-amber-900">
            This product is live and was edited since its last push: buyers still see the old version.
          </p>
        </>
      )}
      {integrations.isPending ? (
        <Loader2 className="h-4 w-4 animate-spin text-slate-400" aria-label="Loading stores" />
      ) : stores.length === 0 ? (
        <p className="text-amber-900">No connected store to update: reconnect it on the Integrations page.</p>
      ) : (
        <div className="flex flex-wrap items-end gap-2">
          {stores.length > 1 && <StoreSelect stores={stores} value={storeId ?? ''} onChange={setChosen} />}
          <Button
            onClick={onUpdate}
            disabled={!store || updateInStore.isPending}
            // In a row of My Products the name says whose store copy it updates.
            aria-label={compact ? `Update ${product.title} in store` : undefined}
          >
            {updateInStore.isPending ? <Loader2 className="animate-spin" /> : <RefreshCw />}
            {updateInStore.isPending ? 'Updating...' : 'Update in store'}
          </Button>
          {stores.length === 1 && store && <span className="text-amber-900">{store.name}</span>}
        </div>
      )}
      {reason && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-red-700">
          Could not update the store. {reason}
        </p>
      )}
    </section>
  );
}
