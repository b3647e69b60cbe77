import type { TIntegration } from '@podforge/contract';
import type * as React from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api-client';
import { useDisconnectStore } from '../api/stores';
import { StoreStatusBadges } from './integration-card';

export const errorText = (error: unknown, fallback: string) =>
  error instanceof ApiError ? (error.serverMessage ?? fallback) : fallback;

/** One connected Etsy shop, WooCommerce store or Amazon seller: name, status, Sandbox label, Disconnect, its sandbox page. */
export function StoreRow({
  store,
  platform,
  sandboxPath,
  children,
}: {
  store: TIntegration;
  platform: 'etsy' | 'woocommerce' | 'amazon';
  sandboxPath: string;
  children?: React.ReactNode;
}) {
  const disconnect = useDisconnectStore(platform);
  return (
    <li className="space-y-3 rounded-lg border border-slate-200 p-3" data-testid={`${platform}-store`}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">{store.name}</span>
        <StoreStatusBadges store={store} />
      </div>
      {store.problem && (
        <p role="alert" className="text-sm text-amber-800">
          {store.problem}
        </p>
      )}
      {children}
      <div className="flex flex-wrap gap-2">
        <Button
          size="sm"
          variant="outline"
          disabled={disconnect.isPending}
          onClick={() =>
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
          Disconnect
        </Button>
        {store.sandbox && (
          <Button size="sm" variant="link" asChild>
            <Link to={sandboxPath}>
              {platform === 'etsy'
                ? 'View sandbox shop'
                : platform === 'amazon'
                  ? 'View sandbox seller'
                  : 'View sandbox store'}
            </Link>
          </Button>
        )}
      </div>
    </li>
  );
}
