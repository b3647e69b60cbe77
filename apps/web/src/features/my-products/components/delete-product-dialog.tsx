import type { TDeleteProductStore, TProduct } from '@podforge/contract';
import { useState } from 'react';
import { useDeleteProduct } from '@/api/products/delete-product';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api-client';

const STORE_CHOICES: { value: TDeleteProductStore; label: string; hint: string }[] = [
  {
    value: 'archive',
    label: 'Archive it in the store',
    hint: 'Buyers no longer see it; you can bring it back in Shopify.',
  },
  { value: 'delete', label: 'Delete it from the store too', hint: 'The store listing is gone for good.' },
  { value: 'keep', label: 'Keep it in the store', hint: 'It stays on sale there; Podforge forgets it.' },
];

/**
 * Deleting cannot be undone, so it asks first. A live product is also in a store: the seller chooses whether its
 * listing is archived, deleted or kept there (`DELETE /api/products/:id?store=`).
 */
export function DeleteProductDialog({ product, onClose }: { product: TProduct; onClose: () => void }) {
  const remove = useDeleteProduct();
  const live = product.status === 'live';
  const [store, setStore] = useState<TDeleteProductStore>('archive');
  const confirm = () =>
    remove.mutate(live ? { id: product.id, store } : { id: product.id }, {
      onSuccess: () => {
        onClose();
        const where =
          live && store === 'archive'
            ? ' and archived in the store'
            : live && store === 'delete'
              ? ' here and in the store'
              : '';
        toast({ title: 'Product Deleted', description: `${product.title} was deleted${where}.` });
      },
    });
  const error =
    remove.error instanceof ApiError ? (remove.error.serverMessage ?? remove.error.message) : remove.error?.message;
  return (
    <Dialog title="Delete product?" onClose={onClose}>
      <p className="text-sm text-slate-700">
        <strong>{product.title}</strong> will be deleted. This cannot be undone.
      </p>
      {live && (
        <fieldset className="mt-4 space-y-2 text-sm">
          <legend className="font-medium text-slate-900">It is live in your store. In the store:</legend>
          {STORE_CHOICES.map((choice) => (
            <label key={choice.value} className="flex items-start gap-2">
              <input
                type="radio"
                name="store-choice"
                value={choice.value}
                checked={store === choice.value}
                onChange={() => setStore(choice.value)}
                className="mt-1"
              />
              <span>
                <span className="font-medium">{choice.label}</span>
                <span className="block text-slate-500">{choice.hint}</span>
              </span>
            </label>
          ))}
        </fieldset>
      )}
      {error && (
        <p role="alert" className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
          Could not delete the product. {error}
        </p>
      )}
      <div className="mt-5 flex justify-end gap-2">
        <Button variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button variant="destructive" onClick={confirm} disabled={remove.isPending}>
          {remove.isPending ? 'Deleting...' : 'Delete product'}
        </Button>
      </div>
    </Dialog>
  );
}
