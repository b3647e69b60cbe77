import type { TProduct } from '@podforge/contract';
import { platformLabel } from '@podforge/contract/plain';
import {
  AlertTriangle,
  CalendarClock,
  CheckCircle2,
  Copy,
  ExternalLink,
  Eye,
  Loader2,
  Pencil,
  Trash2,
  Upload,
} from 'lucide-react';
import { lazy, Suspense, useRef, useState } from 'react';
import { useConnectedStores } from '@/api/integrations/get-integrations';
import { useDuplicateProduct } from '@/api/products/duplicate-product';
import { useNextSchedule } from '@/api/products/get-upcoming-schedules';
import { useUploadProduct } from '@/api/products/upload-product';
import { Button } from '@/components/ui/button';
import { StatusBadge } from '@/components/ui/status-badge';
import { toast } from '@/components/ui/use-toast';
import { formatDate, formatPrice, formatVariantCount, productTypeLabel } from '../product-format';
import { AmazonListingState } from './amazon-listing-state';
import { ProductThumbnail } from './product-thumbnail';
import { failureReason, twoLines } from './push-feedback';
import { StoreCopies } from './store-copies';
import { StoreUpdate } from './store-update';

// Scheduling's dialog loads when it is first opened.
const ScheduleDialog = lazy(async () => ({
  default: (await import('@/components/schedules/schedule-dialog')).ScheduleDialog,
}));

type Props = {
  product: TProduct;
  onEdit: (product: TProduct) => void;
  onPreview: (product: TProduct) => void;
  onDelete: (product: TProduct) => void;
};

/**
 * One product: picture, title, price, variants, date, status and its actions. Each store's copy shows on its own
 * (live with its link, at work, failed; removable one by one); an Upload button for each connected store that does
 * not have the product yet, live elsewhere or not (#28); a processing product is blocked ('Processing...').
 */
export function ProductRow({ product, onEdit, onPreview, onDelete }: Props) {
  const upload = useUploadProduct();
  const duplicate = useDuplicateProduct();
  const [scheduling, setScheduling] = useState(false);
  const next = useNextSchedule(product.id).data ?? null;
  // Upload buttons only for a connected store that does not have the product yet: a click could only fail otherwise.
  const connected = useConnectedStores();
  const holding = new Set(
    product.storeCopies
      .filter((c) => c.status === 'published' || c.status === 'processing')
      .map((c) => c.integrationId),
  );
  const targets = connected.stores.filter((s) => !holding.has(s.id));
  const sameMany = (platform: string) => connected.stores.filter((s) => s.platform === platform).length > 1;
  const title = product.title;

  // A double click sends two clicks before the button re-renders disabled or the row shows the store's copy: the
  // second must not be sent (its 409 'already live' would replace the success with 'Upload Failed'). After a
  // success that store stays guarded (it has the product now); after a failure the seller may retry.
  const pushed = useRef(new Set<string>());
  const [clicked, setClicked] = useState<string | null>(null);
  const uploadTo = (store: { id: string; platform: string; name: string }) => {
    if (upload.isPending || pushed.current.has(store.id)) return;
    pushed.current.add(store.id);
    setClicked(store.id);
    const name = sameMany(store.platform) ? store.name : platformLabel(store.platform);
    upload.mutate(
      // One store of the platform: the spec's empty body (the server picks it); several: the one clicked.
      {
        platform: store.platform,
        productId: product.id,
        ...(sameMany(store.platform) ? { integrationId: store.id } : {}),
      },
      {
        onSuccess: (result) => {
          if (result.waiting) {
            // Not failed: the push waits for the store's spent request limit and resumes by itself.
            toast({
              title: 'Upload Waiting',
              description: twoLines(`${product.title} goes to ${name} later.`, result.waiting),
            });
            return;
          }
          toast({
            title: 'Upload Successful',
            description: `${product.title} was uploaded to ${name}.`,
            variant: 'success',
          });
        },
        onError: (error) => {
          pushed.current.delete(store.id);
          toast({
            title: 'Upload Failed',
            description: twoLines(`Failed to upload product to ${name}. Please try again.`, failureReason(error)),
            variant: 'destructive',
          });
        },
      },
    );
  };

  const duplicateIt = () =>
    duplicate.mutate(product.id, {
      onSuccess: (copy) =>
        toast({
          title: 'Product Duplicated',
          description: `${copy.title} was added to your products.`,
          variant: 'success',
        }),
      onError: (error) =>
        toast({
          title: 'Duplicate Failed',
          description: twoLines('Failed to duplicate product. Please try again.', failureReason(error)),
          variant: 'destructive',
        }),
    });

  const uploading = upload.isPending ? clicked : null;

  return (
    <li className="flex flex-col gap-3 p-4 2xl:flex-row 2xl:items-center" data-testid="product-row">
      <div className="flex min-w-0 flex-1 items-center gap-4">
        <ProductThumbnail product={product} className="h-16 w-16" />
        <div className="min-w-0 flex-1 space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <h2 className="truncate font-semibold">{product.title}</h2>
            <StatusBadge status={product.status} />
            {product.storeNotice && (
              // What the store did to the listing (deleted, archived, edited there), found by a webhook or Sync.
              <span
                className="inline-flex items-center gap-1 text-xs font-medium text-amber-700"
                data-testid="store-notice"
              >
                <AlertTriangle className="h-3.5 w-3.5" aria-hidden="true" /> {product.storeNotice}
              </span>
            )}
          </div>
          <p className="flex flex-wrap gap-x-3 gap-y-1 text-sm text-slate-500">
            <span className="font-medium text-slate-900">{formatPrice(product.price)}</span>
            <span>{productTypeLabel(product.productType)}</span>
            <span>{formatVariantCount(product.variants.length)}</span>
            <span>
              Created <time dateTime={product.createdAt}>{formatDate(product.createdAt)}</time>
            </span>
          </p>
          {next && (
            <p className="flex items-center gap-1 text-sm text-amber-800" data-testid="next-schedule">
              <CalendarClock className="h-4 w-4" aria-hidden="true" />
              {next.status === 'running' ? 'Uploading now to ' : 'Next upload: '}
              {next.status === 'running' ? (
                platformLabel(next.platform)
              ) : (
                <>
                  <time dateTime={next.runAt}>
                    {new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(
                      new Date(next.runAt),
                    )}
                  </time>{' '}
                  to {platformLabel(next.platform)}
                </>
              )}
            </p>
          )}
          {product.status === 'live' && product.changesNotInStore && (
            <p className="flex items-center gap-1 text-sm font-medium text-amber-800" data-testid="store-out-of-date">
              <AlertTriangle className="h-4 w-4" aria-hidden="true" /> Store copy out of date
            </p>
          )}
          <StoreCopies product={product} />
        </div>
      </div>
      {product.status === 'live' && product.changesNotInStore && (
        <div className="sm:pl-20 2xl:pl-0">
          <StoreUpdate product={product} compact />
        </div>
      )}
      <div className="flex flex-wrap items-center gap-2 sm:pl-20 2xl:pl-0">
        <Button variant="outline" size="sm" onClick={() => onEdit(product)} aria-label={`Edit ${title}`}>
          <Pencil aria-hidden="true" /> Edit
        </Button>
        <Button variant="outline" size="sm" onClick={() => onPreview(product)} aria-label={`Preview ${title}`}>
          <Eye aria-hidden="true" /> Preview
        </Button>
        <Button
          variant="outline"
          size="sm"
          onClick={duplicateIt}
          disabled={duplicate.isPending}
          aria-label={`${duplicate.isPending ? 'Duplicating' : 'Duplicate'} ${title}`}
        >
          <Copy aria-hidden="true" /> {duplicate.isPending ? 'Duplicating...' : 'Duplicate'}
        </Button>
        <Button variant="outline" size="sm" onClick={() => setScheduling(true)} aria-label={`Schedule ${title}`}>
          <CalendarClock aria-hidden="true" /> Schedule
        </Button>
        {scheduling && (
          <Suspense fallback={null}>
            <ScheduleDialog product={product} onClose={() => setScheduling(false)} />
          </Suspense>
        )}
        <Button
          variant="outline"
          size="sm"
          onClick={() => onDelete(product)}
          className="text-red-700 hover:bg-red-50"
          aria-label={`Delete ${title}`}
        >
          <Trash2 aria-hidden="true" /> Delete
        </Button>
        {product.status === 'live' && product.storeCopies.length === 0 && (
          // A product listed before store copies were recorded per store.
          <span className="inline-flex h-8 items-center gap-1.5 rounded-md bg-blue-50 px-3 text-sm font-medium text-blue-800">
            <CheckCircle2 className="h-4 w-4" aria-hidden="true" /> Live on{' '}
            {product.liveOn?.length ? product.liveOn.map(platformLabel).join(' and ') : platformLabel('shopify')}
          </span>
        )}
        {product.status === 'live' && product.storeCopies.length === 0 && product.storeUrl && (
          <Button variant="outline" size="sm" asChild>
            <a href={product.storeUrl} target="_blank" rel="noreferrer">
              <ExternalLink aria-hidden="true" /> View in Store
            </a>
          </Button>
        )}
        <AmazonListingState copies={product.storeCopies} />
        {product.status === 'processing' ? (
          <Button size="sm" disabled>
            <Loader2 className="animate-spin" aria-hidden="true" /> Processing...
          </Button>
        ) : connected.isPending ? null : connected.stores.length === 0 ? (
          <span className="text-sm text-slate-500" data-testid="no-store-note">
            Connect a store on the Integrations page to upload products.
          </span>
        ) : (
          targets.map((store) => {
            const name = sameMany(store.platform) ? store.name : platformLabel(store.platform);
            const text = uploading === store.id ? 'Uploading...' : `Upload to ${name}`;
            return (
              <Button
                key={store.id}
                size="sm"
                variant={store.platform === 'shopify' ? 'default' : 'secondary'}
                onClick={() => uploadTo(store)}
                disabled={upload.isPending}
                aria-label={`${text}: ${title}`}
              >
                <Upload aria-hidden="true" />
                {text}
              </Button>
            );
          })
        )}
      </div>
    </li>
  );
}
