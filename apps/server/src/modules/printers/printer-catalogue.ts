import type { TFulfilmentNetwork } from '@podforge/contract';
import { platformLabel } from '@podforge/contract';
import { notImplemented } from '../../lib/errors';
import type { CatalogSourceImpl } from '../catalog/catalog.service';
import type { FulfilmentProviders } from './fulfilment-provider';

/** What finding a printer network's catalogue needs: the printer registry. */
export type PrinterCatalogueDeps = { printers: FulfilmentProviders };

/**
 * The catalogue a workspace sees for a printer network: the one an adapter of it gives for the whole network
 * (`networkCatalogue`: e.g. live by the server's token, else the bundled snapshot), else its connected adapter's,
 * else its first adapter's (which shows its sandbox's). A network with no adapter answers 501.
 */
export async function catalogueFor(
  deps: PrinterCatalogueDeps,
  network: TFulfilmentNetwork | string,
  workspaceId: string,
): Promise<CatalogSourceImpl> {
  const adapters = deps.printers.ofNetwork(network);
  const whole = adapters.find((a) => a.networkCatalogue)?.networkCatalogue;
  if (whole) return whole(workspaceId);
  const first = adapters[0];
  if (!first) throw notImplemented(`${platformLabel(network)} is not available yet`);
  const chosen = (await deps.printers.forWorkspace(workspaceId, network))?.provider ?? first;
  return chosen.catalogue(workspaceId);
}
