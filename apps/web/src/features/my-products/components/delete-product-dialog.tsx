import type { TProduct } from '@podforge/contract';
import { useDeleteProduct } from '@/api/products/delete-product';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api-client';

/** Deleting cannot be undone, so it asks first. */
export function DeleteProductDialog({ product, onClose }: { product: TProduct; onClose: () => void }) {
  const remove = useDeleteProduct();
  const confirm = () =>
    remove.mutate(product.id, {
      onSuccess: () => {
        onClose();
        toast({ title: 'Product Deleted', description: `${product.title} was deleted.` });
      },
    });
  const error =
    remove.error instanceof ApiError ? (remove.error.serverMessage ?? remove.error.message) : remove.error?.message;
  return (
    <Dialog title="Delete product?" onClose={onClose}>
      <p className="text-sm text-slate-700">
        <strong>{product.title}</strong> will be deleted. This cannot be undone.
      </p>
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
