import type { TFulfilmentNetwork } from '@podforge/contract';
import { useFulfilmentProviders } from '@/api/printers/get-fulfilment-providers';
import { useProviderProducts } from '@/api/printers/get-provider-products';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { NativeSelect } from '@/components/ui/native-select';
import type { WizardUpdate } from '../use-wizard-state';
import { type WizardState, wizardPrinter } from '../wizard-state';

/**
 * Who prints the product: Printful (the template's product) or another printer this server can print with, and
 * that printer's product to print on. Changing either starts the variants again (they are that product's).
 */
export function PrinterChoice({ state, update }: { state: WizardState; update: WizardUpdate }) {
  const printers = (useFulfilmentProviders().data?.providers ?? []).filter((p) => p.available);
  const { provider, productId } = wizardPrinter(state);
  const products = useProviderProducts(provider, '', provider !== 'printful');
  if (printers.length < 2) return null;
  const choose = (next: { provider: TFulfilmentNetwork; productId: number | null }) =>
    update({
      printer: next.provider === 'printful' ? { provider: 'printful', productId: null } : next,
      pricing: { catalogProductId: null, variants: [] },
    });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Printer</CardTitle>
      </CardHeader>
      <CardContent className="space-y-3">
        <label className="block text-sm text-slate-700">
          Printed by
          <NativeSelect
            className="mt-1"
            value={provider}
            onChange={(e) => choose({ provider: e.target.value as TFulfilmentNetwork, productId: null })}
          >
            {printers.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
                {p.connected ? '' : p.sandbox ? ' (Sandbox)' : ' (not connected)'}
              </option>
            ))}
          </NativeSelect>
        </label>
        {provider !== 'printful' && (
          <label className="block text-sm text-slate-700">
            Product
            <NativeSelect
              className="mt-1"
              value={productId === null ? '' : String(productId)}
              onChange={(e) => choose({ provider, productId: e.target.value ? Number(e.target.value) : null })}
            >
              <option value="">Choose a product…</option>
              {(products.data?.products ?? []).map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </NativeSelect>
          </label>
        )}
        {provider !== 'printful' && !printers.find((p) => p.id === provider)?.connected && (
          <p className="text-xs text-slate-500">
            {printers.find((p) => p.id === provider)?.sandbox
              ? 'Orders of this product go to the built-in sandbox: nothing is printed or charged.'
              : 'Connect this printer (or its sandbox) on the Integrations page before orders come in.'}
          </p>
        )}
      </CardContent>
    </Card>
  );
}
