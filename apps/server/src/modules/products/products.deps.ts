import type { CoreDeps } from '../../lib/core-deps';
import type { PrintFilesDeps } from '../print-files/print-files.deps';
import type { StoresDeps } from '../stores/stores.deps';

/** What the products module uses: designs, mockups and print files, the stores it pushes to, the push job. */
export type ProductsDeps = PrintFilesDeps & StoresDeps & Pick<CoreDeps, 'database' | 'jobs'>;
