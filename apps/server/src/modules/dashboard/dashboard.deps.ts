import type { CoreDeps } from '../../lib/core-deps';

export type DashboardDeps = Pick<CoreDeps, 'config' | 'database' | 'db' | 'now'>;
