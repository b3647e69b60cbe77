import type { TIntegration } from '@podforge/contract';
import type { Store } from 'lucide-react';
import type * as React from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { cn } from '@/lib/utils';

/** A store platform or fulfilment service: icon, name, what it is, a status badge and its actions. */
export function IntegrationCard({
  icon: Icon,
  name,
  description,
  badge,
  testId,
  children,
}: {
  icon: typeof Store;
  name: string;
  description: string;
  badge?: React.ReactNode;
  /** e.g. `store-shopify`, `fulfillment-printful` */
  testId: string;
  children: React.ReactNode;
}) {
  return (
    <Card className="flex flex-col gap-4 p-5" data-testid={testId}>
      <div className="flex items-start justify-between gap-3">
        <div className="flex items-center gap-3">
          <div className="flex h-10 w-10 items-center justify-center rounded-lg bg-slate-100">
            <Icon className="h-5 w-5 text-slate-600" aria-hidden="true" />
          </div>
          <div>
            <h3 className="font-semibold">{name}</h3>
            <p className="text-sm text-slate-500">{description}</p>
          </div>
        </div>
        {badge}
      </div>
      <div className="mt-auto">{children}</div>
    </Card>
  );
}

export function IntegrationBadge({ className, children }: { className: string; children: React.ReactNode }) {
  return <span className={cn('shrink-0 rounded-full px-2.5 py-0.5 text-xs font-medium', className)}>{children}</span>;
}

/** A platform card's status: Connected while one of its stores is, else Not connected (Status unknown when unread). */
export function ConnectionBadge({
  stores,
  isError,
}: {
  stores: readonly Pick<TIntegration, 'isConnected'>[];
  isError: boolean;
}) {
  return stores.some((s) => s.isConnected) ? (
    <IntegrationBadge className="bg-green-100 text-green-800">Connected</IntegrationBadge>
  ) : (
    <IntegrationBadge className="bg-slate-100 text-slate-700">
      {isError ? 'Status unknown' : 'Not connected'}
    </IntegrationBadge>
  );
}

/** One store's status (Connected, Setup needed, Reconnect needed) and its Sandbox label, beside its name. */
export function StoreStatusBadges({ store }: { store: Pick<TIntegration, 'isConnected' | 'status' | 'sandbox'> }) {
  const statusLabel = store.isConnected
    ? 'Connected'
    : store.status === 'pending'
      ? 'Setup needed'
      : store.status === 'error'
        ? 'Reconnect needed'
        : store.status;
  return (
    <>
      <IntegrationBadge
        className={
          store.isConnected
            ? 'bg-green-100 text-green-800'
            : store.status === 'pending'
              ? 'bg-amber-100 text-amber-800'
              : 'bg-red-100 text-red-800'
        }
      >
        {statusLabel}
      </IntegrationBadge>
      {store.sandbox && <IntegrationBadge className="bg-violet-100 text-violet-800">Sandbox</IntegrationBadge>}
    </>
  );
}

/** Spec: the platforms and services not built yet say so, with nothing to click. */
export function ComingSoonCard(props: { icon: typeof Store; name: string; description: string; testId: string }) {
  return (
    <IntegrationCard
      {...props}
      badge={<IntegrationBadge className="bg-amber-100 text-amber-800">Coming Soon</IntegrationBadge>}
    >
      <Button variant="secondary" className="w-full" disabled>
        Not Available
      </Button>
    </IntegrationCard>
  );
}
