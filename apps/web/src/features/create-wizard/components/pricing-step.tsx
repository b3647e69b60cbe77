import { platformLabel, type TIntegration, type TVariant } from '@podforge/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Loader2, Plus, Trash2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { useIntegrations } from '@/api/integrations/get-integrations';
import { createProduct } from '@/api/products/create-product';
import { productListsKey } from '@/api/products/get-products';
import { updateProduct } from '@/api/products/update-product';
import { uploadToStores } from '@/api/products/upload-to-stores';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { inputClass } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api-client';
import type { WizardUpdate } from '../use-wizard-state';
import { parsePrice, productTypeFor, selectedMockup, type WizardState } from '../wizard-state';

type Props = {
  state: WizardState;
  update: WizardUpdate;
  onBack: () => void;
  /** After a successful upload: the wizard is reset and the seller sees My Products. */
  onDone: () => void;
};

const money = (n: number) => `${n < 0 ? '-' : ''}$${Math.abs(n).toFixed(2)}`;

export const NO_VARIANTS_MESSAGE = 'Please add at least one product variant before uploading.';
export const UPLOAD_FAILED_MESSAGE = 'Upload failed. Please try again.';

/** The server's own words from an error: `{ error }` of an ApiError, or of a '501: {...}' message text. */
export function serverReason(error: unknown): string {
  if (error instanceof ApiError) return error.serverMessage ?? error.message;
  const text = error instanceof Error ? error.message : String(error);
  const match = /^\d{3}: ([\s\S]*)$/.exec(text);
  if (match?.[1]) {
    try {
      const body = JSON.parse(match[1]) as { error?: unknown; message?: unknown };
      const message = body.error ?? body.message;
      if (typeof message === 'string') return message;
    } catch {
      return match[1];
    }
  }
  return text;
}

/** Wizard step 5: priced variants, the stores to push to, and Upload Product. */
export function PricingStep({ state, update, onBack, onDone }: Props) {
  const variants = state.pricing.variants;
  const baseCost = state.selectedTemplate?.price ?? null;
  const integrations = useIntegrations();
  const stores = (integrations.data ?? []).filter((i) => i.kind === 'store' && i.isConnected);
  const [selected, setSelected] = useState<string[]>([]);
  const [name, setName] = useState('');
  const [priceText, setPriceText] = useState('');
  const [sku, setSku] = useState('');
  const [addError, setAddError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const queryClient = useQueryClient();

  const setVariants = (next: TVariant[]) => update({ pricing: { variants: next } });
  const edit = (index: number, patch: Partial<TVariant>) =>
    setVariants(variants.map((v, i) => (i === index ? { ...v, ...patch } : v)));

  const onAdd = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) {
      setAddError('Enter a variant name.');
      return;
    }
    setAddError(null);
    const variant: TVariant = { option: name.trim(), price: parsePrice(priceText) };
    if (sku.trim()) variant.sku = sku.trim();
    setVariants([...variants, variant]);
    setName('');
    setPriceText('');
    setSku('');
  };

  const chosenStores = stores.filter((s) => selected.includes(s.id));

  const onUpload = async () => {
    if (variants.length === 0) {
      setFailure(null);
      setAddError(NO_VARIANTS_MESSAGE);
      toast({ title: 'No Variants', description: NO_VARIANTS_MESSAGE, variant: 'destructive' });
      return;
    }
    const design = state.designFiles[0];
    const mockup = selectedMockup(state);
    setBusy(true);
    setFailure(null);
    try {
      const fields = {
        designId: design?.id,
        mockupId: mockup?.id,
        title: state.details.title.trim(),
        description: state.details.description.trim(),
        price: Math.min(...variants.map((v) => v.price)),
        tags: state.details.tags,
        productType: productTypeFor(state.selectedTemplate, state.selectedCategory),
        variants,
      };
      // A retry after a failed push brings the product it created up to date instead of creating another.
      const productId = state.createdProductId
        ? (await updateProduct({ id: state.createdProductId, data: fields })).id
        : (await createProduct({ ...fields, status: 'ready' })).id;
      if (!state.createdProductId) update({ createdProductId: productId });
      if (chosenStores.length === 0) {
        toast({
          title: 'Product Saved',
          description: 'No store was selected, so the product is saved in My Products.',
          variant: 'success',
        });
        onDone();
        return;
      }
      const results = await uploadToStores(productId, chosenStores as TIntegration[]);
      const failed = results.filter((r) => !r.ok);
      if (failed.length > 0) {
        const reasons = failed.map((r) => `${platformLabel(r.platform)}: ${serverReason(new Error(r.error ?? ''))}`);
        const ok = results.length - failed.length;
        setFailure(
          `${ok > 0 ? `Product uploaded to ${ok} of ${results.length} stores. ` : ''}${reasons.join(' ')}`.trim(),
        );
        toast({ title: 'Upload Failed', description: UPLOAD_FAILED_MESSAGE, variant: 'destructive' });
        return;
      }
      toast({
        title: 'Upload Complete',
        description: `Product uploaded to ${results.length} of ${results.length} stores.`,
        variant: 'success',
      });
      onDone();
    } catch (error) {
      setFailure(serverReason(error));
      toast({ title: 'Upload Failed', description: UPLOAD_FAILED_MESSAGE, variant: 'destructive' });
    } finally {
      setBusy(false);
      await queryClient.invalidateQueries({ queryKey: productListsKey });
      await queryClient.invalidateQueries({ queryKey: ['dashboard'] });
    }
  };

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-3">
          <CardTitle className="text-base">Variants</CardTitle>
          <p className="text-sm text-slate-600" data-testid="base-cost">
            {baseCost === null ? 'Base cost unknown: choose a template first' : `Base cost ${money(baseCost)}`}
          </p>
        </CardHeader>
        <CardContent className="space-y-4">
          {variants.length === 0 ? (
            <p className="text-sm text-slate-500">No variants yet.</p>
          ) : (
            <table className="w-full text-left text-sm">
              <thead className="text-xs text-slate-500 uppercase">
                <tr>
                  <th className="py-2 pr-3 font-medium">Name</th>
                  <th className="py-2 pr-3 font-medium">Price</th>
                  <th className="py-2 pr-3 font-medium">SKU</th>
                  <th className="py-2 pr-3 font-medium">Margin</th>
                  <th className="py-2" />
                </tr>
              </thead>
              <tbody>
                {variants.map((v, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place (names may repeat while typed); a remove or add changes the length and so re-creates the rows' price inputs.
                  <tr key={`${variants.length}-${i}`} data-testid="variant-row" className="border-t border-slate-100">
                    <td className="py-2 pr-3">
                      <input
                        className={inputClass}
                        aria-label={`Variant ${i + 1} name`}
                        value={v.option}
                        onChange={(e) => edit(i, { option: e.target.value })}
                      />
                    </td>
                    <td className="py-2 pr-3">
                      <input
                        className={inputClass}
                        aria-label={`Variant ${i + 1} price`}
                        inputMode="decimal"
                        defaultValue={String(v.price)}
                        onBlur={(e) => {
                          const price = parsePrice(e.target.value);
                          e.target.value = String(price);
                          edit(i, { price });
                        }}
                      />
                    </td>
                    <td className="py-2 pr-3">
                      <input
                        className={inputClass}
                        aria-label={`Variant ${i + 1} SKU`}
                        value={v.sku ?? ''}
                        onChange={(e) => edit(i, { sku: e.target.value })}
                      />
                    </td>
                    <td className="py-2 pr-3" data-testid="variant-margin">
                      {baseCost === null ? '—' : money(v.price - baseCost)}
                    </td>
                    <td className="py-2 text-right">
                      <Button
                        variant="ghost"
                        size="icon"
                        aria-label={`Remove ${v.option || `variant ${i + 1}`}`}
                        onClick={() => setVariants(variants.filter((_, j) => j !== i))}
                      >
                        <Trash2 />
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <form className="grid gap-3 sm:grid-cols-[2fr_1fr_1fr_auto] sm:items-end" onSubmit={onAdd}>
            <label className="block space-y-1 text-sm font-medium">
              <span>New variant name</span>
              <input className={inputClass} value={name} onChange={(e) => setName(e.target.value)} />
            </label>
            <label className="block space-y-1 text-sm font-medium">
              <span>New variant price</span>
              <input
                className={inputClass}
                inputMode="decimal"
                value={priceText}
                onChange={(e) => setPriceText(e.target.value)}
              />
            </label>
            <label className="block space-y-1 text-sm font-medium">
              <span>New variant SKU</span>
              <input className={inputClass} value={sku} onChange={(e) => setSku(e.target.value)} />
            </label>
            <Button type="submit" variant="outline">
              <Plus /> Add Variant
            </Button>
          </form>
          {addError && (
            <p className="text-sm text-red-600" role="alert">
              {addError}
            </p>
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle className="text-base">Stores</CardTitle>
        </CardHeader>
        <CardContent className="space-y-2">
          {integrations.isPending ? (
            <Loader2 className="h-5 w-5 animate-spin text-slate-400" aria-label="Loading stores" />
          ) : integrations.isError ? (
            <p className="text-sm text-red-600">Your stores could not be loaded: {integrations.error.message}</p>
          ) : stores.length === 0 ? (
            <p className="text-sm text-slate-600" data-testid="no-stores">
              No connected stores: Upload Product saves the product in{' '}
              <Link to="/?tab=my-products" className="text-brand-700 underline">
                My Products
              </Link>
              .{' '}
              <Link to="/integrations" className="text-brand-700 underline">
                Connect a store
              </Link>{' '}
              to push it.
            </p>
          ) : (
            <ul className="space-y-2">
              {stores.map((store) => (
                <li key={store.id}>
                  <label className="flex items-center gap-3 rounded-lg border border-slate-200 p-3 text-sm hover:bg-slate-50">
                    <input
                      type="checkbox"
                      className="h-4 w-4 accent-brand-600"
                      checked={selected.includes(store.id)}
                      onChange={() =>
                        setSelected((ids) =>
                          ids.includes(store.id) ? ids.filter((x) => x !== store.id) : [...ids, store.id],
                        )
                      }
                    />
                    <span className="font-medium">{store.name}</span>
                    <span className="text-slate-500">{platformLabel(store.platform)}</span>
                  </label>
                </li>
              ))}
              {chosenStores.length === 0 && (
                <li className="text-sm text-slate-500">With no store selected, the product is only saved.</li>
              )}
            </ul>
          )}
        </CardContent>
      </Card>

      {failure !== null && (
        <div className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-700" role="alert">
          <p className="font-medium">{UPLOAD_FAILED_MESSAGE}</p>
          {failure && <p>{failure}</p>}
        </div>
      )}

      <div className="flex justify-between">
        <Button variant="outline" onClick={onBack}>
          Back to Details
        </Button>
        <Button onClick={onUpload} disabled={busy}>
          {busy && <Loader2 className="animate-spin" />}
          Upload Product
        </Button>
      </div>
    </div>
  );
}
