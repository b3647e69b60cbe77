import type { CoreDeps } from '../../lib/core-deps';
import type { PrintfulService } from '../printful/printful.service';

/** The catalogue: live Printful when connected, else the bundled snapshot. */
export type CatalogDeps = Pick<CoreDeps, 'config'> & { printful: PrintfulService };
