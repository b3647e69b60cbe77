import type { TProduct } from '@podforge/contract';
import { platformLabel } from '@podforge/contract/plain';
import { AlertTriangle, CheckCircle2, Clock, ExternalLink, Loader2, X } from 'lucide-react';
import { useState } from 'react';
import { useRemoveFromStore } from '@/api/products/remove-from-store';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { toast } from '@/components/ui/use-toast';
import { failureReason } from './push-feedback';

type Copy = TProduct['storeCopies'][number];

const storeNameOf = (copy: Pick<Copy, 'storeName' | 'platform'>) => copy.storeName ?? platformLabel(copy.platform);

/**
 * Each store's copy of a product (#28): where it is live (with its link), which push is at work (or waits for the
 * store's spent request limit, until when), which failed; each
 * live copy can be taken out of its store on its own, the product staying here and in its other stores.
 */
export function StoreCopies({ product }: { product: Pick<TProduct, 'id' | 'title' | 'storeCopies'> }) {
  const [removing, setRemoving] = useState<Copy | null>(null);
  const shown = product.storeCopies.filter((c) => c.status !== 'pending' && c.status !== 'removed');
  // The dialog stays while its removal runs, also once the last copy has left the list.
  const dialog = removing && (
    <RemoveFromStoreDialog product={product} copy={removing} onClose={() => setRemoving(null)} />
  );
  if (shown.length === 0) return dialog || null;
  return (
    <>
      <ul className="flex flex-wrap gap-2" aria-label={`Stores of ${product.title}`}>
        {shown.map((copy) => {
          const name = storeNameOf(copy);
          return (
            <li
              key={copy.integrationId}
              className="inline-flex min-h-8 items-center gap-1.5 rounded-md border py-1 border-slate-200 bg-white px-2 text-sm"
              data-testid="store-copy"
            >
              {copy.status === 'published' ? (
                <CheckCircle2 className="h-4 w-4 text-blue-700" aria-hidden="true" />
              ) : copy.waiting ? (
                <Clock className="h-4 w-4 text-amber-700" aria-hidden="true" />
              ) : copy.status === 'processing' ? (
                <Loader2 className="h-4 w-4 animate-spin text-slate-500" aria-hidden="true" />
              ) : (
                <AlertTriangle className="h-4 w-4 text-red-600" aria-hidden="true" />
              )}
              <span className="font-medium text-slate-900">
                {copy.status === 'published'
                  ? 'Live on'
                  : copy.waiting
                    ? 'Going to'
                    : copy.status === 'processing'
                      ? 'Working on'
                      : 'Failed on'}{' '}
                {platformLabel(copy.platform)}
                {copy.storeName && copy.storeName !== platformLabel(copy.platform) ? ` · ${copy.storeName}` : ''}
              </span>
              {copy.waiting && <span className="text-xs text-amber-800">{copy.waiting}</span>}
              {copy.status === 'published' && copy.changesNotInStore && (
                <span className="text-xs text-amber-800">(out of date)</span>
              )}
              {copy.status === 'failed' && copy.error && <span className="sr-only">: {copy.error}</span>}
              {copy.url && (
                <a
                  href={copy.url}
                  target="_blank"
                  rel="noreferrer"
                  className="inline-flex items-center text-blue-700 hover:underline"
                  aria-label={`View ${product.title} in ${name}`}
                >
                  <ExternalLink className="h-4 w-4" aria-hidden="true" />
                </a>
              )}
              {copy.status === 'published' && (
                <button
                  type="button"
                  className="inline-flex items-center rounded text-slate-500 hover:text-red-700"
                  onClick={() => setRemoving(copy)}
                  aria-label={`Remove ${product.title} from ${name}`}
                >
                  <X className="h-4 w-4" aria-hidden="true" />
                </button>
              )}
            </li>
          );
        })}
      </ul>
      {dialog}
    </>
  );
}

function RemoveFromStoreDialog({
  product,
  copy,
  onClose,
}: {
  product: Pick<TProduct, 'id' | 'title'>;
  copy: Copy;
  onClose: () => void;
}) {
  const remove = useRemoveFromStore();
  const [removal, setRemoval] = useState<'archive' | 'delete'>('archive');
  const name = storeNameOf(copy);
  const confirm = () =>
    remove.mutate(
      { productId: product.id, integrationId: copy.integrationId, removal },
      {
        onSuccess: () => {
          onClose();
          toast({
            title: 'Removed from Store',
            description: `${product.title} was ${removal === 'archive' ? 'archived' : 'deleted'} in ${name}.`,
            variant: 'success',
          });
        },
      },
    );
  const reason = remove.isError ? (failureReason(remove.error) ?? remove.error.message) : null;
  return (
    <Dialog title={`Remove from ${name}?`} onClose={onClose}>
      <p className="text-sm text-slate-700">
        <strong>{product.title}</strong> leaves {name}. It stays in Podforge and in its other stores.
      </p>
      <fieldset className="mt-4 space-y-2 text-sm">
        <legend className="font-medium text-slate-900">In {name}:</legend>
        <label className="flex items-start gap-2">
          <input
            type="radio"
            name="removal"
            checked={removal === 'archive'}
            onChange={() => setRemoval('archive')}
            className="mt-1"
          />
          <span>
            <span className="font-medium">Archive it</span>
            <span className="block text-slate-500">Buyers no longer see it; the store keeps it.</span>
          </span>
        </label>
        <label className="flex items-start gap-2">
          <input
            type="radio"
            name="removal"
            checked={removal === 'delete'}
            onChange={() => setRemoval('delete')}
            className="mt-1"
          />
          <span>
            <span className="font-medium">Delete it</span>
            <span className="block text-slate-500">The store's listing is gone for good.</span>
          </span>
        </label>
      </fieldset>
      {reason && (
        <p role="alert" className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
          Could not remove it. {reason}
        </p>
      )}
      <div className="mt-5 flex justify-end gap-2">
        <Button variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button variant="destructive" onClick={confirm} disabled={remove.isPending}>
          {remove.isPending ? 'Removing...' : `Remove from ${name}`}
        </Button>
      </div>
    </Dialog>
  );
}
