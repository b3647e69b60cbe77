import { Globe } from 'lucide-react';
import { useState } from 'react';
import { PrinterBadge, PrinterPanel } from '@/components/printers/printer-panel';
import { CopyButton } from '@/components/ui/copy-button';
import { inputClass } from '@/components/ui/input';
import { useConnectGelato, useDisconnectGelato, useGelatoStatus } from '../api/gelato';
import { IntegrationCard } from './integration-card';

/**
 * Gelato on the shared printer panel: connect with the account's API key (Gelato checks it first) or use the
 * built-in Gelato sandbox; a contact email goes on every shipping address, as Gelato requires. Connected: the
 * contact email, the webhook URL to enter in Gelato's dashboard (Gelato has no API for it), and Disconnect.
 */
export function GelatoCard() {
  const { data: status, isPending, isError } = useGelatoStatus();
  const connect = useConnectGelato();
  const disconnect = useDisconnectGelato();
  const [email, setEmail] = useState('');
  const state = status && {
    available: true,
    connected: status.connected && !status.sandbox,
    sandbox: status.connected && status.sandbox,
    accountName: null,
  };

  const details = status?.connected ? (
    <div className="space-y-1">
      <p className="text-sm text-slate-600">
        Contact email: <span className="font-medium text-slate-900">{status.email}</span>
      </p>
      {status.sandbox ? null : status.webhookUrl ? (
        <>
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
        </>
      ) : (
        <p className="text-xs text-slate-500">
          The webhook URL to enter in Gelato's dashboard appears here once an order has gone to Gelato.
        </p>
      )}
    </div>
  ) : undefined;

  return (
    <IntegrationCard
      testId="fulfillment-gelato"
      icon={Globe}
      name="Gelato"
      description="Local production in 32+ countries"
      badge={<PrinterBadge state={state} isPending={isPending} isError={isError} />}
    >
      <PrinterPanel
        name="Gelato"
        state={state}
        isPending={isPending}
        credential={{
          label: 'Gelato API key',
          help: 'An API key from your Gelato dashboard; Gelato checks it before it is kept.',
        }}
        extraFields={
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
        }
        extraReady={email.trim().length > 0}
        extraMissing="Enter the contact email first: Gelato puts it on every shipping address, the sandbox's too."
        connectedDetails={details}
        sandboxHref="/integrations/gelato-sandbox"
        onConnect={(apiKey) => connect.mutateAsync({ mode: 'live', apiKey, email: email.trim() })}
        onUseSandbox={() => connect.mutateAsync({ mode: 'sandbox', email: email.trim() })}
        onDisconnect={() => disconnect.mutateAsync(undefined)}
      />
    </IntegrationCard>
  );
}
