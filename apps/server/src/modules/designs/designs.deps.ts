import type { CoreDeps } from '../../lib/core-deps';
import type { DecodePool } from '../decode-pool/decode-pool';

/** What the designs module uses: files are decoded in the pool and stored. */
export type DesignsDeps = Pick<CoreDeps, 'config' | 'db' | 'now' | 'storage'> & { decodePool: DecodePool };
