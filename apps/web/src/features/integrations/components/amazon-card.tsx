import type { TIntegration } from '@podforge/contract';
import {
  AMAZON_GENERIC_BRAND,
  AMAZON_MARKETPLACES,
  DEFAULT_AMAZON_MARKETPLACE,
  platformLabel,
} from '@podforge/contract/plain';
import { Package } from 'lucide-react';
import { useEffect, useState } from 'react';
import { usePlatformStores } from '@/api/integrations/get-integrations';
import { Button } from '@/components/ui/button';
import { inputClass } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { toast } from '@/components/ui/use-toast';
import { useAmazonSettings, useSaveAmazonSettings } from '../api/stores';
import { type AddressNoticeReader, useAddressNotice } from './address-notice';
import { ConnectionBadge, IntegrationCard } from './integration-card';
import { errorText, StoreRow } from './store-row';

/** What the Login with Amazon callback reports in `?amazon_error=` (amazon.routes.ts). */
const CONNECT_ERRORS: Record<string, string> = {
  invalid_state: 'The connection request expired or did not come from this browser. Please try again.',
  denied: 'Amazon access was not granted.',
  failed: 'Amazon did not accept the authorisation. Please try again.',
};

/** The marketplace, the brand and GTIN exemption Amazon needs, and the handling time every listing promises. */
function AmazonSettingsForm({ store }: { store: TIntegration }) {
  const { data, isPending, isError, error } = useAmazonSettings(store.id);
  const save = useSaveAmazonSettings(store.id);
  const [marketplaceId, setMarketplaceId] = useState(DEFAULT_AMAZON_MARKETPLACE);
  const [brand, setBrand] = useState('');
  const [gtinExempt, setGtinExempt] = useState(false);
  const [handlingDays, setHandlingDays] = useState('5');
  useEffect(() => {
    if (!data) return;
    setMarketplaceId(data.marketplaceId);
    setBrand(data.brand ?? '');
    setGtinExempt(data.gtinExempt);
    setHandlingDays(String(data.handlingDays));
  }, [data]);
  if (isPending) return <p className="text-sm text-slate-500">Reading the seller's settings...</p>;
  if (isError)
    return (
      <p role="alert" className="text-sm text-red-600">
        {errorText(error, 'Could not read the settings.')}
      </p>
    );
  const days = Number(handlingDays);
  const badDays = !(Number.isInteger(days) && days >= 1 && days <= 30);
  return (
    <form
      className="space-y-2"
      aria-label="Amazon listing settings"
      onSubmit={(event) => {
        event.preventDefault();
        if (badDays || !brand.trim()) return;
        save.mutate(
          { marketplaceId, brand: brand.trim(), gtinExempt, handlingDays: days },
          {
            onSuccess: () => toast({ title: 'Amazon Settings Saved', variant: 'success' }),
            onError: (e) =>
              toast({ title: 'Not Saved', description: errorText(e, 'Please try again.'), variant: 'destructive' }),
          },
        );
      }}
    >
      {data.notifications?.state === 'subscribed' && (
        <p className="text-sm text-slate-600">
          Amazon tells Podforge of new orders and listing issues as they happen (Podforge checks Amazon regularly too).
        </p>
      )}
      {data.notifications?.state === 'failed' && (
        <p className="text-sm text-amber-800">
          {data.notifications.problem}. Podforge still checks Amazon for new orders and listing issues every few
          minutes.
        </p>
      )}
      {data.missing.length > 0 && (
        <ul className="space-y-1 text-sm text-amber-800" aria-label="What Amazon still needs">
          {data.missing.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      )}
      <label className="block text-sm">
        Marketplace
        <NativeSelect value={marketplaceId} onChange={(e) => setMarketplaceId(e.target.value)}>
          {AMAZON_MARKETPLACES.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name} ({m.currency})
            </option>
          ))}
        </NativeSelect>
      </label>
      <label className="block text-sm">
        Brand
        <input
          className={inputClass}
          value={brand}
          maxLength={100}
          placeholder={AMAZON_GENERIC_BRAND}
          onChange={(e) => setBrand(e.target.value)}
        />
      </label>
      <p className="text-xs text-slate-500">
        The brand printed on your products, exactly as Amazon knows it. Goods with no brand of their own are listed as “
        {AMAZON_GENERIC_BRAND}”.
      </p>
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          className="mt-1"
          checked={gtinExempt}
          onChange={(e) => setGtinExempt(e.target.checked)}
        />
        <span>
          My brand has a GTIN exemption
          <span className="block text-xs text-slate-500">
            Amazon creates a new product only with a barcode (GTIN) or an exemption for its brand and category.
            Print-on-demand products have no barcodes: apply for the exemption in Seller Central first.
          </span>
        </span>
      </label>
      <label className="block text-sm">
        Handling time (days from order to shipment)
        <input
          className={inputClass}
          inputMode="numeric"
          value={handlingDays}
          aria-invalid={badDays}
          onChange={(e) => setHandlingDays(e.target.value)}
        />
      </label>
      {badDays && (
        <p role="alert" className="text-sm text-red-600">
          Handling time must be a whole number of days from 1 to 30.
        </p>
      )}
      <Button type="submit" size="sm" disabled={save.isPending || badDays || !brand.trim()}>
        {save.isPending ? 'Saving...' : 'Save settings'}
      </Button>
    </form>
  );
}

/** The Login with Amazon callback's outcome in the address. */
const AMAZON_OUTCOME: AddressNoticeReader = (params) => {
  const failure = params.get('amazon_error');
  if (params.get('connected') === 'amazon') {
    return {
      title: 'Amazon Connected',
      description: 'Set your brand and GTIN exemption to list products.',
      variant: 'success',
    };
  }
  if (!failure) return null;
  return {
    title: 'Amazon Not Connected',
    description: CONNECT_ERRORS[failure] ?? CONNECT_ERRORS.failed,
    variant: 'destructive',
  };
};
const DROP_AMAZON = (params: URLSearchParams) => {
  if (params.get('connected') === 'amazon') params.delete('connected');
  params.delete('amazon_error');
};

/** Amazon: Login with Amazon for a marketplace (the built-in sandbox seller when the server has no SP-API app). */
export function AmazonCard({ onNavigate }: { onNavigate: (url: string) => void }) {
  useAddressNotice(AMAZON_OUTCOME, DROP_AMAZON);
  const { stores, isError } = usePlatformStores('amazon');
  const [marketplace, setMarketplace] = useState(DEFAULT_AMAZON_MARKETPLACE);
  const anyConnected = stores.some((s) => s.isConnected);
  return (
    <IntegrationCard
      testId="store-amazon"
      icon={Package}
      name={platformLabel('amazon')}
      description="The world's largest marketplace"
      badge={<ConnectionBadge stores={stores} isError={isError} />}
    >
      <div className="space-y-3">
        {stores.length > 0 && (
          <ul className="space-y-2">
            {stores.map((store) => (
              <StoreRow key={store.id} store={store} platform="amazon" sandboxPath="/integrations/amazon-sandbox">
                {store.isConnected && <AmazonSettingsForm store={store} />}
              </StoreRow>
            ))}
          </ul>
        )}
        {(!anyConnected || stores.some((s) => s.status === 'error')) && (
          <div className="space-y-2">
            <label className="block text-sm">
              Sell on
              <NativeSelect value={marketplace} onChange={(e) => setMarketplace(e.target.value)}>
                {AMAZON_MARKETPLACES.map((m) => (
                  <option key={m.id} value={m.id}>
                    {m.name}
                  </option>
                ))}
              </NativeSelect>
            </label>
            <Button
              className="w-full"
              onClick={() => onNavigate(`/auth/amazon/start?marketplace=${encodeURIComponent(marketplace)}`)}
            >
              {stores.length === 0 ? 'Connect Amazon' : 'Connect Amazon again'}
            </Button>
          </div>
        )}
        {stores.some((s) => s.sandbox) && (
          <p className="text-xs text-slate-500">
            Practice account: this Podforge is not linked to an Amazon seller app yet, so Amazon connects to a practice
            seller account here. Nothing is listed on Amazon and no buyer sees it.
          </p>
        )}
      </div>
    </IntegrationCard>
  );
}
