import type { DecodePool } from '../../decode/decode-pool';
import type { CoreDeps } from '../../lib/core-deps';

/** What the designs module uses: files are decoded in the pool and stored. */
export type DesignsDeps = Pick<CoreDeps, 'config' | 'db' | 'now' | 'storage'> & { decodePool: DecodePool };
