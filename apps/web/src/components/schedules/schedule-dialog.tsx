import type { TProduct } from '@podforge/contract';
import { Link } from 'react-router';
import { useConnectedStores } from '@/api/integrations/get-integrations';
import { Dialog } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { ScheduleUploadForm } from './schedule-upload-form';
import { ScheduledUploads } from './scheduled-uploads';

/**
 * Scheduling one product, from wherever it is listed: the form for its connected stores that do not have it yet (a
 * product live in one store may go to another, #28), and its schedules.
 */
export function ScheduleSection({
  product,
  now,
}: {
  product: Pick<TProduct, 'id' | 'status'> & Partial<Pick<TProduct, 'storeCopies'>>;
  now?: () => Date;
}) {
  const integrations = useConnectedStores();
  const holding = new Set(
    (product.storeCopies ?? [])
      .filter((c) => c.status === 'published' || c.status === 'processing')
      .map((c) => c.integrationId),
  );
  const stores = integrations.stores.filter((s) => !holding.has(s.id));
  const everywhere = integrations.stores.length > 0 && stores.length === 0;
  return (
    <div className="space-y-4" data-testid="schedule-section">
      {integrations.isPending ? (
        <Skeleton className="h-16 w-full" />
      ) : product.status === 'processing' ? (
        <p className="text-sm text-slate-500">This product is being pushed to a store right now.</p>
      ) : everywhere ? (
        <p className="text-sm text-slate-500">
          This product is live in every connected store: send changes there with Update in store.
        </p>
      ) : stores.length === 0 ? (
        <p className="text-sm text-slate-600">
          No Connected Stores. Connect your stores in the{' '}
          <Link to="/integrations" className="font-medium text-brand-700 underline">
            Integrations
          </Link>{' '}
          tab to upload products.
        </p>
      ) : (
        <ScheduleUploadForm productId={product.id} stores={stores} {...(now ? { now } : {})} />
      )}
      {/* Schedules show whatever the stores' state: a failed run stays visible after a store is disconnected. */}
      <ScheduledUploads productId={product.id} />
    </div>
  );
}

export function ScheduleDialog({ product, onClose }: { product: TProduct; onClose: () => void }) {
  return (
    <Dialog
      title="Schedule Upload"
      description={`Choose when “${product.title}” goes to a store.`}
      onClose={onClose}
      className="w-[min(44rem,calc(100vw-2rem))]"
    >
      <ScheduleSection product={product} />
    </Dialog>
  );
}
