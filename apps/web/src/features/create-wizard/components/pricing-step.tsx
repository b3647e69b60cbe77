import type { TIntegration } from '@podforge/contract';
import { platformLabel } from '@podforge/contract/plain';
import { useQueryClient } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useConnectedStores } from '@/api/integrations/get-integrations';
import { createProduct } from '@/api/products/create-product';
import { productListsKey } from '@/api/products/get-products';
import { updateProduct } from '@/api/products/update-product';
import { uploadToStores } from '@/api/products/upload-to-stores';
import { PricingEditor, type PricingRow } from '@/components/pricing/pricing-editor';
import { quotedBlank, useShippingLine } from '@/components/pricing/shipping-line';
import { StorePicker } from '@/components/stores/store-picker';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api-client';
import { catalogVariantLabel, firstPriceProblem } from '@/lib/variant-pricing';
import type { useWizardCatalog } from '../use-wizard-catalog';
import type { WizardUpdate } from '../use-wizard-state';
import { productMockupIds, productTypeFor, selectedMockup, type WizardState, wizardPrinter } from '../wizard-state';
import { PrinterChoice } from './printer-choice';
import { VariantsCard } from './variants-card';

type Props = {
  state: WizardState;
  update: WizardUpdate;
  /** The template's catalogue product and the workspace's pricing settings. */
  pricing: ReturnType<typeof useWizardCatalog>;
  onBack: () => void;
  /** After a successful upload: the wizard is reset and the seller sees My Products. */
  onDone: () => void;
};

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

/** Wizard step 5: the colours and sizes offered, their prices, the stores to push to, and Upload Product. */
export function PricingStep({ state, update, pricing, onBack, onDone }: Props) {
  const variants = state.pricing.variants;
  const catalog = pricing.catalog.data;
  const integrations = useConnectedStores();
  const { stores } = integrations;
  // Until the seller changes it, the stores of the platform picked in step 1 are selected.
  const [chosen, setSelected] = useState<string[] | null>(null);
  const selected = chosen ?? stores.filter((s) => s.platform === state.platform).map((s) => s.id);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const queryClient = useQueryClient();

  const byId = new Map((catalog?.variants ?? []).map((v) => [v.id, v]));
  const rows: PricingRow[] = variants.map((choice) => {
    const v = byId.get(choice.catalogVariantId);
    return {
      id: String(choice.catalogVariantId),
      label: v ? catalogVariantLabel(v) : `Variant ${choice.catalogVariantId}`,
      colorHex: v?.colorHex ?? null,
      baseCost: v?.baseCost ?? null,
      price: choice.price,
    };
  });
  const setPrices = (prices: Record<string, number>) =>
    update((s) => ({
      pricing: {
        ...s.pricing,
        variants: s.pricing.variants.map((c) => ({ ...c, price: prices[String(c.catalogVariantId)] ?? c.price })),
      },
    }));
  const printer = wizardPrinter(state);
  const shipping = useShippingLine(
    quotedBlank(
      printer.provider,
      printer.productId,
      variants.map((v) => v.catalogVariantId),
    ),
    catalog?.currency,
  );
  const colorNames = pricing.enabledColors.map((c) => c.name);
  const withoutMockup = state.mockups.length > 0 ? colorNames.filter((c) => !state.colorMockups[c]) : [];

  const chosenStores = stores.filter((s) => selected.includes(s.id));

  const onUpload = async () => {
    if (variants.length === 0) {
      setFailure(null);
      setRefusal(NO_VARIANTS_MESSAGE);
      toast({ title: 'No Variants', description: NO_VARIANTS_MESSAGE, variant: 'destructive' });
      return;
    }
    const problem = firstPriceProblem(rows);
    if (problem) {
      setFailure(null);
      setRefusal(problem);
      toast({ title: 'Check the Prices', description: problem, variant: 'destructive' });
      return;
    }
    setRefusal(null);
    const design = state.designFiles[0];
    const mockup = selectedMockup(state);
    setBusy(true);
    setFailure(null);
    try {
      const fields = {
        designId: design?.id,
        mockupId: mockup?.id,
        mockupIds: productMockupIds(state, colorNames),
        title: state.details.title.trim(),
        description: state.details.description.trim(),
        price: Math.min(...variants.map((v) => v.price)),
        tags: state.details.tags,
        productType: productTypeFor(state.selectedTemplate, state.selectedCategory),
        // The printer's product (Printful's: the template's), and whose it is.
        catalogProductId: wizardPrinter(state).productId ?? undefined,
        provider: wizardPrinter(state).provider,
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
      // A push waiting for a store's spent request limit is not failed: it resumes by itself.
      const failed = results.filter((r) => !r.ok && !r.waiting);
      const waiting = results.flatMap((r) => (r.waiting ? [`${platformLabel(r.platform)}: ${r.waiting}`] : []));
      if (failed.length > 0) {
        const reasons = failed.map((r) => `${platformLabel(r.platform)}: ${serverReason(new Error(r.error ?? ''))}`);
        const ok = results.filter((r) => r.ok).length;
        setFailure(
          `${ok > 0 ? `Product uploaded to ${ok} of ${results.length} stores. ` : ''}${reasons.join(' ')}`.trim(),
        );
        toast({ title: 'Upload Failed', description: UPLOAD_FAILED_MESSAGE, variant: 'destructive' });
        return;
      }
      const ok = results.length - waiting.length;
      toast(
        waiting.length > 0
          ? {
              title: 'Upload Waiting',
              description: `Product uploaded to ${ok} of ${results.length} stores. ${waiting.join(' ')}`,
            }
          : {
              title: 'Upload Complete',
              description: `Product uploaded to ${results.length} of ${results.length} stores.`,
              variant: 'success',
            },
      );
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
      <PrinterChoice state={state} update={update} />
      <VariantsCard state={state} update={update} catalog={pricing.catalog} price={pricing.price} />

      <Card>
        <CardHeader>
          <CardTitle as="h3" className="text-base">
            Prices
          </CardTitle>
        </CardHeader>
        <CardContent className="space-y-3">
          {pricing.settingsError && (
            <p className="text-sm text-amber-700" role="status">
              Your pricing settings could not be loaded ({pricing.settingsError.message}): the default fees and target
              margin are used.
            </p>
          )}
          {variants.length === 0 ? (
            <p className="text-sm text-slate-500">No variants yet.</p>
          ) : (
            <PricingEditor
              rows={rows}
              fee={pricing.fee}
              platformLabel={pricing.feeLabel}
              targetMargin={pricing.settings.targetMargin}
              shipping={shipping}
              onPriceChange={(id, price) => setPrices({ [id]: price })}
              onPricesChange={setPrices}
            />
          )}
          {withoutMockup.length > 0 && (
            <p className="text-sm text-slate-600" data-testid="colours-without-mockup">
              No mockup shows {withoutMockup.join(', ')} yet: render them on the Mockups step, else the product shows
              its main picture for them.
            </p>
          )}
          {refusal && (
            <p className="text-sm text-red-600" role="alert">
              {refusal}
            </p>
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle as="h3" className="text-base">
            Stores
          </CardTitle>
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
            <StorePicker stores={stores} selected={selected} onChange={setSelected}>
              {chosenStores.length === 0 && (
                <li className="text-sm text-slate-500">With no store selected, the product is only saved.</li>
              )}
            </StorePicker>
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
