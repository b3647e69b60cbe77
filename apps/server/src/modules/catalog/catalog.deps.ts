import type { CoreDeps } from '../../lib/core-deps';
import type { CatalogSourceImpl } from './catalog.service';

/** The catalogue of a workspace: live Printful when connected, else the bundled snapshot (PrintfulService). */
export type CatalogDeps = Pick<CoreDeps, 'config'> & {
  printful: { catalogFor(workspaceId: string): Promise<CatalogSourceImpl> };
};
