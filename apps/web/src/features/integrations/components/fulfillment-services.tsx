import { Printer } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api-client';
import { useDisconnectPrintful } from '../api/disconnect-printful';
import { usePrintfulStatus } from '../api/get-printful-status';
import { useChoosePrintfulStore, usePrintfulStores } from '../api/printful-stores';
import { outcomeParam, useAddressNotice } from './address-notice';
import { GelatoCard } from './gelato-card';
import { IntegrationBadge, IntegrationCard } from './integration-card';
import { PrinterRouting } from './printer-routing';
import { PrintifyCard } from './printify-card';

/** What the OAuth callback reports back in `?printful=` (see printful.routes.ts). */
const OUTCOMES: Record<string, { title: string; description: string; variant: 'success' | 'destructive' }> = {
  connected: {
    title: 'Printful Connected',
    description: 'The live Printful catalogue is now in use.',
    variant: 'success',
  },
  denied: {
    title: 'Printful Not Connected',
    description: 'The connection was cancelled on Printful.',
    variant: 'destructive',
  },
  invalid_state: {
    title: 'Printful Not Connected',
    description: 'The connection request expired or did not come from this browser. Please try again.',
    variant: 'destructive',
  },
  failed: {
    title: 'Printful Not Connected',
    description: 'Printful did not accept the authorisation. Please try again.',
    variant: 'destructive',
  },
  choose_store: {
    title: 'Choose a Printful Store',
    description: 'Your Printful account has several stores: choose the one your orders go to.',
    variant: 'success',
  },
  not_configured: {
    title: 'Printful Not Available',
    description: 'The operator of this app has not enabled the Printful connection yet.',
    variant: 'destructive',
  },
};

/** After Connect, an account with several stores: the seller picks the one orders go to. */
function ChooseStore() {
  const { data: stores, isPending, isError } = usePrintfulStores(true);
  const choose = useChoosePrintfulStore();
  if (isPending) return <Skeleton className="h-16" />;
  if (isError || !stores) {
    return (
      <p role="alert" className="text-sm text-red-600">
        Your Printful stores could not be read. Connect again.
      </p>
    );
  }
  return (
    <div className="space-y-2" data-testid="printful-store-choice">
      <p className="text-sm text-slate-600">Choose the Printful store your orders go to:</p>
      {stores.map((store) => (
        <Button
          key={store.id}
          variant="outline"
          className="w-full"
          disabled={choose.isPending}
          onClick={() =>
            choose.mutate(store.id, {
              onSuccess: () => toast({ title: 'Printful Connected', description: `Orders go to ${store.name}.` }),
              onError: (error) =>
                toast({
                  title: 'Printful Not Connected',
                  description: error instanceof ApiError ? (error.serverMessage ?? error.message) : 'Please try again.',
                  variant: 'destructive',
                }),
            })
          }
        >
          {store.name}
        </Button>
      ))}
    </div>
  );
}

function PrintfulCard() {
  const { data: status, isPending, isError } = usePrintfulStatus();
  const disconnect = useDisconnectPrintful();
  const [confirming, setConfirming] = useState(false);

  // Where the seller's orders are printed: its own account (Connected), the built-in sandbox (Sandbox, also while
  // the operator's token serves the catalogue), or nowhere (Not connected).
  const badge = isPending ? (
    <Skeleton className="h-5 w-20" />
  ) : status?.connected && status.via === 'oauth' ? (
    <IntegrationBadge className="bg-green-100 text-green-800">Connected</IntegrationBadge>
  ) : status?.sandbox ? (
    <IntegrationBadge className="bg-amber-100 text-amber-800">Sandbox</IntegrationBadge>
  ) : (
    <IntegrationBadge className="bg-slate-100 text-slate-700">
      {isError ? 'Status unknown' : 'Not connected'}
    </IntegrationBadge>
  );

  return (
    <IntegrationCard
      testId="fulfillment-printful"
      icon={Printer}
      name="Printful"
      description="Print-on-demand fulfilment with 300+ products"
      badge={badge}
    >
      {status?.choosingStore && status.via !== 'oauth' ? (
        <ChooseStore />
      ) : status?.connected ? (
        <div className="space-y-3">
          <p className="text-sm text-slate-600">
            {status.via === 'token' ? 'Catalogue' : 'Store'}:{' '}
            <span className="font-medium text-slate-900">{status.storeName ?? 'Printful'}</span>
          </p>
          {status.via === 'token' ? (
            <>
              <p className="text-xs text-slate-500">
                Printful's live catalogue is connected for everyone using this app by its operator; your orders are not
                sent to that account.
              </p>
              {status.oauthConfigured && (
                <Button asChild variant="outline" className="w-full">
                  <a href="/api/printful/oauth/start">Connect</a>
                </Button>
              )}
            </>
          ) : (
            <Button
              variant="outline"
              className="w-full"
              disabled={disconnect.isPending}
              onClick={() => setConfirming(true)}
            >
              {disconnect.isPending ? 'Disconnecting...' : 'Disconnect'}
            </Button>
          )}
          {confirming && (
            <ConfirmDialog
              title="Disconnect Printful?"
              confirmLabel="Disconnect"
              onClose={() => setConfirming(false)}
              onConfirm={() =>
                disconnect.mutate(undefined, {
                  onSuccess: () =>
                    toast({ title: 'Printful Disconnected', description: 'The bundled catalogue is in use again.' }),
                  onError: (error) =>
                    toast({
                      title: 'Disconnect Failed',
                      description:
                        error instanceof ApiError ? (error.serverMessage ?? error.message) : 'Please try again.',
                      variant: 'destructive',
                    }),
                })
              }
            >
              <p>
                The catalogue goes back to the bundled Printful snapshot. Products you made stay as they are; you can
                connect again at any time.
              </p>
            </ConfirmDialog>
          )}
        </div>
      ) : status && !status.oauthConfigured ? (
        <div className="space-y-2">
          <Button className="w-full" disabled>
            Connect
          </Button>
          <p className="text-xs text-slate-500">
            The operator of this app has not enabled the Printful connection yet. Until then the bundled catalogue
            (Printful's products, sizes and prices) is used.
          </p>
        </div>
      ) : (
        // A full-page navigation: Printful's consent page, then back to our callback.
        <Button asChild className="w-full" disabled={isPending}>
          <a href="/api/printful/oauth/start">Connect</a>
        </Button>
      )}
      {status?.sandbox && (
        <p className="mt-3 text-xs text-slate-500" data-testid="printful-sandbox-note">
          Test orders: your store orders are printed by the built-in Printful Sandbox. Nothing is charged, and a test
          parcel ships with tracking.
          {status.oauthConfigured && ' Connect your own Printful account to have Printful print and ship them.'}
        </p>
      )}
    </IntegrationCard>
  );
}

const PRINTFUL_OUTCOME = outcomeParam('printful', OUTCOMES);
const DROP_PRINTFUL = (params: URLSearchParams) => params.delete('printful');

export function FulfillmentServices() {
  useAddressNotice(PRINTFUL_OUTCOME, DROP_PRINTFUL);

  return (
    <>
      <div className="mt-4 grid gap-4 md:grid-cols-3">
        <PrintfulCard />
        <GelatoCard />
        <PrintifyCard />
      </div>
      <PrinterRouting />
    </>
  );
}
