import type { CoreDeps } from '../../lib/core-deps';

export type AccountsDeps = Pick<CoreDeps, 'db' | 'now' | 'config'>;
