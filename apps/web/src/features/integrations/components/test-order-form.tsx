import type { TTestAddress } from '@podforge/contract';
import { DEFAULT_TEST_ADDRESS } from '@podforge/contract/plain';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { inputClass } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { ApiError } from '@/lib/api-client';
import { type SandboxPlatform, usePlaceSandboxOrder } from '../api/sandbox-orders';

type Props = {
  integrationId: string;
  storeName: string;
  /** What the sandbox store sells: one option per SKU. */
  variants: { sku: string; label: string }[];
  platform: SandboxPlatform;
};
/** How the order reaches Podforge, as each platform sends it. */
const SENT_AS: Record<SandboxPlatform, string> = {
  shopify: 'sent to Podforge as Shopify would send it',
  woocommerce: 'sent to Podforge as WooCommerce would send it',
  etsy: 'read by Podforge from the shop’s receipts as it reads Etsy’s, at once',
  amazon: 'read by Podforge with Amazon’s searchOrders as it reads a seller’s orders, at once',
};

const FIELDS: { key: keyof TTestAddress; label: string }[] = [
  { key: 'name', label: 'Name' },
  { key: 'address1', label: 'Address' },
  { key: 'city', label: 'City' },
  { key: 'provinceCode', label: 'State code' },
  { key: 'zip', label: 'ZIP' },
  { key: 'countryCode', label: 'Country code' },
];

/** 'Place a test order': a buyer pays for one variant in the sandbox shop, and the order comes in as a real one would. */
export function TestOrderForm({ integrationId, storeName, variants, platform }: Props) {
  const [sku, setSku] = useState(variants[0]?.sku ?? '');
  const [quantity, setQuantity] = useState('1');
  const [address, setAddress] = useState<TTestAddress>(DEFAULT_TEST_ADDRESS);
  const place = usePlaceSandboxOrder(platform);
  const qty = Number(quantity);
  const badQuantity = !(Number.isInteger(qty) && qty >= 1 && qty <= 100);

  if (variants.length === 0) return null;
  const error = place.error instanceof ApiError ? (place.error.serverMessage ?? place.error.message) : null;
  return (
    <form
      aria-label={`Place a test order in ${storeName}`}
      className="space-y-3 rounded-xl border border-dashed p-4"
      onSubmit={(e) => {
        e.preventDefault();
        if (badQuantity || !sku) return;
        place.mutate({
          integrationId,
          lines: [{ sku, quantity: qty }],
          address: { ...address, provinceCode: address.provinceCode || undefined },
        });
      }}
    >
      <h3 className="font-semibold">Place a test order</h3>
      <p className="text-sm text-slate-500">
        A paid order in this sandbox shop, {SENT_AS[platform]}. It is printed and shipped by the Printful Sandbox (or
        your Printful account, if connected).
      </p>
      <div className="grid gap-3 md:grid-cols-[1fr_8rem]">
        <label className="text-sm">
          <span className="mb-1 block font-medium">Variant</span>
          <NativeSelect value={sku} onChange={(e) => setSku(e.target.value)}>
            {variants.map((v) => (
              <option key={v.sku} value={v.sku}>
                {v.label}
              </option>
            ))}
          </NativeSelect>
        </label>
        <label className="text-sm">
          <span className="mb-1 block font-medium">Quantity</span>
          <input
            type="number"
            min={1}
            max={100}
            className={inputClass}
            value={quantity}
            aria-invalid={badQuantity}
            onChange={(e) => setQuantity(e.target.value)}
          />
        </label>
      </div>
      <fieldset className="grid gap-3 md:grid-cols-3">
        <legend className="mb-1 text-sm font-medium">Test address</legend>
        {FIELDS.map((f) => (
          <label key={f.key} className="text-sm">
            <span className="mb-1 block text-slate-600">{f.label}</span>
            <input
              className={inputClass}
              value={address[f.key] ?? ''}
              onChange={(e) => setAddress({ ...address, [f.key]: e.target.value })}
            />
          </label>
        ))}
      </fieldset>
      {badQuantity && <p className="text-sm text-red-600">The quantity must be 1 to 100.</p>}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={place.isPending || badQuantity}>
          {place.isPending ? 'Placing...' : 'Place test order'}
        </Button>
        {place.isSuccess && (
          <p className="text-sm text-emerald-700">
            Test order {place.data.name} placed. Follow it on the{' '}
            <Link to="/?tab=orders" className="text-brand-600 hover:underline">
              Orders tab
            </Link>
            .
          </p>
        )}
      </div>
      {error && (
        <p role="alert" className="text-sm text-red-600">
          {error}
        </p>
      )}
    </form>
  );
}
