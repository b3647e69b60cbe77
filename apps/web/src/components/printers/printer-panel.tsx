import type { TFulfilmentProviderState } from '@podforge/contract';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { inputClass } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api-client';
import { cn } from '@/lib/utils';

/**
 * A printer network's card content (Printify, Gelato): its state from `GET /api/fulfillment/providers` as a badge,
 * and its actions: connect with the printer's key or token, or use its built-in sandbox; once connected, the
 * account, the sandbox page and Disconnect (asked first). The feature wraps them in its card and wires the calls.
 */

type State = Pick<TFulfilmentProviderState, 'available' | 'connected' | 'sandbox' | 'accountName'>;

const reason = (error: unknown) =>
  error instanceof ApiError ? (error.serverMessage ?? error.message) : 'Please try again.';

export function PrinterBadge({ state, isPending, isError }: { state?: State; isPending: boolean; isError: boolean }) {
  if (isPending) return <Skeleton className="h-5 w-20" />;
  const [label, look] = !state
    ? [isError ? 'Status unknown' : 'Not connected', 'bg-slate-100 text-slate-700']
    : !state.available
      ? ['Coming Soon', 'bg-slate-100 text-slate-500']
      : state.connected
        ? ['Connected', 'bg-green-100 text-green-800']
        : state.sandbox
          ? ['Sandbox', 'bg-amber-100 text-amber-800']
          : ['Not connected', 'bg-slate-100 text-slate-700'];
  return <span className={cn('shrink-0 rounded-full px-2.5 py-0.5 text-xs font-medium', look)}>{label}</span>;
}

export type PrinterPanelProps = {
  /** 'Printify' */
  name: string;
  state?: State;
  isPending: boolean;
  /** The secret the printer gives the seller: its label and where to find it. */
  credential: { label: string; help: ReactNode };
  /** More fields sent with Connect (e.g. the billing currency). */
  extraFields?: ReactNode;
  /** Whether the extra fields are filled in, when Connect and the sandbox need them (Gelato's contact email). */
  extraReady?: boolean;
  /** What is missing while `extraReady` is false, said under the buttons it keeps disabled. */
  extraMissing?: string;
  /** More of the connected account (e.g. the webhook URL to enter in the printer's dashboard). */
  connectedDetails?: ReactNode;
  /** Shown instead of the form while the seller must choose (e.g. one of the account's shops). */
  choice?: ReactNode;
  /** Where the sandbox shows what it received. */
  sandboxHref: string;
  /** The printer's own consent page (a full-page navigation), when this server has an app there. */
  oauth?: { href: string; label: string };
  /** Connects; may answer the toast's title when the outcome is not simply 'Connected'. */
  onConnect(secret: string): Promise<unknown>;
  onUseSandbox(): Promise<unknown>;
  onDisconnect(): Promise<unknown>;
};

export function PrinterPanel(props: PrinterPanelProps) {
  const { name, state, isPending, credential } = props;
  const [secret, setSecret] = useState('');
  const [busy, setBusy] = useState<'connect' | 'sandbox' | 'disconnect' | null>(null);
  const [confirming, setConfirming] = useState(false);
  const fieldId = useId();
  const missingId = useId();
  const ready = props.extraReady ?? true;
  const waiting = !ready && props.extraMissing ? missingId : undefined;

  const run = async (what: 'connect' | 'sandbox' | 'disconnect', call: () => Promise<unknown>, done: string) => {
    setBusy(what);
    try {
      const said = await call();
      // A call may name its own outcome (e.g. 'Choose a Printify Shop' when the account has several).
      toast({ title: typeof said === 'string' ? said : done });
      if (what === 'connect') setSecret('');
    } catch (error) {
      toast({
        title: what === 'disconnect' ? 'Disconnect Failed' : `${name} Not Connected`,
        description: reason(error),
        variant: 'destructive',
      });
    } finally {
      setBusy(null);
    }
  };

  if (isPending) return <Skeleton className="h-24" />;
  if (state && !state.available) {
    return (
      <Button className="w-full" disabled>
        Not Available
      </Button>
    );
  }
  if (props.choice) return <>{props.choice}</>;

  if (state?.connected || state?.sandbox) {
    return (
      <div className="space-y-3">
        <p className="text-sm text-slate-600">
          {state.sandbox ? 'Orders go to' : 'Shop'}:{' '}
          <span className="font-medium text-slate-900">{state.accountName ?? name}</span>
        </p>
        {state.sandbox && (
          <p className="text-xs text-slate-500">
            Orders of {name} products are printed by the built-in {name} Sandbox: nothing is charged, and a test parcel
            ships with tracking.{' '}
            <Link to={props.sandboxHref} className="text-brand-600 hover:underline">
              See what it received
            </Link>
          </p>
        )}
        {props.connectedDetails}
        <Button variant="outline" className="w-full" disabled={busy !== null} onClick={() => setConfirming(true)}>
          {busy === 'disconnect' ? 'Disconnecting...' : 'Disconnect'}
        </Button>
        {confirming && (
          <ConfirmDialog
            title={`Disconnect ${name}?`}
            confirmLabel="Disconnect"
            onClose={() => setConfirming(false)}
            onConfirm={() => void run('disconnect', props.onDisconnect, `${name} Disconnected`)}
          >
            <p>
              Orders of {name} products wait until you connect {name} or its sandbox again. Products you made stay as
              they are.
            </p>
          </ConfirmDialog>
        )}
      </div>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!secret.trim() || !ready) return;
    void run('connect', () => props.onConnect(secret.trim()), `${name} Connected`);
  };

  return (
    <form className="space-y-2" onSubmit={submit}>
      {props.oauth && (
        <>
          {props.extraFields}
          <Button asChild className="w-full">
            <a href={props.oauth.href}>{props.oauth.label}</a>
          </Button>
          <p className="text-center text-xs text-slate-500">or paste a token</p>
        </>
      )}
      <label htmlFor={fieldId} className="block text-sm font-medium text-slate-700">
        {credential.label}
      </label>
      <input
        id={fieldId}
        type="password"
        autoComplete="off"
        className={inputClass}
        value={secret}
        onChange={(e) => setSecret(e.target.value)}
      />
      <p className="text-xs text-slate-500">{credential.help}</p>
      {!props.oauth && props.extraFields}
      <Button
        type="submit"
        className="w-full"
        disabled={busy !== null || !secret.trim() || !ready}
        aria-describedby={waiting}
      >
        {busy === 'connect' ? 'Connecting...' : 'Connect'}
      </Button>
      <Button
        type="button"
        variant="outline"
        className="w-full"
        disabled={busy !== null || !ready}
        aria-describedby={waiting}
        onClick={() => void run('sandbox', props.onUseSandbox, `${name} Sandbox in Use`)}
      >
        {busy === 'sandbox' ? 'Starting...' : `Use the ${name} Sandbox`}
      </Button>
      {waiting && (
        <p id={missingId} className="text-xs text-amber-700" data-testid="printer-missing">
          {props.extraMissing}
        </p>
      )}
    </form>
  );
}
