import type { DecodePool } from '../../decode/decode-pool';
import type { CoreDeps } from '../../lib/core-deps';
import type { PrintfulService } from '../printful/printful.service';

/** What the print-files module uses: the decode pool to draw, the catalogue's sizes, signed URLs for the printer. */
export type PrintFilesDeps = Pick<CoreDeps, 'config' | 'db' | 'now' | 'storage' | 'urlSigner'> & {
  decodePool: DecodePool;
  printful: PrintfulService;
};
