import type { TIntegration, TShopifySyncResult } from '@podforge/contract';
import { platformLabel, SHOPIFY_DOMAIN_PATTERN, shopifyDomainMessage } from '@podforge/contract/plain';
import { ShoppingBag } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { usePlatformStores } from '@/api/integrations/get-integrations';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api-client';
import { useDisconnectShopify, useShopifyConnectOptions, useSyncShopify, validateShopifyDomain } from '../api/shopify';
import { type AddressNoticeReader, useAddressNotice } from './address-notice';
import { AmazonCard } from './amazon-card';
import { EtsyCard } from './etsy-card';
import { ConnectionBadge, IntegrationCard, StoreStatusBadges } from './integration-card';
import { WooCommerceCard } from './woocommerce-card';

/** Spec section 9: the Store Platforms skeleton shows this long first. */
export const STORE_SKELETON_MS = 700;
const DOMAIN_NOT_FOUND = 'The Shopify store domain you entered does not exist. Please double-check your spelling.';
const DOMAIN_UNVERIFIED = 'Unable to verify store domain. Please try again.';

/** What the OAuth callback reports in `?shopify_error=` (shopify.routes.ts). */
const CONNECT_ERRORS: Record<string, string> = {
  invalid_state: 'The connection request expired or did not come from this browser. Please try again.',
  invalid_hmac: 'The answer from Shopify could not be verified. Please try again.',
  invalid_shop: shopifyDomainMessage(),
  failed: 'Shopify did not accept the authorisation. Please try again.',
  install_from_app_store: 'Install Podforge from the Shopify App Store: Shopify brings you back here with your store.',
};

/**
 * A public app listed in the Shopify App Store: the merchant installs it from its listing and Shopify sends them
 * back here with their store (the App URL), so no domain is asked for.
 */
function InstallFromAppStore({ url }: { url: string }) {
  return (
    <div className="space-y-2" data-testid="shopify-app-store">
      <p className="text-sm text-slate-600">
        Install Podforge from the Shopify App Store and approve it for your store: Shopify brings you back here with
        your store connected.
      </p>
      <Button asChild className="w-full">
        <a href={url} target="_blank" rel="noopener noreferrer">
          Install from the Shopify App Store
        </a>
      </Button>
    </div>
  );
}

const errorText = (error: unknown, fallback: string) =>
  error instanceof ApiError ? (error.serverMessage ?? fallback) : fallback;

function ConnectForm({ onNavigate }: { onNavigate: (url: string) => void }) {
  const [domain, setDomain] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const shop = domain.trim().toLowerCase();
  const valid = SHOPIFY_DOMAIN_PATTERN.test(shop);

  const onChange = (value: string) => {
    setDomain(value);
    const next = value.trim().toLowerCase();
    // Spec section 5: an empty input clears the message.
    setMessage(next === '' || SHOPIFY_DOMAIN_PATTERN.test(next) ? null : shopifyDomainMessage());
  };

  const connect = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!valid) return;
    setChecking(true);
    try {
      await validateShopifyDomain(shop);
      onNavigate(`/auth/shopify/start?shop=${encodeURIComponent(shop)}`);
    } catch (error) {
      setMessage(error instanceof ApiError ? (error.serverMessage ?? DOMAIN_NOT_FOUND) : DOMAIN_UNVERIFIED);
      setChecking(false);
    }
  };

  return (
    <form className="space-y-2" onSubmit={connect} noValidate>
      <label htmlFor="shopify-domain" className="text-sm font-medium">
        Store domain
      </label>
      <input
        id="shopify-domain"
        className="h-10 w-full rounded-md border border-slate-300 px-3 text-sm"
        placeholder="your-store.myshopify.com"
        value={domain}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={message !== null}
        aria-describedby={message ? 'shopify-domain-message' : undefined}
        autoComplete="off"
      />
      {message && (
        <p id="shopify-domain-message" role="alert" className="text-sm text-red-600">
          {message}
        </p>
      )}
      <Button type="submit" className="w-full" disabled={!valid || checking}>
        {checking ? 'Checking...' : 'Connect'}
      </Button>
    </form>
  );
}

/** 'Synced successfully', and what Sync found changed in the store, in a seller's words. */
export function syncSummary(result: Pick<TShopifySyncResult, 'listingsRemoved' | 'listingsChanged'>): string {
  const products = (n: number) => (n === 1 ? '1 product was' : `${n} products were`);
  const found = [
    result.listingsRemoved > 0 && `${products(result.listingsRemoved)} deleted or archived in your store`,
    result.listingsChanged > 0 && `${products(result.listingsChanged)} edited in your store`,
  ].filter(Boolean);
  if (found.length === 0) return 'Synced successfully';
  return `Synced successfully. ${found.join('; ')}: see My Products.`;
}

function ConnectedStore({ store, onNavigate }: { store: TIntegration; onNavigate: (url: string) => void }) {
  const sync = useSyncShopify();
  const disconnect = useDisconnectShopify();
  const [feedback, setFeedback] = useState<{ ok: boolean; text: string } | null>(null);
  const [confirming, setConfirming] = useState(false);

  return (
    <li className="space-y-3 rounded-lg border border-slate-200 p-3" data-testid="shopify-store">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">{store.name}</span>
        <StoreStatusBadges store={store} />
      </div>
      <p className="text-xs text-slate-500">
        Last sync: {store.lastSyncAt ? new Date(store.lastSyncAt).toLocaleString() : 'never'}
      </p>
      {store.problem && (
        // What Shopify refused and what to do (e.g. its approval of protected customer data for order data).
        <p role="alert" className="text-sm text-amber-800" data-testid="shopify-store-problem">
          {store.problem}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        {(store.status === 'error' || (store.problem && store.isConnected)) && (
          // Shopify no longer accepts the store's access, or refused part of it: approve Podforge again for the shop.
          <Button size="sm" onClick={() => onNavigate(`/auth/shopify/reconnect/${encodeURIComponent(store.id)}`)}>
            {store.status === 'error' ? 'Reconnect' : 'Connect again'}
          </Button>
        )}
        <Button
          size="sm"
          disabled={!store.isConnected || sync.isPending}
          onClick={() => {
            setFeedback(null);
            sync.mutate(store.id, {
              onSuccess: (result) => setFeedback({ ok: true, text: syncSummary(result) }),
              onError: (error) => setFeedback({ ok: false, text: errorText(error, 'Sync failed') }),
            });
          }}
        >
          {sync.isPending ? 'Syncing...' : 'Sync'}
        </Button>
        <Button size="sm" variant="outline" disabled={disconnect.isPending} onClick={() => setConfirming(true)}>
          Disconnect
        </Button>
        {confirming && (
          <ConfirmDialog
            title={`Disconnect ${store.name}?`}
            confirmLabel="Disconnect"
            onClose={() => setConfirming(false)}
            onConfirm={() =>
              disconnect.mutate(store.id, {
                onSuccess: () => toast({ title: 'Store Disconnected', description: `${store.name} was disconnected.` }),
                onError: (error) =>
                  toast({
                    title: 'Disconnect Failed',
                    description: errorText(error, 'Please try again.'),
                    variant: 'destructive',
                  }),
              })
            }
          >
            <p>
              Products stop going to this store and its orders are no longer read. What is already in the store stays
              there; scheduled uploads to it will fail until you connect it again.
            </p>
          </ConfirmDialog>
        )}
        {store.sandbox && (
          <Button size="sm" variant="link" asChild>
            <Link to="/integrations/shopify-sandbox">View sandbox store</Link>
          </Button>
        )}
      </div>
      {feedback && (
        <p role="status" className={`text-sm ${feedback.ok ? 'text-green-700' : 'text-red-600'}`}>
          {feedback.text}
        </p>
      )}
    </li>
  );
}

function ShopifyCard({ onNavigate }: { onNavigate: (url: string) => void }) {
  const { stores, isError } = usePlatformStores('shopify');
  const anyConnected = stores.some((s) => s.isConnected);
  const sandbox = stores.some((s) => s.sandbox);
  const appStoreUrl = useShopifyConnectOptions().data?.appStoreUrl ?? null;

  return (
    <IntegrationCard
      testId="store-shopify"
      icon={ShoppingBag}
      name={platformLabel('shopify')}
      description="Push products to your Shopify store"
      badge={<ConnectionBadge stores={stores} isError={isError} />}
    >
      <div className="space-y-3">
        {stores.length > 0 && (
          <ul className="space-y-2">
            {stores.map((store) => (
              <ConnectedStore key={store.id} store={store} onNavigate={onNavigate} />
            ))}
          </ul>
        )}
        {!anyConnected &&
          (appStoreUrl ? <InstallFromAppStore url={appStoreUrl} /> : <ConnectForm onNavigate={onNavigate} />)}
        {sandbox && (
          <p className="text-xs text-slate-500">
            Sandbox: the operator of this app has not set up its Shopify app yet, so stores connect to a practice shop.
            Nothing reaches a real store.
          </p>
        )}
      </div>
    </IntegrationCard>
  );
}

/** The Shopify OAuth callback's outcome in the address. */
const SHOPIFY_OUTCOME: AddressNoticeReader = (params) => {
  const failure = params.get('shopify_error');
  if (params.get('connected') === 'shopify') {
    return { title: 'Shopify Connected', description: 'Your store is ready for uploads.', variant: 'success' };
  }
  if (!failure) return null;
  return {
    title: 'Shopify Not Connected',
    description: CONNECT_ERRORS[failure] ?? CONNECT_ERRORS.failed,
    variant: 'destructive',
  };
};
const DROP_SHOPIFY = (params: URLSearchParams) => {
  params.delete('connected');
  params.delete('shopify_error');
};

const goTo = (url: string) => window.location.assign(url);

export function StorePlatforms({ onNavigate = goTo }: { onNavigate?: (url: string) => void }) {
  const [loading, setLoading] = useState(true);
  useAddressNotice(SHOPIFY_OUTCOME, DROP_SHOPIFY);
  useEffect(() => {
    const timer = setTimeout(() => setLoading(false), STORE_SKELETON_MS);
    return () => clearTimeout(timer);
  }, []);

  if (loading) {
    return (
      <div className="mt-4 grid gap-4 md:grid-cols-2" aria-busy="true" data-testid="store-platforms-loading">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="h-40" />
        ))}
      </div>
    );
  }
  return (
    // Each card as tall as its own content: a short card (Amazon beside WooCommerce's settings) is not stretched
    // into empty space.
    <div className="mt-4 grid items-start gap-4 md:grid-cols-2" data-testid="store-platforms">
      <ShopifyCard onNavigate={onNavigate} />
      <EtsyCard onNavigate={onNavigate} />
      <AmazonCard onNavigate={onNavigate} />
      <WooCommerceCard />
    </div>
  );
}
