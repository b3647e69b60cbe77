import {
  type TProduct,
  type TProductDetail,
  type TUpdateProduct,
  type TVariantChoice,
  ZUpdateProduct,
} from '@podforge/contract';
import {
  PRODUCT_DESCRIPTION_MAX,
  PRODUCT_TITLE_MAX,
  platformLabel,
  STORE_PLATFORMS,
  type TStorePlatform,
  variantLabel,
} from '@podforge/contract/plain';
import { useQuery } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { type ChangeEvent, type FormEvent, type ReactNode, useId, useState } from 'react';
import { useCatalogProduct } from '@/api/catalog/get-catalog-product';
import { productQueryOptions } from '@/api/products/get-product';
import { useUpdateProduct } from '@/api/products/update-product';
import { FALLBACK_SETTINGS, useWorkspaceSettings } from '@/api/settings/get-settings';
import { CatalogVariantMatrix } from '@/components/pricing/catalog-variant-matrix';
import { PricingEditor, type PricingRow } from '@/components/pricing/pricing-editor';
import { quotedBlank, useShippingLine } from '@/components/pricing/shipping-line';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { inputClass } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api-client';
import { cn } from '@/lib/utils';
import { choicesFor, firstPriceProblem, storeFeeFor, suggestedPrice } from '@/lib/variant-pricing';
import { parseTags, tagsError } from '../product-format';
import { StoreUpdate } from './store-update';

const FIELDS = ['title', 'description', 'tags', 'variants'] as const;
type Field = (typeof FIELDS)[number];
/** `form`: a refusal of the contract that no field above shows (placement, mockups). */
type Errors = Partial<Record<Field | 'form', string>>;

/**
 * Edit the whole product: listing, the catalogue colours and sizes it offers, their prices, the placement printed
 * and the main picture. Saves only what changed with PATCH (variants as the full enabled set). A live product that
 * changed offers 'Update in store'.
 */
export function EditProductDialog({
  product: listed,
  onClose,
}: {
  product: Pick<TProduct, 'id' | 'title'>;
  onClose: () => void;
}) {
  // The list's copy may be old and has no print files: edit what the server has now.
  const query = useQuery(productQueryOptions(listed.id));
  // A live product stays 'processing' while its store copy is updated; the screen follows the server (live
  // updates), so the store part stays in place through that push instead of leaving and losing its answer.
  const [wasLive, setWasLive] = useState(false);
  if (query.data?.status === 'live' && !wasLive) setWasLive(true);
  const showStore = query.data?.status === 'live' || (wasLive && query.data?.status === 'processing');
  return (
    <Dialog
      title="Edit Product"
      description={query.data?.title ?? listed.title}
      onClose={onClose}
      className="w-[min(60rem,calc(100vw-2rem))]"
    >
      {query.isPending ? (
        <p className="flex items-center gap-2 text-sm text-slate-500" role="status">
          <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" /> Loading the product…
        </p>
      ) : query.isError ? (
        <div className="space-y-3" role="alert">
          <p className="text-sm text-red-600">
            The product could not be loaded:{' '}
            {query.error instanceof ApiError ? (query.error.serverMessage ?? query.error.message) : query.error.message}
          </p>
          <Button variant="outline" onClick={() => query.refetch()}>
            Retry
          </Button>
        </div>
      ) : (
        <div className="space-y-6">
          {showStore && <StoreUpdate product={query.data} />}
          {/* A save brings a fresh product (its updatedAt changes): the form starts again from it. */}
          <EditForm key={query.data.updatedAt} product={query.data} onClose={onClose} />
        </div>
      )}
    </Dialog>
  );
}

const sameChoices = (a: readonly TVariantChoice[], b: readonly TVariantChoice[]) =>
  a.length === b.length && a.every((c, i) => c.catalogVariantId === b[i]?.catalogVariantId && c.price === b[i]?.price);

function EditForm({ product, onClose }: { product: TProductDetail; onClose: () => void }) {
  const [form, setForm] = useState({
    title: product.title,
    description: product.description,
    tags: product.tags.join(', '),
  });
  const catalogued = product.catalogProductId !== null;
  const initialChoices: TVariantChoice[] = product.variants.flatMap((v) =>
    v.catalogVariantId === null ? [] : [{ catalogVariantId: v.catalogVariantId, price: v.price }],
  );
  const [choices, setChoices] = useState(initialChoices);
  // An older product's free-text variants: only their prices can change.
  const [legacyPrices, setLegacyPrices] = useState(product.variants.map((v) => v.price));
  const initialPlacement = product.placements[0]?.placement ?? '';
  const [placement, setPlacement] = useState(initialPlacement);
  const initialMain = product.mockups.find((m) => m.main)?.id ?? product.mockups[0]?.id ?? null;
  const [mainMockup, setMainMockup] = useState(initialMain);
  const [errors, setErrors] = useState<Errors>({});
  const update = useUpdateProduct();
  const catalog = useCatalogProduct(product.catalogProductId);
  const settingsQuery = useWorkspaceSettings();
  const settings = settingsQuery.data ?? FALLBACK_SETTINGS;
  // The fees of the store a sale is made in: the first the product is in, else Shopify; the seller can compare.
  const [feePlatform, setFeePlatform] = useState<TStorePlatform>(
    STORE_PLATFORMS.find((p) => p === product.storeCopies[0]?.platform) ?? 'shopify',
  );
  const fee = storeFeeFor(settings, feePlatform);
  const shipping = useShippingLine(
    quotedBlank(
      product.provider,
      product.catalogProductId,
      choices.map((c) => c.catalogVariantId),
    ),
    catalog.data?.currency,
  );
  const id = useId();

  const catalogById = new Map((catalog.data?.variants ?? []).map((v) => [v.id, v]));
  const productById = new Map(product.variants.map((v) => [v.catalogVariantId, v]));
  const rows: PricingRow[] = catalogued
    ? choices.map((c) => {
        const fromCatalog = catalogById.get(c.catalogVariantId);
        const own = productById.get(c.catalogVariantId);
        return {
          id: String(c.catalogVariantId),
          label: fromCatalog
            ? variantLabel(fromCatalog.color, fromCatalog.size)
            : (own?.option ?? `Variant ${c.catalogVariantId}`),
          colorHex: fromCatalog?.colorHex ?? own?.colorHex ?? null,
          baseCost: fromCatalog?.baseCost ?? own?.baseCost ?? null,
          price: c.price,
        };
      })
    : product.variants.map((v, i) => ({
        id: String(i),
        label: v.option,
        baseCost: v.baseCost,
        price: legacyPrices[i] ?? v.price,
      }));

  const setPrices = (prices: Record<string, number>) => {
    if (catalogued) setChoices((cs) => cs.map((c) => ({ ...c, price: prices[String(c.catalogVariantId)] ?? c.price })));
    else setLegacyPrices((ps) => ps.map((p, i) => prices[String(i)] ?? p));
  };

  const validate = (): { errors: Errors; changes: TUpdateProduct } => {
    const errors: Errors = {};
    const changes: TUpdateProduct = {};
    const title = form.title.trim();
    if (!title) errors.title = 'Title is required.';
    else if (title.length > PRODUCT_TITLE_MAX) errors.title = `Title must be at most ${PRODUCT_TITLE_MAX} characters.`;
    else if (title !== product.title) changes.title = title;

    const description = form.description.trim();
    if (description.length > PRODUCT_DESCRIPTION_MAX)
      errors.description = `Description must be at most ${PRODUCT_DESCRIPTION_MAX.toLocaleString('en-US')} characters.`;
    else if (description !== product.description) changes.description = description;

    const tags = parseTags(form.tags);
    const tagError = tagsError(tags);
    if (tagError) errors.tags = tagError;
    else if (tags.join('\n') !== product.tags.join('\n')) changes.tags = tags;

    const problem = rows.length === 0 ? 'Keep at least one variant.' : firstPriceProblem(rows);
    if (problem) errors.variants = problem;
    else if (catalogued && !sameChoices(choices, initialChoices)) {
      changes.variants = choices;
      changes.price = Math.min(...choices.map((c) => c.price));
    } else if (!catalogued && legacyPrices.some((p, i) => p !== product.variants[i]?.price)) {
      changes.variants = product.variants.map((v, i) => ({
        option: v.option,
        price: legacyPrices[i] ?? v.price,
        ...(v.sku ? { sku: v.sku } : {}),
      }));
      changes.price = Math.min(...legacyPrices);
    }

    if (placement && placement !== initialPlacement) changes.placement = placement;
    if (mainMockup && mainMockup !== initialMain) {
      changes.mockupId = mainMockup;
      changes.mockupIds = product.mockups.map((m) => m.id);
    }
    return { errors, changes };
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = validate();
    setErrors(result.errors);
    if (Object.keys(result.errors).length > 0) return;
    if (Object.keys(result.changes).length === 0) return onClose();
    // The contract is the last word on what the API accepts; the checks above should already have said why.
    const checked = ZUpdateProduct.safeParse(result.changes);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      const name = FIELDS.find((f) => f === issue?.path[0]);
      setErrors(
        name
          ? { [name]: issue?.message ?? 'Invalid value.' }
          : { form: `${issue?.path.join('.') || 'product'}: ${issue?.message ?? 'invalid value'}` },
      );
      return;
    }
    update.mutate(
      { id: product.id, data: result.changes },
      {
        onSuccess: (saved) => {
          // A live product's changes are not in the store until 'Update in store', which its row now offers.
          const stale = saved.status === 'live' && saved.changesNotInStore;
          toast({
            title: 'Product Updated',
            description: stale
              ? `${saved.title} was saved. Buyers still see the old version: use Update in store on its row.`
              : `${saved.title} was saved.`,
            variant: 'success',
          });
          onClose();
        },
      },
    );
  };

  const field = (
    name: Exclude<Field, 'variants'>,
    label: string,
    control: (props: FieldProps) => ReactNode,
    hint?: string,
  ) => {
    const error = errors[name];
    const hintId = `${id}-${name}-hint`;
    const errorId = `${id}-${name}-error`;
    return (
      <div className="space-y-1">
        <label htmlFor={`${id}-${name}`} className="text-sm font-medium text-slate-900">
          {label}
        </label>
        {control({
          id: `${id}-${name}`,
          value: form[name],
          onChange: (e) => setForm((f) => ({ ...f, [name]: e.target.value })),
          'aria-invalid': error ? true : undefined,
          'aria-describedby': [hint && hintId, error && errorId].filter(Boolean).join(' ') || undefined,
          className: inputClass,
        })}
        {hint && (
          <p id={hintId} className="text-xs text-slate-500">
            {hint}
          </p>
        )}
        {error && (
          <p id={errorId} className="text-sm text-red-600">
            {error}
          </p>
        )}
      </div>
    );
  };

  const saveError =
    update.error instanceof ApiError ? (update.error.serverMessage ?? update.error.message) : update.error?.message;

  return (
    <form className="space-y-6" onSubmit={submit} noValidate>
      <Section title="Listing">
        {field('title', 'Title', (p) => (
          <input {...p} />
        ))}
        {field('description', 'Description', (p) => (
          <textarea {...p} rows={5} />
        ))}
        {field(
          'tags',
          'Tags',
          (p) => (
            <input {...p} />
          ),
          'Separate tags with commas.',
        )}
      </Section>

      {catalogued && (
        <Section title="Colours and sizes">
          <CatalogVariantMatrix
            catalog={catalog}
            named
            enabledIds={choices.map((c) => c.catalogVariantId)}
            onChange={(ids, product) =>
              setChoices((cs) =>
                choicesFor(ids, cs, product.variants, (baseCost) => suggestedPrice(baseCost, settings, fee)),
              )
            }
          />
        </Section>
      )}

      <Section title="Prices">
        <label className="flex max-w-xs items-center gap-2 text-sm">
          <span className="shrink-0 font-medium">Sold on</span>
          <NativeSelect value={feePlatform} onChange={(e) => setFeePlatform(e.target.value as TStorePlatform)}>
            {STORE_PLATFORMS.map((p) => (
              <option key={p} value={p}>
                {platformLabel(p)}
              </option>
            ))}
          </NativeSelect>
        </label>
        <PricingEditor
          rows={rows}
          fee={fee}
          platformLabel={platformLabel(feePlatform)}
          targetMargin={settings.targetMargin}
          shipping={shipping}
          onPriceChange={(rowId, price) => setPrices({ [rowId]: price })}
          onPricesChange={setPrices}
        />
        {errors.variants && (
          <p className="text-sm text-red-600" role="alert">
            {errors.variants}
          </p>
        )}
      </Section>

      {catalogued && (
        <Section title="Placement">
          {catalog.data && catalog.data.placements.length > 0 ? (
            <label className="block max-w-md space-y-1 text-sm font-medium">
              <span>Printed at</span>
              <NativeSelect value={placement} onChange={(e) => setPlacement(e.target.value)}>
                {!placement && <option value="">Choose a placement</option>}
                {catalog.data.placements.map((p) => (
                  <option key={p.placement} value={p.placement}>
                    {p.title} ({p.widthPx} x {p.heightPx} px at {p.dpi} DPI)
                  </option>
                ))}
              </NativeSelect>
            </label>
          ) : (
            <p className="text-sm text-slate-600">{placement || 'No placement recorded.'}</p>
          )}
        </Section>
      )}

      <Section title="Mockups">
        {product.mockups.length === 0 ? (
          <p className="text-sm text-slate-500">This product has no mockups.</p>
        ) : (
          <fieldset>
            <legend className="mb-2 text-sm text-slate-600">The main picture buyers see first</legend>
            <ul className="grid grid-cols-3 gap-3 sm:grid-cols-5">
              {product.mockups.map((m) => (
                <li key={m.id}>
                  <label
                    className={cn(
                      'block cursor-pointer overflow-hidden rounded-lg border-2 text-xs',
                      m.id === mainMockup ? 'border-brand-600' : 'border-transparent hover:border-slate-300',
                    )}
                  >
                    <input
                      type="radio"
                      name={`${id}-main`}
                      className="sr-only"
                      aria-label={`Main picture: ${m.color ?? 'default'}`}
                      checked={m.id === mainMockup}
                      onChange={() => setMainMockup(m.id)}
                    />
                    <img
                      src={m.previewUrl}
                      alt={`${product.title} mockup, ${m.color ?? 'default'}`}
                      className="w-full bg-slate-50"
                    />
                    <span className="block truncate px-1 py-1 text-slate-600">
                      {m.color ?? 'Default'}
                      {m.id === mainMockup ? ' · main' : ''}
                    </span>
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>
        )}
      </Section>

      {(saveError || errors.form) && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
          Could not save the product. {errors.form ?? saveError}
        </p>
      )}
      <div className="flex justify-end gap-2 pt-2">
        <Button variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? 'Saving...' : 'Save changes'}
        </Button>
      </div>
    </form>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="space-y-3" aria-label={title}>
      <h3 className="border-b border-slate-100 pb-1 text-sm font-semibold">{title}</h3>
      {children}
    </section>
  );
}

type FieldProps = {
  id: string;
  value: string;
  onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
  className: string;
};
