import { Factory, Globe, Printer } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api-client';
import { useDisconnectPrintful } from '../api/disconnect-printful';
import { usePrintfulStatus } from '../api/get-printful-status';
import { ComingSoonCard, IntegrationBadge, IntegrationCard } from './integration-card';

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
  not_configured: {
    title: 'Printful Not Configured',
    description: 'Set PRINTFUL_CLIENT_ID and PRINTFUL_CLIENT_SECRET on the server to connect Printful.',
    variant: 'destructive',
  },
};

function PrintfulCard() {
  const { data: status, isPending, isError } = usePrintfulStatus();
  const disconnect = useDisconnectPrintful();

  const badge = isPending ? (
    <Skeleton className="h-5 w-20" />
  ) : status?.connected ? (
    <IntegrationBadge className="bg-green-100 text-green-800">Connected</IntegrationBadge>
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
      {status?.connected ? (
        <div className="space-y-3">
          <p className="text-sm text-slate-600">
            Store: <span className="font-medium text-slate-900">{status.storeName ?? 'Printful'}</span>
          </p>
          {status.via === 'token' ? (
            <p className="text-xs text-slate-500">Connected by the server's PRINTFUL_TOKEN setting.</p>
          ) : (
            <Button
              variant="outline"
              className="w-full"
              disabled={disconnect.isPending}
              onClick={() =>
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
              {disconnect.isPending ? 'Disconnecting...' : 'Disconnect'}
            </Button>
          )}
        </div>
      ) : status && !status.oauthConfigured ? (
        <div className="space-y-2">
          <Button className="w-full" disabled>
            Connect
          </Button>
          <p className="text-xs text-slate-500">
            Set PRINTFUL_CLIENT_ID and PRINTFUL_CLIENT_SECRET (or PRINTFUL_TOKEN) on the server to connect. Until then
            the bundled catalogue is used.
          </p>
        </div>
      ) : (
        // A full-page navigation: Printful's consent page, then back to our callback.
        <Button asChild className="w-full" disabled={isPending}>
          <a href="/api/printful/oauth/start">Connect</a>
        </Button>
      )}
    </IntegrationCard>
  );
}

export function FulfillmentServices() {
  const [params, setParams] = useSearchParams();
  const outcome = params.get('printful');

  const shown = useRef(false);

  useEffect(() => {
    if (!outcome) return;
    const notice = OUTCOMES[outcome];
    if (notice && !shown.current) {
      shown.current = true;
      // The Toaster picks up toasts raised before it subscribed (see use-toast.ts).
      toast(notice);
    }
    // Shown once: a reload must not repeat it.
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete('printful');
        return next;
      },
      { replace: true },
    );
  }, [outcome, setParams]);

  return (
    <div className="mt-4 grid gap-4 md:grid-cols-3">
      <PrintfulCard />
      <ComingSoonCard
        testId="fulfillment-gelato"
        icon={Globe}
        name="Gelato"
        description="Local production in 32+ countries"
      />
      <ComingSoonCard
        testId="fulfillment-printify"
        icon={Factory}
        name="Printify"
        description="A network of print providers"
      />
    </div>
  );
}
