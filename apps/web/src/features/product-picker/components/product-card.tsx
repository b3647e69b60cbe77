import type { TCatalogProduct } from '@podforge/contract';
import { ImageOff } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Card } from '@/components/ui/card';

/** Spec 2 'Product Picker': first of mockupUrls, name, description, basePrice to 2 decimals, variant count. */
export function ProductCard({ product }: { product: TCatalogProduct }) {
  const [failed, setFailed] = useState(false);
  const image = product.mockupUrls[0];
  return (
    <Card className="relative flex flex-col overflow-hidden" data-testid="catalog-product">
      <div className="flex aspect-[4/5] items-center justify-center bg-slate-100">
        {!image ? (
          <p className="text-sm text-slate-500">No image</p>
        ) : failed ? (
          <div className="flex flex-col items-center gap-1 text-sm text-slate-500">
            <ImageOff className="h-6 w-6" aria-hidden="true" />
            <p>Image unavailable</p>
          </div>
        ) : (
          <img
            src={image}
            alt={product.name}
            loading="lazy"
            className="h-full w-full object-cover"
            onError={() => setFailed(true)}
          />
        )}
      </div>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <h3 className="font-semibold leading-snug">
          {/* The whole card opens the wizard with this product chosen (the link's area covers the card). */}
          <Link
            to={`/create?product=${product.id}&category=${product.categoryId}`}
            className="after:absolute after:inset-0 after:content-[''] focus-visible:outline-none focus-visible:after:ring-2 focus-visible:after:ring-brand-600"
            aria-label={`Create a product on ${product.name}`}
          >
            {product.name}
          </Link>
        </h3>
        <p className="line-clamp-2 text-sm text-slate-500">{product.description}</p>
        <div className="mt-auto flex items-center justify-between pt-2 text-sm">
          <span className="font-semibold text-slate-900">${product.basePrice.toFixed(2)}</span>
          <span className="text-slate-500">
            {product.variantCount} {product.variantCount === 1 ? 'variant' : 'variants'}
          </span>
        </div>
      </div>
    </Card>
  );
}
