import type { TProduct } from '@podforge/contract';
import { Package } from 'lucide-react';
import { useState } from 'react';
import { cn } from '@/lib/utils';

/** The small picture the server names (mockup preview, else design thumbnail), else a package icon. */
export function ProductThumbnail({ product, className }: { product: TProduct; className?: string }) {
  const src = product.thumbnailUrl ?? product.mockupUrl ?? product.designThumbnailUrl;
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  return (
    <div className={cn('flex shrink-0 items-center justify-center overflow-hidden rounded-md bg-slate-100', className)}>
      {src && failedSrc !== src ? (
        <img
          src={src}
          alt={product.title}
          loading="lazy"
          className="h-full w-full object-cover"
          onError={() => setFailedSrc(src)}
        />
      ) : (
        <Package className="h-1/2 w-1/2 text-slate-400" role="img" aria-label="No image" />
      )}
    </div>
  );
}
