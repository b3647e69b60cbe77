import type { TProduct } from '@podforge/contract';
import { platformLabel } from '@podforge/contract/plain';
import { useProduct } from '@/api/products/get-product';
import { FALLBACK_SETTINGS, useWorkspaceSettings } from '@/api/settings/get-settings';
import { PrinterQuotes } from '@/components/printers/printer-quotes';
import { ScheduleSection } from '@/components/schedules/schedule-dialog';
import { Dialog } from '@/components/ui/dialog';
import { StatusBadge } from '@/components/ui/status-badge';
import { storeFeeFor } from '@/lib/variant-pricing';
import { formatPrice, productTypeLabel } from '../product-format';
import { ProductThumbnail } from './product-thumbnail';

/** The product as a buyer would see it: picture, title, price, description, tags and variants. */
export function PreviewProductDialog({ product: listed, onClose }: { product: TProduct; onClose: () => void }) {
  // The list's copy shows at once; the product read by id replaces it (it may have changed since the list loaded).
  const { data } = useProduct(listed.id, listed);
  const product = data ?? listed;
  // The main mockup at its preview size: what buyers see first.
  const main = product.mockups.find((m) => m.main) ?? product.mockups[0] ?? null;
  const printFiles = data?.printFiles ?? [];
  const settings = useWorkspaceSettings().data ?? FALLBACK_SETTINGS;
  // The fee of the store it is live on first, else Shopify's (as the price editor estimates).
  const platform = product.liveOn?.[0] ?? 'shopify';
  return (
    <Dialog title="Product Preview" onClose={onClose} className="w-[min(44rem,calc(100vw-2rem))]">
      <div className="grid gap-5 sm:grid-cols-[14rem_1fr]" data-testid="product-preview">
        {main ? (
          <img
            src={main.previewUrl}
            alt={product.title}
            className="aspect-[4/5] w-full rounded-md bg-slate-100 object-cover"
            data-testid="main-mockup"
          />
        ) : (
          <ProductThumbnail product={product} className="aspect-[4/5] w-full" />
        )}
        <div className="min-w-0 space-y-3">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="text-xl font-semibold">{product.title}</h3>
            <StatusBadge status={product.status} />
          </div>
          <p className="text-lg font-semibold">{formatPrice(product.price)}</p>
          <p className="text-sm text-slate-500">{productTypeLabel(product.productType)}</p>
          <p className="whitespace-pre-line text-sm text-slate-700">{product.description || 'No description.'}</p>
          {product.tags.length > 0 ? (
            <ul className="flex flex-wrap gap-1.5" aria-label="Tags">
              {product.tags.map((tag) => (
                <li key={tag} className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs text-slate-700">
                  {tag}
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-500">No tags.</p>
          )}
        </div>
      </div>
      <h4 className="mt-5 mb-2 text-sm font-semibold">Variants</h4>
      {product.variants.length > 0 ? (
        <table className="w-full text-left text-sm">
          <thead className="border-b border-slate-200 text-slate-500">
            <tr>
              <th className="py-1.5 font-medium">Option</th>
              <th className="py-1.5 font-medium">Price</th>
              <th className="py-1.5 font-medium">SKU</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {product.variants.map((variant) => (
              <tr key={variant.id}>
                <td className="py-1.5">{variant.option}</td>
                <td className="py-1.5">{formatPrice(variant.price)}</td>
                <td className="py-1.5 text-slate-500">{variant.sku ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="text-sm text-slate-500">No variants.</p>
      )}
      {printFiles.length > 0 && (
        <>
          <h4 className="mt-5 mb-2 text-sm font-semibold">Print files</h4>
          <ul className="space-y-1 text-sm" aria-label="Print files">
            {printFiles.map((file) => (
              <li key={file.placement} className="flex flex-wrap items-center gap-x-3">
                <span className="capitalize">{file.placement}</span>
                <span className="text-slate-500">
                  {file.width} x {file.height} px at {file.dpi} DPI
                </span>
                <a href={file.downloadUrl} download className="font-medium text-brand-700 hover:underline">
                  Download
                </a>
              </li>
            ))}
          </ul>
        </>
      )}
      {product.variants.length > 0 && (
        <>
          <h4 className="mt-5 mb-2 text-sm font-semibold">Printers for the first variant</h4>
          <PrinterQuotes
            productId={product.id}
            sale={{
              price: product.variants[0]?.price ?? product.price,
              fee: storeFeeFor(settings, platform),
              storeLabel: platformLabel(platform),
            }}
          />
        </>
      )}
      <h4 className="mt-5 mb-2 text-sm font-semibold">Scheduled uploads</h4>
      <ScheduleSection product={product} />
    </Dialog>
  );
}
