import type { TIntegration } from '@podforge/contract';
import { platformLabel } from '@podforge/contract/plain';
import { Store } from 'lucide-react';
import { useEffect, useState } from 'react';
import { usePlatformStores } from '@/api/integrations/get-integrations';
import { Button } from '@/components/ui/button';
import { NativeSelect } from '@/components/ui/native-select';
import { toast } from '@/components/ui/use-toast';
import { useEtsySetup, useSaveEtsySetup } from '../api/stores';
import { type AddressNoticeReader, useAddressNotice } from './address-notice';
import { ConnectionBadge, IntegrationCard } from './integration-card';
import { errorText, StoreRow } from './store-row';

/** What the OAuth callback reports in `?etsy_error=` (etsy.routes.ts). */
const CONNECT_ERRORS: Record<string, string> = {
  invalid_state: 'The connection request expired or did not come from this browser. Please try again.',
  denied: 'Etsy access was not granted.',
  failed: 'Etsy did not accept the authorisation. Please try again.',
};

/** The shop's shipping and processing profiles (and production partner), chosen once; every listing uses them. */
function EtsySetupForm({ store }: { store: TIntegration }) {
  const { data, isPending, isError, error } = useEtsySetup(store.id);
  const save = useSaveEtsySetup(store.id);
  const [shipping, setShipping] = useState('');
  const [processing, setProcessing] = useState('');
  const [partner, setPartner] = useState('');
  useEffect(() => {
    if (!data) return;
    setShipping(data.chosen.shippingProfileId ?? data.shippingProfiles[0]?.id ?? '');
    setProcessing(data.chosen.readinessStateId ?? data.processingProfiles[0]?.id ?? '');
    setPartner(data.chosen.productionPartnerId ?? data.productionPartners[0]?.id ?? '');
  }, [data]);
  if (isPending) return <p className="text-sm text-slate-500">Reading the shop's profiles...</p>;
  if (isError)
    return (
      <p role="alert" className="text-sm text-red-600">
        {errorText(error, 'Could not read the shop.')}
      </p>
    );
  const missing = data.shippingProfiles.length === 0 || data.processingProfiles.length === 0;
  return (
    <form
      className="space-y-2"
      aria-label="Etsy listing settings"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate(
          { shippingProfileId: shipping, readinessStateId: processing, productionPartnerId: partner || null },
          {
            onSuccess: () =>
              toast({ title: 'Etsy Connected', description: 'Your shop is ready for uploads.', variant: 'success' }),
            onError: (e) =>
              toast({ title: 'Not Saved', description: errorText(e, 'Please try again.'), variant: 'destructive' }),
          },
        );
      }}
    >
      <p className="text-sm text-slate-600">Choose once how Etsy ships and makes what you list.</p>
      {missing ? (
        <p role="alert" className="text-sm text-red-600">
          The shop needs a shipping profile and a processing profile: add them in Etsy's Shop Manager, then connect
          again.
        </p>
      ) : (
        <>
          <label className="block text-sm">
            Shipping profile
            <NativeSelect value={shipping} onChange={(e) => setShipping(e.target.value)}>
              {data.shippingProfiles.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </NativeSelect>
          </label>
          <label className="block text-sm">
            Processing profile
            <NativeSelect value={processing} onChange={(e) => setProcessing(e.target.value)}>
              {data.processingProfiles.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </NativeSelect>
          </label>
          {data.productionPartners.length > 0 && (
            <label className="block text-sm">
              Production partner (who prints)
              <NativeSelect value={partner} onChange={(e) => setPartner(e.target.value)}>
                {data.productionPartners.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </NativeSelect>
            </label>
          )}
          <Button type="submit" size="sm" disabled={save.isPending || !shipping || !processing}>
            {save.isPending ? 'Saving...' : 'Save settings'}
          </Button>
        </>
      )}
    </form>
  );
}

/** The Etsy callback's outcome in the address. */
const ETSY_OUTCOME: AddressNoticeReader = (params) => {
  const failure = params.get('etsy_error');
  if (params.get('connected') === 'etsy') {
    return { title: 'Etsy Connected', description: 'Your shop is ready for uploads.', variant: 'success' };
  }
  if (params.get('etsy_setup')) {
    return { title: 'Almost There', description: 'Choose the shop’s shipping and processing profiles.' };
  }
  if (!failure) return null;
  return {
    title: 'Etsy Not Connected',
    description: CONNECT_ERRORS[failure] ?? CONNECT_ERRORS.failed,
    variant: 'destructive',
  };
};
const DROP_ETSY = (params: URLSearchParams) => {
  if (params.get('connected') === 'etsy') params.delete('connected');
  params.delete('etsy_error');
  params.delete('etsy_setup');
};

/** Etsy: connect by OAuth (the built-in sandbox shop when the server has no ETSY_API_KEY), up to five shops. */
export function EtsyCard({ onNavigate }: { onNavigate: (url: string) => void }) {
  useAddressNotice(ETSY_OUTCOME, DROP_ETSY);
  const { stores, isError } = usePlatformStores('etsy');
  const anyConnected = stores.some((s) => s.isConnected);
  // A shop's problem (a connection made before Podforge asked for the order scopes) is fixed by connecting it again.
  const reconnect = stores.some((s) => Boolean(s.problem));
  return (
    <IntegrationCard
      testId="store-etsy"
      icon={Store}
      name={platformLabel('etsy')}
      description="Handmade and vintage marketplace"
      badge={<ConnectionBadge stores={stores} isError={isError} />}
    >
      <div className="space-y-3">
        {stores.length > 0 && (
          <ul className="space-y-2">
            {stores.map((store) => (
              <StoreRow key={store.id} store={store} platform="etsy" sandboxPath="/integrations/etsy-sandbox">
                {store.status === 'pending' && <EtsySetupForm store={store} />}
              </StoreRow>
            ))}
          </ul>
        )}
        {(stores.length < 5 || reconnect) && (
          <Button
            className="w-full"
            variant={anyConnected && !reconnect ? 'outline' : 'default'}
            onClick={() => onNavigate('/auth/etsy/start')}
          >
            {reconnect ? 'Reconnect Etsy' : stores.length === 0 ? 'Connect Etsy' : 'Connect another shop'}
          </Button>
        )}
        {stores.some((s) => s.sandbox) && (
          <p className="text-xs text-slate-500">
            Practice shop: this Podforge is not linked to an Etsy app yet, so Etsy connects to a practice shop here.
            Nothing is listed on Etsy and no buyer sees it.
          </p>
        )}
      </div>
    </IntegrationCard>
  );
}
