import type { DecodePool } from '../../decode/decode-pool';
import type { CoreDeps } from '../../lib/core-deps';
import type { PrintersDeps } from '../printers/printers.deps';
import type { PrintfulService } from '../printful/printful.service';

/**
 * What the print-files module uses: the decode pool to draw, signed URLs for the printer to fetch, and the printers
 * (a product's print files follow its printer's placement sizes, `catalogueFor`).
 */
export type PrintFilesDeps = Pick<CoreDeps, 'config' | 'db' | 'now' | 'storage' | 'urlSigner'> &
  PrintersDeps & {
    decodePool: DecodePool;
    printful: PrintfulService;
  };
