import type { TFulfilmentNetwork } from '@podforge/contract';
import { platformLabel } from '@podforge/contract';
import { notImplemented } from '../../lib/errors';
import type { CatalogSourceImpl } from '../catalog/catalog.service';
import type { FulfilmentProviders } from './fulfilment-provider';

/** What finding a printer network's catalogue needs: the registry, and Printful's own (live or bundled) catalogue. */
export type PrinterCatalogueDeps = {
  printers: FulfilmentProviders;
  printful: { catalogFor(workspaceId: string): Promise<CatalogSourceImpl> };
};

/**
 * The catalogue a workspace sees for a printer network: Printful's as it always was (its connection, the server's
 * token, else the bundled snapshot); another network's from its connected adapter, else its first adapter (which
 * shows its sandbox's). A network with no adapter answers 501.
 */
export async function catalogueFor(
  deps: PrinterCatalogueDeps,
  network: TFulfilmentNetwork | string,
  workspaceId: string,
): Promise<CatalogSourceImpl> {
  if (network === 'printful') return deps.printful.catalogFor(workspaceId);
  const adapters = deps.printers.ofNetwork(network);
  const first = adapters[0];
  if (!first) throw notImplemented(`${platformLabel(network)} is not available yet`);
  const chosen = (await deps.printers.forWorkspace(workspaceId, network))?.provider ?? first;
  return chosen.catalogue(workspaceId);
}
