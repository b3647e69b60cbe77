import type { CoreDeps } from '../../lib/core-deps';

export type EventsDeps = Pick<CoreDeps, 'db' | 'config'>;
