import {
  FULFILMENT_NETWORKS,
  platformLabel,
  type TFulfilmentNetwork,
  type TFulfilmentProviderState,
  type TProviderProduct,
  type TProviderProducts,
} from '@podforge/contract';
import { notFound } from '../../lib/errors';
import { matchesSearch } from '../catalog/catalog.service';
import type { FulfilmentProviders } from './fulfilment-provider';
import { catalogueFor, type PrinterCatalogueDeps } from './printer-catalogue';

/**
 * What the seller sees of the printer networks, generic over the registry: each network's connection and sandbox
 * state, and its catalogue in one shape. A network with no adapter registered is listed as not available.
 */

export async function providerStates(
  printers: FulfilmentProviders,
  workspaceId: string,
): Promise<TFulfilmentProviderState[]> {
  return Promise.all(
    FULFILMENT_NETWORKS.map(async (id) => {
      const adapters = printers.ofNetwork(id);
      const accounts = await Promise.all(
        adapters.map(async (a) => ({ adapter: a, account: await a.account(workspaceId) })),
      );
      const own = accounts.find((x) => !x.adapter.sandbox && x.account);
      const sandbox = accounts.find((x) => x.adapter.sandbox && x.account);
      return {
        id,
        name: platformLabel(id),
        available: adapters.length > 0,
        connected: Boolean(own),
        sandbox: !own && Boolean(sandbox),
        accountName: (own ?? sandbox)?.account?.name ?? null,
      };
    }),
  );
}

export async function providerProducts(
  deps: PrinterCatalogueDeps,
  network: TFulfilmentNetwork,
  workspaceId: string,
  search: string | undefined,
): Promise<TProviderProducts> {
  const catalogue = await catalogueFor(deps, network, workspaceId);
  const listings = (await catalogue.listings()).filter((l) => matchesSearch(l, search));
  return {
    provider: network,
    source: catalogue.source,
    products: listings.map((l) => ({ id: String(l.id), provider: network, name: l.name, description: l.description })),
  };
}

export async function providerProduct(
  deps: PrinterCatalogueDeps,
  network: TFulfilmentNetwork,
  workspaceId: string,
  id: string,
): Promise<TProviderProduct> {
  const catalogue = await catalogueFor(deps, network, workspaceId);
  const listing = (await catalogue.listings()).find((l) => String(l.id) === id);
  if (!listing) throw notFound(`${platformLabel(network)} product ${id}`);
  const p = await catalogue.product(listing);
  return {
    id: String(p.id),
    provider: network,
    name: p.name,
    description: p.description,
    type: p.type,
    brand: p.brand,
    model: p.model,
    currency: p.currency,
    variants: p.variants.map((v) => ({
      id: String(v.id),
      color: v.color,
      colorHex: v.colorCode || null,
      size: v.size,
      baseCost: v.price,
    })),
    placements: p.printAreas.map((a) => ({
      placement: a.placement,
      widthPx: a.widthPx,
      heightPx: a.heightPx,
      dpi: a.dpi,
    })),
  };
}
