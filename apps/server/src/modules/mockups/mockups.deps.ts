import type { CoreDeps } from '../../lib/core-deps';
import type { DesignsDeps } from '../designs/designs.deps';
import type { PrintfulService } from '../printful/printful.service';

/** What the mockups module uses: designs' layers, the catalogue's products, the template warm-up after start. */
export type MockupsDeps = DesignsDeps & Pick<CoreDeps, 'afterStart'> & { printful: PrintfulService };
