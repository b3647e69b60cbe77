import { Globe } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { CopyButton } from '@/components/ui/copy-button';
import { inputClass } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api-client';
import { useConnectGelato, useDisconnectGelato, useGelatoStatus } from '../api/gelato';
import { IntegrationBadge, IntegrationCard } from './integration-card';

const failure = (error: unknown) =>
  error instanceof ApiError ? (error.serverMessage ?? error.message) : 'Please try again.';

/**
 * Gelato: connect with the account's API key (Gelato checks it first) or use the built-in Gelato sandbox; a contact
 * email goes on every shipping address, as Gelato requires. Connected: what it is, the webhook URL to enter in
 * Gelato's dashboard (Gelato has no API for it), the sandbox's page, and Disconnect.
 */
export function GelatoCard() {
  const { data: status, isPending, isError } = useGelatoStatus();
  const connect = useConnectGelato();
  const disconnect = useDisconnectGelato();
  const [apiKey, setApiKey] = useState('');
  const [email, setEmail] = useState('');
  const [confirming, setConfirming] = useState(false);

  const badge = isPending ? (
    <Skeleton className="h-5 w-20" />
  ) : status?.connected ? (
    <IntegrationBadge className="bg-green-100 text-green-800">
      {status.sandbox ? 'Sandbox' : 'Connected'}
    </IntegrationBadge>
  ) : (
    <IntegrationBadge className="bg-slate-100 text-slate-700">
      {isError ? 'Status unknown' : 'Not connected'}
    </IntegrationBadge>
  );

  const send = (mode: 'live' | 'sandbox') =>
    connect.mutate(
      mode === 'live' ? { mode, apiKey: apiKey.trim(), email: email.trim() } : { mode, email: email.trim() },
      {
        onSuccess: () => {
          setApiKey('');
          toast({
            title: mode === 'live' ? 'Gelato Connected' : 'Gelato Sandbox Connected',
            description:
              mode === 'live'
                ? 'Orders can go to your Gelato account.'
                : 'Orders can go to the built-in Gelato sandbox.',
            variant: 'success',
          });
        },
        onError: (error) =>
          toast({ title: 'Gelato Not Connected', description: failure(error), variant: 'destructive' }),
      },
    );

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    send('live');
  };

  return (
    <IntegrationCard
      testId="fulfillment-gelato"
      icon={Globe}
      name="Gelato"
      description="Local production in 32+ countries"
      badge={badge}
    >
      {isPending ? (
        <Skeleton className="h-24" />
      ) : status?.connected ? (
        <div className="space-y-3">
          <p className="text-sm text-slate-600">
            {status.sandbox ? 'The built-in Gelato sandbox: nothing is printed or charged.' : 'Your Gelato account.'}{' '}
            Contact email: <span className="font-medium text-slate-900">{status.email}</span>
          </p>
          {status.sandbox ? (
            <Link to="/integrations/gelato-sandbox" className="block text-sm text-brand-600 hover:underline">
              Open the Gelato sandbox
            </Link>
          ) : status.webhookUrl ? (
            <div className="space-y-1">
              <p className="text-xs text-slate-500">
                Gelato sends order updates only to a URL entered in its dashboard (Developer, Webhooks). Enter this one:
              </p>
              <div className="flex items-center gap-2">
                <code
                  className="min-w-0 flex-1 truncate rounded bg-slate-100 px-2 py-1 text-xs"
                  data-testid="gelato-webhook-url"
                >
                  {status.webhookUrl}
                </code>
                <CopyButton value={status.webhookUrl} label="Webhook URL" />
              </div>
            </div>
          ) : (
            <p className="text-xs text-slate-500">
              The webhook URL to enter in Gelato's dashboard appears here once an order has gone to Gelato.
            </p>
          )}
          <Button
            variant="outline"
            className="w-full"
            disabled={disconnect.isPending}
            onClick={() => setConfirming(true)}
          >
            {disconnect.isPending ? 'Disconnecting...' : 'Disconnect'}
          </Button>
          {confirming && (
            <ConfirmDialog
              title="Disconnect Gelato?"
              confirmLabel="Disconnect"
              onClose={() => setConfirming(false)}
              onConfirm={() =>
                disconnect.mutate(undefined, {
                  onSuccess: () =>
                    toast({ title: 'Gelato Disconnected', description: 'New orders no longer go to Gelato.' }),
                  onError: (error) =>
                    toast({ title: 'Disconnect Failed', description: failure(error), variant: 'destructive' }),
                })
              }
            >
              <p>New orders stop going to Gelato. Orders already there go on; you can connect again at any time.</p>
            </ConfirmDialog>
          )}
        </div>
      ) : (
        <form className="space-y-2" onSubmit={onSubmit} aria-label="Connect Gelato">
          <label className="block text-sm">
            <span className="text-slate-700">Contact email (on every shipping address)</span>
            <input
              type="email"
              className={inputClass}
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              autoComplete="email"
              required
            />
          </label>
          <label className="block text-sm">
            <span className="text-slate-700">Gelato API key</span>
            <input
              type="password"
              className={inputClass}
              value={apiKey}
              onChange={(e) => setApiKey(e.target.value)}
              autoComplete="off"
            />
          </label>
          <Button type="submit" className="w-full" disabled={connect.isPending || !apiKey.trim() || !email.trim()}>
            {connect.isPending ? 'Connecting...' : 'Connect'}
          </Button>
          <Button
            type="button"
            variant="outline"
            className="w-full"
            disabled={connect.isPending || !email.trim()}
            onClick={() => send('sandbox')}
          >
            Use the Gelato sandbox
          </Button>
        </form>
      )}
    </IntegrationCard>
  );
}
