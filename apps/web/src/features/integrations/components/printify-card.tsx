import { PRINTIFY_BILLING_CURRENCIES } from '@podforge/contract/plain';
import { Factory } from 'lucide-react';
import { useState } from 'react';
import { useFulfilmentProviders } from '@/api/printers/get-fulfilment-providers';
import { PrinterBadge, PrinterPanel } from '@/components/printers/printer-panel';
import { Button } from '@/components/ui/button';
import { NativeSelect } from '@/components/ui/native-select';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api-client';
import {
  useChoosePrintifyShop,
  useConnectPrintify,
  useDisconnectPrintify,
  usePrintifyStatus,
  useUsePrintifySandbox,
} from '../api/printify';
import { outcomeParam, useAddressNotice } from './address-notice';
import { IntegrationCard } from './integration-card';

/** What the app flow's callback reports back in `?printify=` (see printify.routes.ts). */
const OUTCOMES: Record<string, { title: string; description: string; variant: 'success' | 'destructive' }> = {
  connected: {
    title: 'Printify Connected',
    description: 'Orders of Printify products go to your shop.',
    variant: 'success',
  },
  choose_shop: {
    title: 'Choose a Printify Shop',
    description: 'Your Printify account has several shops: choose the one your orders go to.',
    variant: 'success',
  },
  denied: {
    title: 'Printify Not Connected',
    description: 'The connection was declined on Printify.',
    variant: 'destructive',
  },
  invalid_state: {
    title: 'Printify Not Connected',
    description: 'The connection request expired or did not come from this browser. Please try again.',
    variant: 'destructive',
  },
  failed: {
    title: 'Printify Not Connected',
    description: 'Printify did not accept the authorisation. Please try again.',
    variant: 'destructive',
  },
  not_configured: {
    title: 'Printify App Not Available',
    description: 'The operator of this app has not set up the Printify app; connect with a personal access token.',
    variant: 'destructive',
  },
};

const PRINTIFY_OUTCOME = outcomeParam('printify', OUTCOMES);
const DROP_PRINTIFY = (params: URLSearchParams) => params.delete('printify');

/** Printify: a personal access token (with the currency the account bills in), or the built-in Printify Sandbox. */
export function PrintifyCard() {
  const providers = useFulfilmentProviders();
  const status = usePrintifyStatus();
  const connect = useConnectPrintify();
  const choose = useChoosePrintifyShop();
  const sandbox = useUsePrintifySandbox();
  const disconnect = useDisconnectPrintify();
  const [currency, setCurrency] = useState<(typeof PRINTIFY_BILLING_CURRENCIES)[number]>('USD');
  useAddressNotice(PRINTIFY_OUTCOME, DROP_PRINTIFY);
  const state = providers.data?.providers.find((p) => p.id === 'printify');
  const shops = status.data?.shops;

  const choice = shops?.length ? (
    <div className="space-y-2" data-testid="printify-shop-choice">
      <p className="text-sm text-slate-600">Choose the Printify shop your orders go to:</p>
      {shops.map((shop) => (
        <Button
          key={shop.id}
          variant="outline"
          className="w-full"
          disabled={choose.isPending}
          onClick={() =>
            choose.mutate(shop.id, {
              onSuccess: () => toast({ title: 'Printify Connected', description: `Orders go to ${shop.title}.` }),
              onError: (error) =>
                toast({
                  title: 'Printify Not Connected',
                  description: error instanceof ApiError ? (error.serverMessage ?? error.message) : 'Please try again.',
                  variant: 'destructive',
                }),
            })
          }
        >
          {shop.title}
        </Button>
      ))}
    </div>
  ) : undefined;

  return (
    <IntegrationCard
      testId="fulfillment-printify"
      icon={Factory}
      name="Printify"
      description="A network of print providers"
      badge={<PrinterBadge state={state} isPending={providers.isPending} isError={providers.isError} />}
    >
      <PrinterPanel
        name="Printify"
        state={state}
        isPending={providers.isPending}
        credential={{
          label: 'Personal access token',
          help: 'In Printify: My Profile → Connections → Generate. It is shown once and works for a year.',
        }}
        extraFields={
          <label className="block text-sm text-slate-700">
            Your Printify account bills in
            <NativeSelect
              className="mt-1"
              value={currency}
              onChange={(e) => setCurrency(e.target.value as typeof currency)}
            >
              {PRINTIFY_BILLING_CURRENCIES.map((c) => (
                <option key={c}>{c}</option>
              ))}
            </NativeSelect>
          </label>
        }
        choice={choice}
        sandboxHref="/integrations/printify-sandbox"
        {...(status.data?.oauthConfigured
          ? { oauth: { href: `/api/printify/oauth/start?currency=${currency}`, label: 'Connect with Printify' } }
          : {})}
        onConnect={async (token) => {
          const answer = await connect.mutateAsync({ token, currency });
          return answer.shops?.length ? 'Choose a Printify Shop' : undefined;
        }}
        onUseSandbox={() => sandbox.mutateAsync(undefined)}
        onDisconnect={() => disconnect.mutateAsync(undefined)}
      />
    </IntegrationCard>
  );
}
