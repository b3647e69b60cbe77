import type { CoreDeps } from '../../lib/core-deps';
import type { PrintFilesDeps } from '../print-files/print-files.deps';
import type { PrintersDeps } from '../printers/printers.deps';
import type { StoresDeps } from '../stores/stores.deps';

/**
 * What the orders module uses: the store adapters (orders come in through the StorePlatform port, tracking goes
 * out), the printers, print files, the order jobs. No store or printer is named.
 */
export type OrdersDeps = PrintFilesDeps & PrintersDeps & StoresDeps & Pick<CoreDeps, 'cipher' | 'jobs'>;
