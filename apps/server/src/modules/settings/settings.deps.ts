import type { CoreDeps } from '../../lib/core-deps';

export type SettingsDeps = Pick<CoreDeps, 'db' | 'now'>;
